#include "report/version.hpp"

namespace racer::report {

std::string_view racer_version() { return RACER_VERSION; }

}  // namespace racer::report
