#include "trace/canonical.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "support/error.hpp"
#include "trace/trace.hpp"

namespace racer::trace {

std::string first_float(const nlohmann::json& value, const std::string& path) {
  if (value.is_number_float()) return path.empty() ? "(the value)" : path;
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) {
      std::string p = first_float(v, path.empty() ? k : path + "." + k);
      if (!p.empty()) return p;
    }
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      std::string p = first_float(value[i], path + "[" + std::to_string(i) + "]");
      if (!p.empty()) return p;
    }
  }
  return "";
}

std::optional<std::string> canonical_text(const nlohmann::json& value) {
  if (!first_float(value).empty()) return std::nullopt;
  try {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::string exact_hex(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

double parse_exact_hex(const std::string& text) {
  if (text == "nan") return std::nan("");
  if (text == "inf") return INFINITY;
  if (text == "-inf") return -INFINITY;
  size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
  if (text.compare(start, 2, "0x") != 0 || text.find('p') == std::string::npos)
    throw Error(ExitCode::BadInput, "'" + text + "' is not an exact hex float (like 0x1.8p+1)");
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) throw Error(ExitCode::BadInput, "'" + text + "' is not an exact hex float (trailing characters)");
  return v;
}

}  // namespace racer::trace
