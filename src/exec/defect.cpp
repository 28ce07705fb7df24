#include "exec/defect.hpp"

namespace racer::exec {

std::string_view defect_kind_name(DefectKind k) {
  switch (k) {
    case DefectKind::OobRead: return "oob_read";
    case DefectKind::OobWrite: return "oob_write";
    case DefectKind::UninitRead: return "uninit_read";
    case DefectKind::Race: return "race";
    case DefectKind::AccessViolation: return "access_violation";
    case DefectKind::Misaligned: return "misaligned";
  }
  return "?";
}

}  // namespace racer::exec
