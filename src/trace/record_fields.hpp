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

// Scans canonical lines directly; falls back to parse_record_slow for anything unusual.
// signed_text is filled only when asked for (it is needed only where a signature is checked).
ParsedRecord parse_record(const std::string& line, bool want_signed_text = true);
// Parses into a JSON tree and compares with its canonical dump (the reference behaviour).
ParsedRecord parse_record_slow(const std::string& line);

}  // namespace racer::trace
