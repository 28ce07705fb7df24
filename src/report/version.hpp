#pragma once
#include <string_view>

namespace racer::report {

// The release this build is (CMakeLists.txt's project version; the Python package's too).
std::string_view racer_version();

}  // namespace racer::report
