#include "tools/racer/options.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace racer::cli {
namespace {

bool parse_number(const std::string& s, double& v) {
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && end && *end == '\0';
}

}  // namespace

const CLI::Validator& non_negative() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        double x = 0;
        if (!parse_number(s, x) || !std::isfinite(x) || x < 0) return "'" + s + "' is not a finite number >= 0";
        return {};
      },
      "NUMBER>=0");
  return v;
}

const CLI::Validator& positive_count() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        double x = 0;
        if (!parse_number(s, x) || x < 1 || x != std::floor(x) || x > 4096) return "'" + s + "' is not a whole number from 1 to 4096";
        return {};
      },
      "N>=1");
  return v;
}

const CLI::Validator& input_file() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        std::error_code ec;
        // A missing file is left to the command, which says what it could not read.
        if (std::filesystem::is_directory(s, ec)) return s + " is a directory; expected a file";
        return {};
      },
      "FILE");
  return v;
}

}  // namespace racer::cli
