#include "exec/defect_log.hpp"

namespace racer::exec {

size_t DefectLog::record(DefectKind kind, const SiteRef& site, const Text& memory, const Text& detail) {
  uint32_t launch = site.launch(), instr = site.instr();
  for (size_t i = 0; i < defects_.size(); ++i) {
    Defect& d = defects_[i];
    if (d.kind == kind && d.site.launch == launch && d.site.instr == instr) {
      ++d.count;
      return i;
    }
  }
  defects_.push_back({kind, program_, site.get(), memory(), detail ? detail() : "", 1});
  return defects_.size() - 1;
}

void DefectLog::set_other_side(size_t index, const std::function<Site()>& other) {
  if (!defects_.at(index).other) defects_[index].other = other();
}

void DefectLog::note(const SiteRef& site, const Text& message) {
  for (const Note& n : notes_)
    if (n.site.launch == site.launch() && n.site.instr == site.instr()) return;
  notes_.push_back({program_, site.get(), message()});
}

uint32_t DefectLog::pend_uninit_read(Site site, std::string memory) {
  pending_uninit_.push_back({std::move(site), std::move(memory), false});
  return static_cast<uint32_t>(pending_uninit_.size());
}

void DefectLog::withdraw_uninit_read(uint32_t ticket) { pending_uninit_.at(ticket - 1).withdrawn = true; }

void DefectLog::commit_uninit_reads() {
  for (const PendingUninit& p : pending_uninit_)
    if (!p.withdrawn) record(DefectKind::UninitRead, SiteRef{nullptr, nullptr, &p.site}, [&] { return p.memory; });
  pending_uninit_.clear();
}

void DefectLog::demote(DefectKind kind, const std::string& why) {
  std::vector<Defect> kept;
  for (Defect& d : defects_) {
    if (d.kind != kind) {
      kept.push_back(std::move(d));
      continue;
    }
    notes_.push_back({d.program, d.site, defect_text(d) + ": " + why});
  }
  defects_ = std::move(kept);
}

std::vector<Defect> DefectLog::standing() const { return defects_; }

}  // namespace racer::exec
