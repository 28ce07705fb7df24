#include "exec/defect.hpp"

namespace racer::exec {

std::string dims_text(const std::array<uint32_t, 3>& d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

std::string site_text(const Site& s, bool with_thread) {
  std::string out = "launch " + std::to_string(s.launch);
  if (with_thread) out += ", CTA " + dims_text(s.ctaid) + ", thread " + dims_text(s.tid);
  if (s.ptx_line) out += ", PTX line " + std::to_string(s.ptx_line);
  if (!s.source.empty()) out += " (" + s.source + ")";
  return out + ": " + s.text;
}

std::string defect_text(const Defect& d) {
  std::string s = std::string(defect_kind_name(d.kind)) + " at " + d.memory;
  if (!d.detail.empty()) s += " (" + d.detail + ")";
  if (d.count > 1) s += ", " + std::to_string(d.count) + " times";
  return s;
}

std::string_view defect_kind_name(DefectKind k) {
  switch (k) {
    case DefectKind::OobRead: return "oob_read";
    case DefectKind::OobWrite: return "oob_write";
    case DefectKind::UninitRead: return "uninit_read";
    case DefectKind::Race: return "race";
    case DefectKind::AccessViolation: return "access_violation";
    case DefectKind::Misaligned: return "misaligned";
    case DefectKind::UnmappedRead: return "unmapped_read";
  }
  return "?";
}

}  // namespace racer::exec
