#pragma once
// Text made safe for XML and HTML (JUnit reports, the HTML page).
#include <string>
#include <string_view>

namespace racer::report {

// &, <, >, " and ' as entities; control characters XML 1.0 forbids become spaces.
std::string xml_escape(std::string_view s);

}  // namespace racer::report
