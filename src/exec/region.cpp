#include "exec/region.hpp"

namespace racer::exec {

Region::Region(std::string n, uint64_t b, uint64_t s, ByteState initial)
    : name(std::move(n)), base(b), size(s), bytes(s, 0), state(s, initial), sym(s, 0), sym_size(s, 0), track(s) {}

}  // namespace racer::exec
