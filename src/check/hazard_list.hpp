#pragma once
// The hazards the search keeps (check/hazards.hpp): several of one kind, program and output
// when they are at other cells, or start at other instructions, than the ones listed; at most
// kPerKind of them, the cells beyond counted on the last one listed (FloatHazard::more). The
// cells of one input with the same hazard are one hazard ("N cells alike").
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "check/hazard_points.hpp"
#include "check/intermediate_hazards.hpp"
#include "check/result.hpp"

namespace racer::check {

// (kind, program, output); kIntermediate in place of the output for intermediate values.
using HazardKey = std::tuple<std::string, char, size_t>;
constexpr size_t kIntermediate = std::numeric_limits<size_t>::max();

class HazardList {
 public:
  static constexpr size_t kPerKind = 4;

  // One input's hazards of one key, one per cell, in cell order; `origin`: the instruction
  // where their program's first such value was made there, if known.
  void add_output(std::vector<FloatHazard>& cells, const std::optional<InstructionKey>& origin, const ProvokingPoint& at);
  // One input's intermediate hazard at instruction `where`.
  void add_intermediate(FloatHazard h, const InstructionKey& where, const ProvokingPoint& at);
  size_t size() const { return hazards_.size(); }
  std::vector<FloatHazard> take() { return std::move(hazards_); }

 private:
  struct Kept {
    std::set<int64_t> cells;
    std::set<InstructionKey> origins;
    std::vector<size_t> listed;  // into hazards_
  };
  // Lists `h` under `key`, or counts `further` cells on the last one listed.
  void keep(const HazardKey& key, FloatHazard h, uint64_t further, const ProvokingPoint& at);

  std::map<HazardKey, Kept> kept_;
  std::vector<FloatHazard> hazards_;
};

}  // namespace racer::check
