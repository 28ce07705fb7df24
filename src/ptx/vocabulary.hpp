#pragma once
// Internal to the front end: one hash lookup per word for what the instruction parser asks of
// it. A modifier word answers whether it names a type and which modifier groups have it; an
// opcode's first word answers whether it is an opcode itself and how long the longest opcode
// starting with it is.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ptx/modifiers.hpp"
#include "ptx/opcodes.hpp"
#include "ptx/types.hpp"

namespace racer::ptx::detail {

struct ModWord {
  Type type = Type::None;                  // the type it names; None when it names none
  std::array<uint8_t, kModCount> value{};  // per group: value index + 1; 0 when not in the group
};
// A dotted word without its dot ("f32", "global", "L2::cache_hint"); nullptr when it is
// neither a type nor in any group's vocabulary.
const ModWord* mod_word(std::string_view word);

struct OpcodeHead {
  std::optional<Op> op;   // the opcode this word is on its own
  uint8_t max_words = 1;  // words in the longest opcode that starts with this word
};
// nullptr when no opcode starts with this word.
const OpcodeHead* opcode_head(std::string_view first_word);

}  // namespace racer::ptx::detail
