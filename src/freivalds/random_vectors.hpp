#pragma once
// The random vectors R (p x k): entry (j, v) is a pure function of (seed, j k + v), so the CPU
// and the GPU draw the same vectors and a trace record's seed reproduces a check exactly.
// Entries are uniform on the 2^24 odd multiples of 2^-24 in (-1, 1): exact in f32, |r| < 1.
#include <cstdint>

#include "freivalds/hd.hpp"

namespace racer::freivalds {

RACER_HD uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

RACER_HD float random_entry(uint64_t seed, uint64_t index) {
  uint64_t bits = splitmix64(splitmix64(seed) ^ index) >> 40;  // 24 bits
  return static_cast<float>(static_cast<int32_t>(bits) * 2 - 0xffffff) * 0x1p-24f;
}

// The bytes of the synthetic integer products (synthetic.cpp, cuda/device_int_data.cu), read
// as int8_t or uint8_t.
RACER_HD uint8_t random_byte(uint64_t seed, uint64_t index) { return static_cast<uint8_t>(splitmix64(splitmix64(seed) ^ index)); }

}  // namespace racer::freivalds
