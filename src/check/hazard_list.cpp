#include "check/hazard_list.hpp"

namespace racer::check {

void HazardList::keep(const HazardKey& key, FloatHazard h, uint64_t further, const ProvokingPoint& at) {
  Kept& k = kept_[key];
  if (k.listed.size() == kPerKind) {
    hazards_[k.listed.back()].more += further;
    return;
  }
  h.input = at.how;
  h.values = at.point.values();
  k.listed.push_back(hazards_.size());
  hazards_.push_back(std::move(h));
}

void HazardList::add_output(std::vector<FloatHazard>& cells, const std::optional<InstructionKey>& origin, const ProvokingPoint& at) {
  if (cells.empty()) return;
  HazardKey key{cells[0].kind, cells[0].program, cells[0].output};
  Kept& k = kept_[key];
  const FloatHazard* first_new = nullptr;
  uint64_t fresh = 0;
  for (const FloatHazard& h : cells)
    if (k.cells.insert(h.flat_cell).second) {
      ++fresh;
      if (!first_new) first_new = &h;
    }
  bool new_origin = origin && k.origins.insert(*origin).second;
  if (!fresh && !new_origin) return;  // cells and origin alike an earlier input's
  FloatHazard h = first_new ? *first_new : cells[0];
  h.cells = cells.size();
  keep(key, std::move(h), fresh, at);
}

void HazardList::add_intermediate(FloatHazard h, const InstructionKey& where, const ProvokingPoint& at) {
  HazardKey key{h.kind, h.program, kIntermediate};
  if (!kept_[key].origins.insert(where).second) return;
  keep(key, std::move(h), 1, at);
}

}  // namespace racer::check
