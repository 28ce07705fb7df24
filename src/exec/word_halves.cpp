#include "exec/word_halves.hpp"

#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

// bits: the value's `sym` (31:0), its integer flag (32), which word (33: the high one), and
// where the word sits in the register (34: shifted up by 32, else in the low 32 bits).
constexpr uint64_t kIntegerFlag = uint64_t{1} << 32, kHighWord = uint64_t{1} << 33, kShiftedUp = uint64_t{1} << 34;

struct Word {
  uint32_t sym;
  bool integer, high, up;
};

Word decode(Value w) {
  return {static_cast<uint32_t>(w.bits), (w.bits & kIntegerFlag) != 0, (w.bits & kHighWord) != 0, (w.bits & kShiftedUp) != 0};
}

Value encode(const Word& w) {
  return Value{uint64_t{w.sym} | (w.integer ? kIntegerFlag : 0) | (w.high ? kHighWord : 0) | (w.up ? kShiftedUp : 0), Value::kWord, false};
}

bool is_zero(Value v) { return v.is_concrete() && v.bits == 0; }

}  // namespace

Value word_of(Value v, bool high) {
  if (!v.is_symbolic() || v.sym >= Value::kFirstMarker) throw Refusal("splits into 32-bit words a register that holds no 64-bit value");
  return encode({v.sym, v.integer, high, false});
}

std::array<Value, 2> words_split(Value v) {
  if (v.is_concrete()) return {Value::of_bits(v.bits & 0xFFFFFFFF), Value::of_bits(v.bits >> 32)};
  if (v.is_word()) {
    Word w = decode(v);
    const bool up = w.up;
    w.up = false;
    return up ? std::array<Value, 2>{Value::of_bits(0), encode(w)} : std::array<Value, 2>{encode(w), Value::of_bits(0)};
  }
  return {word_of(v, false), word_of(v, true)};
}

std::optional<Value> words_joined(Value lo, Value hi) {
  if (lo.is_concrete() && hi.is_concrete()) return Value::of_bits((lo.bits & 0xFFFFFFFF) | (hi.bits << 32));
  if (!(lo.is_word() || is_zero(lo)) || !(hi.is_word() || is_zero(hi))) return std::nullopt;
  if (is_zero(hi)) return decode(lo).up ? std::nullopt : std::optional<Value>(lo);
  Word h = decode(hi);
  if (h.up) return std::nullopt;
  if (is_zero(lo)) {
    h.up = true;
    return encode(h);
  }
  const Word l = decode(lo);
  if (l.up || l.high || !h.high || l.sym != h.sym) return std::nullopt;
  return Value{0, l.sym, l.integer};
}

std::optional<Value> words_merged(Value a, Value b) {
  if (!a.is_word() && !b.is_word()) return std::nullopt;
  // Each side as (low word, high word) of the register it is; the sum of the two registers is
  // the join only where, word by word, one side is zero.
  const std::array<Value, 2> x = words_split(a), y = words_split(b);
  std::array<Value, 2> w;
  for (size_t k = 0; k < 2; ++k) {
    if (is_zero(x[k])) w[k] = y[k];
    else if (is_zero(y[k])) w[k] = x[k];
    else return std::nullopt;
  }
  return words_joined(w[0], w[1]);
}

std::optional<Value> word_shifted(Value v, unsigned n, bool up) {
  if (n == 0) return v;
  if (n >= 64) return Value::of_bits(0);
  if (n != 32) return std::nullopt;
  std::array<Value, 2> w = words_split(v);
  return up ? words_joined(Value::of_bits(0), w[0]) : words_joined(w[1], Value::of_bits(0));
}

Value word_truncated(Value w) { return words_split(w)[0]; }

}  // namespace racer::exec
