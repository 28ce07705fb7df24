"""vLLM 0.34.0: Triton kernels of the GPU model runner's sampler (vllm/v1/worker/gpu/sample/), against
reference/vllm_attention.cu: temperature, min-p, logit bias with allowed tokens and min-tokens stop masking,
repetition / frequency / presence penalties (with draft tokens of speculative decoding), token log-probabilities
and bad words. Rows of the logits belong to requests through a concrete expanded_idx_mapping; per-request
settings and token lists are concrete, the logits (and the penalty and bias values) are free inputs. Each
launched with the constexprs, grid and warps vLLM's host wrapper picks (Triton's default 4 warps where it gives
none)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

SAMPLE = "vllm.v1.worker.gpu.sample"
REF = "vllm_attention.cu"
R, V = 4, 40  # logits rows (tokens), vocabulary


class VllmTemperature(Row):
    """vLLM _temperature_kernel (v1/worker/gpu/sample/gumbel.py, apply_temperature): logits / temperature of the
    row's request, untouched where it is 0 (greedy) or 1; 4 rows of 40 mapped to requests [3, 1, 0, 2] with
    temperatures [0.7, 0, 1, 1.3]; BLOCK_SIZE 8192, grid (4, cdiv(40, 8192) = 1)"""

    def setup(self):
        self.x = racer.input((R, V), "f32", range=(-20, 20))
        self.map = racer.values([3, 1, 0, 2], dtype="i32")
        self.t = racer.values([0.7, 0.0, 1.0, 1.3], dtype="f32")

    def program_a(self):
        k = racer.triton(kernel(f"{SAMPLE}.gumbel", "_temperature_kernel"), BLOCK_SIZE=8192)
        racer.launch(k, grid=(R, 1), args=[racer.readwrite(self.x), V, racer.read(self.map), racer.read(self.t), V])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref(REF, "temperature_ref"), grid=(R * V + 127) // 128, block=128,
                     args=[racer.readwrite(self.x), racer.read(self.map), racer.read(self.t), R, V])
        return {"x": self.x}


class _MinP:
    """vLLM _min_p_kernel (v1/worker/gpu/sample/min_p.py, apply_min_p): logits below max + log(min_p) become -inf
    (probability below min_p times the top one); 3 rows of 40 mapped to requests [2, 0, 1] with min_p
    [0.1, 0 (off: the row is left as is), 0.05]; BLOCK_SIZE 1024, grid (3,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, V), "f32", range=(-8, 8))
        self.map = racer.values([2, 0, 1], dtype="i32")
        self.p = racer.values([0.1, 0.0, 0.05], dtype="f32")

    def program_a(self):
        k = racer.triton(kernel(f"{SAMPLE}.min_p", "_min_p_kernel", self.mutate), BLOCK_SIZE=1024)
        racer.launch(k, grid=3, args=[racer.readwrite(self.x), V, racer.read(self.map), racer.read(self.p), V])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref(REF, "min_p_ref"), grid=1, block=3,
                     args=[racer.readwrite(self.x), racer.read(self.map), racer.read(self.p), 3, V])
        return {"x": self.x}


class VllmMinP(_MinP, Row):
    """vLLM min-p filtering of logits"""


class VllmMinPMaxPadZeroMutant(_MinP, Mutation):
    """mutation: the max pass pads the block with 0 instead of -inf: rows of negative logits (here in (-8, -0.5))
    get max 0"""
    mutate = [('other=float("-inf"),\n        )\n        max_val', 'other=0.0,\n        )\n        max_val')]

    def setup(self):  # rows of negative logits (the padding's 0 then exceeds the row max)
        super().setup()
        self.x = racer.input((3, V), "f32", range=(-8, -0.5))


# Logit bias: 2 rows (requests 1 and 0 of 2); the lists are vLLM's fixed-width per-request buffers.
CAP_ALLOWED = CAP_BIAS = 1024  # MAX_NUM_ALLOWED_TOKEN_IDS, MAX_NUM_LOGIT_BIAS_TOKENS
CAP_STOP = 128  # MAX_NUM_STOP_TOKEN_IDS


def _padded(rows, cap):
    return [r + [0] * (cap - len(r)) for r in rows]


class _LogitBias:
    """vLLM _bias_kernel (v1/worker/gpu/sample/logit_bias.py, apply_logit_bias): row 0 (request 1) keeps only its
    allowed tokens [4, 17, 33] and is past its min tokens; row 1 (request 0) adds biases to tokens [5, 9, 20] and,
    at position 3 with min length 8, masks its stop tokens [2, 30] to -inf. BLOCK_SIZE next_power_of_2(max(1024,
    1024, 128)) = 1024, LOGITS_BLOCK_SIZE 8192, CHECK_ALL_MASKED_ROWS False (no structured output), grid (2,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((2, V), "f32", range=(-8, 8))
        self.map = racer.values([1, 0], dtype="i32")
        self.n_allowed = racer.values([0, 3], dtype="i32")
        self.allowed = racer.values(_padded([[], [4, 17, 33]], CAP_ALLOWED), dtype="i32")
        self.n_bias = racer.values([3, 0], dtype="i32")
        self.bias_ids = racer.values(_padded([[5, 9, 20], []], CAP_BIAS), dtype="i32")
        self.bias = racer.input((2, CAP_BIAS), "f32", range=(-4, 4))
        self.pos = racer.values([12, 3], dtype="i64")
        self.min_len = racer.values([8, 6], dtype="i32")
        self.n_stop = racer.values([2, 1], dtype="i32")
        self.restore = racer.values([0, 0], dtype="i32")
        self.stop = racer.values(_padded([[2, 30], [33]], CAP_STOP), dtype="i32")

    def program_a(self):
        k = racer.triton(kernel(f"{SAMPLE}.logit_bias", "_bias_kernel", self.mutate), BLOCK_SIZE=1024,
                         LOGITS_BLOCK_SIZE=8192, CHECK_ALL_MASKED_ROWS=False)
        racer.launch(k, grid=2,
                     args=[racer.readwrite(self.x), V, V, racer.read(self.map), racer.read(self.n_allowed),
                           racer.read(self.allowed), CAP_ALLOWED, racer.read(self.n_bias), racer.read(self.bias_ids),
                           CAP_BIAS, racer.read(self.bias), CAP_BIAS, racer.read(self.pos), racer.read(self.min_len),
                           racer.read(self.n_stop), racer.read(self.restore), racer.read(self.stop), CAP_STOP])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref(REF, "logit_bias_ref"), grid=1, block=2,
                     args=[racer.readwrite(self.x), racer.read(self.map), racer.read(self.n_allowed),
                           racer.read(self.allowed), racer.read(self.n_bias), racer.read(self.bias_ids),
                           racer.read(self.bias), racer.read(self.pos), racer.read(self.min_len),
                           racer.read(self.n_stop), racer.read(self.stop), 2, V, CAP_ALLOWED, CAP_BIAS, CAP_STOP])
        return {"x": self.x}


class VllmLogitBias(_LogitBias, Row):
    """vLLM logit bias: allowed-token masking, additive biases, min-tokens stop masking"""


class VllmLogitBiasMinTokensOffByOneMutant(_LogitBias, Mutation):
    """mutation: the min-tokens test compares the position itself (`pos < min_len`), so the last position
    before min length (pos + 1 == min_len) still masks the stop tokens; row 1 moved to position 7 (min length 8)"""
    mutate = [("if num_stop_token_ids > 0 and pos + 1 < min_len:", "if num_stop_token_ids > 0 and pos < min_len:")]

    def setup(self):
        super().setup()
        self.pos = racer.values([12, 7], dtype="i64")


# Penalties: 3 rows; rows 0 and 1 are request 1's last committed token and its first draft token.
PEN_MAP = [1, 1, 0]
PEN_IDS = [7, 11, 3]  # input_ids: row 1 counts draft token 11 (ids[1])
PEN_POS = [0, 1, 0]  # expanded_local_pos
PEN_WORDS = 2  # cdiv(40, 32) packed prompt-mask words


def _prompt_bits(tokens):
    words = [0] * PEN_WORDS
    for t in tokens:
        words[t // 32] |= 1 << (t % 32)
    return [w - (1 << 32) if w >= 1 << 31 else w for w in words]  # as int32


class _Penalties:
    """vLLM _penalties_kernel (v1/worker/gpu/sample/penalties.py, apply_penalties): repetition penalty on tokens
    of the prompt (packed bit mask) or the output, frequency and presence penalties on output counts plus the
    row's earlier draft tokens; 3 rows of 40 (requests [1, 1, 0], local positions [0, 1, 0]), penalties free in
    (1.05, 2), (0.1, 1), (0.1, 1); PENALTIES_BLOCK_SIZE 8192, grid (3, cdiv(40, 8192) = 1)"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, V), "f32", range=(-8, 8))
        self.map = racer.values(PEN_MAP, dtype="i32")
        self.ids = racer.values(PEN_IDS, dtype="i32")
        self.pos = racer.values(PEN_POS, dtype="i32")
        self.rep = racer.input((2,), "f32", range=(1.05, 2))
        self.freq = racer.input((2,), "f32", range=(0.1, 1))
        self.pres = racer.input((2,), "f32", range=(0.1, 1))
        self.prompt = racer.values([_prompt_bits([0, 5, 33, 39]), _prompt_bits([2, 11, 31, 32])], dtype="i32")
        counts = [[0] * V for _ in range(2)]
        counts[0][5], counts[0][6], counts[1][7], counts[1][20], counts[1][2] = 1, 3, 2, 1, 1
        self.counts = racer.values(counts, dtype="i32")

    def program_a(self):
        k = racer.triton(kernel(f"{SAMPLE}.penalties", "_penalties_kernel", self.mutate), BLOCK_SIZE=8192)
        racer.launch(k, grid=(3, 1),
                     args=[racer.readwrite(self.x), V, racer.read(self.map), racer.read(self.ids), racer.read(self.pos),
                           racer.read(self.rep), racer.read(self.freq), racer.read(self.pres), racer.read(self.prompt),
                           PEN_WORDS, racer.read(self.counts), V, V])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref(REF, "penalties_ref"), grid=1, block=3 * V,
                     args=[racer.readwrite(self.x), racer.read(self.map), racer.read(self.ids), racer.read(self.pos),
                           racer.read(self.rep), racer.read(self.freq), racer.read(self.pres), racer.read(self.prompt),
                           racer.read(self.counts), 3, V, PEN_WORDS])
        return {"x": self.x}


class VllmPenalties(_Penalties, Row):
    """vLLM sampling penalties (repetition, frequency, presence)"""


class VllmPenaltiesRepetitionSwappedMutant(_Penalties, Mutation):
    """mutation: the repetition penalty's two cases are swapped (positive logits multiplied, negative divided)"""
    mutate = [("logits *= tl.where(logits > 0, 1.0 / scale, scale)", "logits *= tl.where(logits > 0, scale, 1.0 / scale)")]


class _Logprobs:
    """vLLM _topk_log_softmax_kernel (v1/worker/gpu/sample/logprob.py, compute_token_logprobs): log-probabilities
    of the sampled token and 2 top-k tokens per row (token ids [2][3] i64 concrete); BLOCK_SIZE 1024,
    TOPK_BLOCK_SIZE next_power_of_2(3) = 4, grid (2,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((2, V), "f32", range=(-8, 8))
        self.ids = racer.values([[7, 7, 31], [0, 39, 12]], dtype="i64")
        self.out = racer.empty((2, 3), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{SAMPLE}.logprob", "_topk_log_softmax_kernel", self.mutate), BLOCK_SIZE=1024,
                         TOPK_BLOCK_SIZE=4)
        racer.launch(k, grid=2, args=[racer.write(self.out), racer.read(self.x), V, racer.read(self.ids), 3, 3, V])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref(REF, "token_logprobs_ref"), grid=1, block=2,
                     args=[racer.read(self.x), racer.read(self.ids), racer.write(self.out), 2, V, 3])
        return {"out": self.out}


class VllmTokenLogprobs(_Logprobs, Row):
    """vLLM token log-probabilities: x[id] - log(sum exp x)"""


class VllmTokenLogprobsUnmaskedPadMutant(_Logprobs, Mutation):
    """mutation: the sum of exponentials keeps the padding lanes (loaded as 0: each adds exp(-max))"""
    mutate = [("e = tl.where(block < vocab_size, e, 0.0)", "e = e")]


# Bad words: 3 rows; rows 0, 1 are request 0's last committed token and first draft token, row 2 request 1's.
BW_MAP = [0, 0, 1]
BW_POS = [0, 1, 0]  # expanded_local_pos
BW_INPUT = [9, 4, 25]  # input_ids (row 1's draft token is 4)
BW_CAP_WORDS, BW_CAP_IDS, BW_MAX = 16, 16, 3  # bad-word token buffer width, all_token_ids width, max bad words
BW_WORDS = [[4, 6, 4, 8, 21], [30, 1, 2]]  # request 0: words [4, 6], [4, 8], [21]; request 1: [30, 1, 2]
BW_OFFS = [[0, 2, 4, 5], [0, 3, 0, 0]]
BW_N = [3, 1]
BW_PROMPT, BW_TOTAL = [3, 2], [6, 5]  # request 0 generated 3 tokens, request 1 generated 3
BW_ALL = [[11, 12, 13, 5, 8, 4], [14, 15, 7, 30, 1]]  # prompt then output tokens


class VllmBadWords(Row):
    """vLLM _bad_words_kernel (v1/worker/gpu/sample/bad_words.py, apply_bad_words): a bad word's last token becomes
    -inf where the tokens before the row (the request's output, then its draft tokens) end with the word's
    prefix; 3 rows (requests [0, 0, 1], local positions [0, 1, 0]): row 0 ends with 4 (bans 6 and 8), row 1 ends
    with draft token 4 (bans 6 and 8), single-token word 21 always banned, request 1 ends with 30, 1 (bans 2);
    grid (3, max_num_bad_words 3)"""

    def setup(self):
        self.x = racer.input((3, V), "f32", range=(-8, 8))
        self.map = racer.values(BW_MAP, dtype="i32")
        self.words = racer.values(_padded([list(w) for w in BW_WORDS], BW_CAP_WORDS), dtype="i32")
        self.offs = racer.values(BW_OFFS, dtype="i32")
        self.n = racer.values(BW_N, dtype="i32")
        self.all = racer.values(_padded([list(a) for a in BW_ALL], BW_CAP_IDS), dtype="i32")
        self.prompt = racer.values(BW_PROMPT, dtype="i32")
        self.total = racer.values(BW_TOTAL, dtype="i32")
        self.input = racer.values(BW_INPUT, dtype="i32")
        self.pos = racer.values(BW_POS, dtype="i32")

    def program_a(self):
        k = racer.triton(kernel(f"{SAMPLE}.bad_words", "_bad_words_kernel"))
        racer.launch(k, grid=(3, BW_MAX),
                     args=[racer.readwrite(self.x), V, racer.read(self.map), racer.read(self.words), BW_CAP_WORDS,
                           racer.read(self.offs), 4, racer.read(self.n), racer.read(self.all), BW_CAP_IDS,
                           racer.read(self.prompt), racer.read(self.total), racer.read(self.input),
                           racer.read(self.pos)])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref(REF, "bad_words_ref"), grid=1, block=3,
                     args=[racer.readwrite(self.x), racer.read(self.map), racer.read(self.words), racer.read(self.offs),
                           racer.read(self.n), racer.read(self.all), racer.read(self.prompt), racer.read(self.total),
                           racer.read(self.input), racer.read(self.pos), 3, V, BW_CAP_WORDS, 4, BW_CAP_IDS])
        return {"x": self.x}
