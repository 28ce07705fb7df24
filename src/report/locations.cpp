#include "report/locations.hpp"

#include <filesystem>
#include <fstream>

namespace racer::report {
namespace fs = std::filesystem;

SourcePos parse_source_pos(const std::string& source) {
  SourcePos p;
  // FILE:LINE:COL, where FILE may itself hold colons.
  auto c2 = source.rfind(':');
  auto c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : source.rfind(':', c2 - 1);
  if (c1 == std::string::npos) return p;
  try {
    p.line = static_cast<uint32_t>(std::stoul(source.substr(c1 + 1, c2 - c1 - 1)));
    p.column = static_cast<uint32_t>(std::stoul(source.substr(c2 + 1)));
  } catch (const std::exception&) {
    return {};
  }
  p.file = source.substr(0, c1);
  return p;
}

std::string launch_ptx_path(const instance::Instance& inst, char program, uint32_t launch) {
  const auto& launches = (program == 'a' ? inst.a : inst.b).launches;
  return launch < launches.size() ? launches[launch].ptx : std::string();
}

std::string find_source_file(const std::string& name, const std::string& ptx_path, const std::string& instance_path) {
  if (name.empty()) return {};
  std::error_code ec;
  auto exists = [&](const fs::path& p) { return fs::is_regular_file(p, ec); };
  fs::path n(name);
  if (n.is_absolute()) return exists(n) ? n.lexically_normal().string() : std::string();
  std::vector<fs::path> roots;
  fs::path ptx_dir = fs::absolute(ptx_path, ec).parent_path();
  roots.push_back(ptx_dir);
  if (!instance_path.empty()) roots.push_back(fs::absolute(instance_path, ec).parent_path());
  fs::path up = ptx_dir;
  for (int level = 0; level < 4 && up.has_parent_path() && up != up.parent_path(); ++level) {
    up = up.parent_path();
    roots.push_back(up);  // the compiler's working directory, e.g. the repository's root
    if (level < 2)
      for (const auto& e : fs::directory_iterator(up, ec))
        if (e.is_directory(ec)) roots.push_back(e.path());
  }
  roots.push_back(fs::current_path(ec));
  for (const auto& r : roots)
    if (exists(r / n)) return (r / n).lexically_normal().string();
  return {};
}

std::string file_line(const std::string& path, uint32_t line) {
  std::ifstream in(path);
  std::string s;
  for (uint32_t i = 0; i < line && std::getline(in, s); ++i) {
  }
  return in ? s : std::string();
}

uint32_t entry_line(const std::string& ptx_path, const std::string& entry) {
  std::ifstream in(ptx_path);
  std::string s;
  for (uint32_t i = 1; std::getline(in, s); ++i) {
    auto at = s.find(".entry");
    if (at == std::string::npos) continue;
    auto name = s.find(entry, at + 6);
    if (name == std::string::npos) continue;
    auto end = name + entry.size();
    bool whole = end == s.size() || !(std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_' || s[end] == '$');
    if (whole && s.find_first_not_of(" \t", at + 6) == name) return i;
  }
  return 0;
}

}  // namespace racer::report
