#include "exec/region.hpp"

#include <algorithm>

namespace racer::exec {

Region::Region(std::string n, uint64_t b, uint64_t s, ByteState initial)
    : name(std::move(n)), base(b), size(s), bytes(s), state(s), sym(s), sym_size(s), track(s) {
  static_assert(ByteState{} == ByteState::Uninit);  // (what the pages hold before a write)
  if (initial != ByteState::Uninit) std::fill(state.begin(), state.end(), initial);
}

}  // namespace racer::exec
