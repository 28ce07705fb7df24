#pragma once
// Reading one trace line back: its writer fields and the text its signature covers.
#include <array>
#include <cstdint>
#include <string>

namespace racer::trace {

inline const std::string kZeroHash(64, '0');

struct ParsedRecord {
  std::string problem;  // empty when the line is a well-formed canonical record
  uint64_t seq = 0;
  std::string prev_hex, key_hex;
  std::array<uint8_t, 64> sig{};
  std::string signed_text;  // canonical text without "sig"
};

ParsedRecord parse_record(const std::string& line);

}  // namespace racer::trace
