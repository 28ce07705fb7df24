#pragma once
// A symbolic 64-bit value moved as its two 32-bit words. CUDA shuffles a double or a 64-bit
// integer as mov.b64 {lo, hi} / two shfl.b32 / mov.b64 {lo, hi}; Triton takes the low word with
// cvt.u32.u64 and the high one with mov.b64 {_, hi} (or shr.b64 by 32), and rejoins them with
// cvt.u64.u32, shl.b64 by 32 and or.b64. A word is structure, not a number (DESIGN
// "Semantics"): it may be moved (mov, shfl, selp on a known predicate), widened with zeros,
// shifted by a whole word inside a 64-bit register and joined with its twin into the value it
// came from; anything that reads it as a number is refused (Value::expr), as is storing it.
#include <array>
#include <optional>

#include "exec/value.hpp"

namespace racer::exec {

// The low or the high word of v, a symbolic 64-bit value (an expression, not lanes), in a
// register's low 32 bits with zeros above.
Value word_of(Value v, bool high);
// The two words of a 64-bit register (mov.b64 {lo, hi}, v): concrete bits split, a symbolic
// value into its words, a word moved by shifts into its place.
std::array<Value, 2> words_split(Value v);
// A 64-bit register from two words (mov.b64 v, {lo, hi}; or of a word with its twin shifted
// into place): the value both came from, or one word and zeros. Null where they are not that.
std::optional<Value> words_joined(Value lo, Value hi);
// An or/xor of two 64-bit registers of which one holds a word (their set bits cannot overlap
// where, word by word, one side is zero): words_joined of the two. Null where that is not so.
std::optional<Value> words_merged(Value a, Value b);
// A 64-bit register holding a word (or a symbolic f64, whose words are taken) shifted up or
// down by n bits (shl.b64, shr.u64): a whole word's move, or zeros. Null for other shifts.
std::optional<Value> word_shifted(Value v, unsigned n, bool up);
// The low 32 bits of a 64-bit register holding a word (cvt.u32.u64): the word, or zeros.
Value word_truncated(Value w);

}  // namespace racer::exec
