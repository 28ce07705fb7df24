#pragma once
// Defects found while running a program: where, who, and what.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace racer::exec {

// UnmappedRead: a read of a tensor's storage that no cell of its shape and strides maps to (a
// kernel that assumes packed rows of a tensor with a row stride).
enum class DefectKind : uint8_t { OobRead, OobWrite, UninitRead, Race, AccessViolation, Misaligned, UnmappedRead };

std::string_view defect_kind_name(DefectKind k);  // "oob_read", ... as in the instance format

// Where an instruction is: enough to print "launch 0, CTA (1,0,0), thread (5,0,0), line 42: st.global.f32 ...".
struct Site {
  uint32_t launch = 0;
  std::array<uint32_t, 3> ctaid{}, tid{};
  uint32_t instr = 0;       // index in the function
  uint32_t ptx_line = 0;    // 0 when unknown
  std::string source;       // "kernels.cu:12:5" from .loc, or empty
  std::string text;         // the instruction, printed
};

// "(1,0,0)": a CTA or thread index.
std::string dims_text(const std::array<uint32_t, 3>& d);
// "launch 0, CTA (1,0,0), thread (5,0,0), PTX line 42 (k.cu:12:5): st.global.f32 ..." (without
// the CTA and thread where the site names an instruction, not one thread's execution of it).
std::string site_text(const Site& s, bool with_thread = true);

struct Defect {
  DefectKind kind;
  char program = 'a';
  Site site;
  std::string memory;       // "out[3]", "shared +16 (CTA 2)", "0x10000400 (4 bytes past the end of out)"
  std::string detail;       // for races: the other access
  uint64_t count = 1;       // further occurrences at the same instruction, folded into this one
  std::optional<Site> other;  // for races: the other access's thread and instruction, where it was one
};

// "race at x[0,0] (write conflicts with ...), 120 times": what, where and how often.
std::string defect_text(const Defect& d);

// Notes are observations that are not defects (e.g. replicated stores of the same value).
struct Note {
  char program = 'a';
  Site site;
  std::string message;
};

}  // namespace racer::exec
