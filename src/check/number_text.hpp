#pragma once
// A number for a report line: `digits` significant digits, as a double prints them.
#include <sstream>
#include <string>

namespace racer::check {

inline std::string number_text(long double v, int digits = 9) {
  std::ostringstream o;
  o.precision(digits);
  o << static_cast<double>(v);
  return o.str();
}

}  // namespace racer::check
