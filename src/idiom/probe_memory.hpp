#pragma once
// The memory a probe of a compiled routine may use besides registers: the thread's local
// scratch memory, kept private to the probe (the machine's memory is never written by a
// probe), byte by byte with whether the byte came from the probed input. Read-only
// constant tables come from the machine (Machine::peek_constant).
#include <cstdint>
#include <map>
#include <optional>

namespace racer::idiom {

class ProbeScratch {
 public:
  void store(uint64_t addr, unsigned size, uint64_t bits, bool derived) {
    for (unsigned k = 0; k < size; ++k) bytes_[addr + k] = {static_cast<uint8_t>(bits >> (8 * k)), derived};
  }
  // The bytes, if the probe stored all of them; `derived` is or-ed with theirs.
  std::optional<uint64_t> load(uint64_t addr, unsigned size, bool& derived) const {
    uint64_t bits = 0;
    for (unsigned k = 0; k < size; ++k) {
      auto it = bytes_.find(addr + k);
      if (it == bytes_.end()) return std::nullopt;
      bits |= uint64_t{it->second.first} << (8 * k);
      derived |= it->second.second;
    }
    return bits;
  }

 private:
  std::map<uint64_t, std::pair<uint8_t, bool>> bytes_;
};

}  // namespace racer::idiom
