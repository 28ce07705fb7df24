#pragma once
// binary32 add, sub, mul and fma on the host's float, where that is the emulator's result bit for
// bit: IEEE 754 rounds each of them to nearest, ties to even, exactly as ieee.hpp does, and the
// host's default mode keeps subnormals (no flush-to-zero). Faster by an order of magnitude than
// the emulator's integer significands, which replays and the self-check's runs spend most of
// their float time in. A NaN result is left to the emulator, whose NaN follows the GPU's rules of
// propagation (the host's payloads differ). tests/unit/exec/host_f32_test.cpp holds the two
// together on special, subnormal, halfway and random operands.
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

namespace racer::exec::host_f32 {

inline float of(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }
inline std::optional<uint64_t> result(float r) {
  if (std::isnan(r)) return std::nullopt;
  return std::bit_cast<uint32_t>(r);
}

inline std::optional<uint64_t> add(uint64_t a, uint64_t b) { return result(of(a) + of(b)); }
inline std::optional<uint64_t> sub(uint64_t a, uint64_t b) { return result(of(a) - of(b)); }
inline std::optional<uint64_t> mul(uint64_t a, uint64_t b) { return result(of(a) * of(b)); }
inline std::optional<uint64_t> fma(uint64_t a, uint64_t b, uint64_t c) { return result(std::fma(of(a), of(b), of(c))); }

}  // namespace racer::exec::host_f32
