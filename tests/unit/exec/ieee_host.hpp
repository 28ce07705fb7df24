#pragma once
// A harness comparing an ieee operation with the host CPU on special-value products and
// random operands (with correlated operands for cancellation and halfway cases).
#include <gtest/gtest.h>
#include <xmmintrin.h>

#include <cmath>
#include <functional>
#include <iomanip>
#include <sstream>
#include <vector>

#include "ieee_gen.hpp"
#include "ieee_ref.hpp"

namespace racer::ieee::test {

template <class T>
constexpr Format format_of() {
  return sizeof(T) == 4 ? Format::F32 : Format::F64;
}
template <class T>
T value_of(std::uint64_t b) {
  if constexpr (sizeof(T) == 4) return f32_of(b); else return f64_of(b);
}

// Sets the host's SSE flush-to-zero and denormals-are-zero modes for its lifetime: x86 then
// flushes subnormal operands, and results that are tiny after rounding with an unbounded
// exponent, to signed zero -- the rule the GPU's .ftz follows.
struct HostFtz {
  unsigned saved;
  explicit HostFtz(bool on) : saved(_mm_getcsr()) {
    if (on) _mm_setcsr(saved | 0x8040u);
  }
  ~HostFtz() { _mm_setcsr(saved); }
  HostFtz(const HostFtz&) = delete;
  HostFtz& operator=(const HostFtz&) = delete;
};

inline std::string hex(std::uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

// Compares ours(a, b, c) with host(a, b, c) (host values, under mode m) on all operands; a NaN
// from the host must be the canonical NaN (F64: any NaN). Reports the first few differences.
template <class T>
void expect_matches_host(const char* what, Rounding m, int arity, int random_count,
                         const std::function<std::uint64_t(std::uint64_t, std::uint64_t, std::uint64_t)>& ours,
                         const std::function<T(T, T, T)>& host, std::uint64_t seed = 7,
                         bool ftz = false) {
  const Format f = format_of<T>();
  int failures = 0;
  auto ops = operands(f, arity, random_count, seed);
  HostRounding hr(m);
  HostFtz hf(ftz);
  for (const auto& o : ops) {
    T h = host(value_of<T>(o[0]), value_of<T>(o[1]), value_of<T>(o[2]));
    std::uint64_t want = std::isnan(h) ? canonical_nan(f) : bits_of(h);
    std::uint64_t got = ours(o[0], o[1], o[2]);
    // F64 NaN payloads follow the GPU's propagation (ieee_gpu_test), not the host's.
    bool ok = got == want || (f == Format::F64 && std::isnan(h) && is_nan(f, got));
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << what << " mode " << int(m) << (ftz ? " ftz" : "") << " on " << hex(o[0]) << " " << hex(o[1])
                    << " " << hex(o[2]) << ": got " << hex(got) << " want " << hex(want);
    }
  }
  EXPECT_EQ(failures, 0) << what << " mode " << int(m) << " over " << ops.size() << " operands";
}

}  // namespace racer::ieee::test
