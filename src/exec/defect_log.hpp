#pragma once
// The defects and notes of one program's run, one entry per kind and instruction (further
// occurrences are counted). Uninitialized reads wait for the end of their launch: a later
// write by another thread in the same epoch is a race, and the read it raced with is then
// not reported as uninitialized as well.
#include <string>
#include <vector>

#include "exec/defect.hpp"
#include "exec/site_ref.hpp"

namespace racer::exec {

class DefectLog {
 public:
  explicit DefectLog(char program) : program_(program) {}

  // Records a defect (folded into an earlier one of the same kind at the same instruction);
  // returns its index.
  size_t record(DefectKind kind, const SiteRef& site, const Text& memory, const Text& detail = {});
  // The other side of the race recorded as defect `index`, kept from its first occurrence
  // (made only then: a race repeats at every access of the same instruction).
  void set_other_side(size_t index, const std::function<Site()>& other);
  void note(const SiteRef& site, const Text& message);

  // An uninitialized read, held until commit_uninit_reads; returns its ticket (never 0).
  uint32_t pend_uninit_read(Site site, std::string memory);
  void withdraw_uninit_read(uint32_t ticket);
  void commit_uninit_reads();  // at the end of a launch

  // Turns every defect of `kind` into a note that ends with `why`.
  void demote(DefectKind kind, const std::string& why);

  std::vector<Defect> standing() const;
  const std::vector<Note>& notes() const { return notes_; }

 private:
  struct PendingUninit {
    Site site;
    std::string memory;
    bool withdrawn = false;
  };
  char program_;
  std::vector<Defect> defects_;
  std::vector<Note> notes_;
  std::vector<PendingUninit> pending_uninit_;
};

}  // namespace racer::exec
