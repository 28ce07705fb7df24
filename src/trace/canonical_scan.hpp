#pragma once
// A single-pass reader for trace lines that are already canonical, so that `trace verify`
// need not build a JSON tree per record (100,000 records in well under a second). It accepts
// only the plain canonical spellings (sorted ASCII keys, integers, short escapes); anything
// else it answers Unsure and the caller falls back to the full parse-and-redump comparison,
// so the fast path never accepts a line the slow path would refuse.
#include <cstddef>
#include <string_view>

namespace racer::trace {

struct Member {
  std::string_view value;  // raw text of the value (strings with their quotes)
  size_t begin = 0, end = 0;  // the member "key":value in the line
  bool present = false;
};

struct ScanResult {
  enum Status { Canonical, NotCanonical, Unsure } status = Unsure;
  Member seq, prev, key, sig;  // top-level writer fields
};

ScanResult scan_record(std::string_view line);

}  // namespace racer::trace
