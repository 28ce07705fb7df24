#pragma once
// Hash mixing for the unique tables. Inputs are small integers (indices), so every step
// must avalanche or probing degenerates.
#include <cstddef>
#include <cstdint>

namespace racer::expr::detail {

inline uint64_t hash_mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 32);
}

// One operand slot at a position, mixed independently of the others: a node's slots are
// summed, so long sums hash with the multiplications in parallel instead of in a chain.
inline uint64_t hash_slot(uint32_t v, size_t position) {
  uint64_t z = (uint64_t(v) | uint64_t(position) << 32) + 0x9e3779b97f4a7c15ULL;
  z *= 0xbf58476d1ce4e5b9ULL;
  return z ^ (z >> 31);
}

inline uint64_t hash_finish(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace racer::expr::detail
