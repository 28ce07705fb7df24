#include "support/content_hash.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "support/error.hpp"

namespace racer {
namespace {

uint64_t fnv1a(std::string_view data, uint64_t basis) {
  uint64_t h = basis;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace

std::string content_hash(std::string_view data) {
  // The second lane also mixes in the length, so the two lanes do not fail together.
  uint64_t a = fnv1a(data, 0xcbf29ce484222325ull);
  uint64_t b = fnv1a(data, 0x84222325cbf29ce4ull ^ (data.size() * 0x9e3779b97f4a7c15ull));
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
  return buf;
}

std::string default_cache_dir() {
  std::filesystem::path dir;
  if (const char* d = std::getenv("RACER_CACHE_DIR"); d && *d) dir = d;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = std::filesystem::path(x) / "racer";
  else if (const char* h = std::getenv("HOME"); h && *h) dir = std::filesystem::path(h) / ".cache" / "racer";
  else dir = std::filesystem::temp_directory_path() / "racer-cache";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(ExitCode::BadInput, "cannot create the cache directory " + dir.string() + ": " + ec.message());
  return dir.string();
}

std::string store_ptx(std::string_view ptx, const std::string& cache_dir) {
  std::error_code ec;
  std::filesystem::create_directories(cache_dir, ec);
  std::filesystem::path path = std::filesystem::path(cache_dir) / (content_hash(ptx) + ".ptx");
  if (std::filesystem::is_regular_file(path, ec)) return path.string();
  // Written under a private name and renamed, so a concurrent reader never sees half a file.
  std::filesystem::path tmp = path;
  tmp += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(ptx.data(), static_cast<std::streamsize>(ptx.size()));
    if (!out) throw Error(ExitCode::BadInput, "cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error(ExitCode::BadInput, "cannot write " + path.string() + ": " + ec.message());
  return path.string();
}

}  // namespace racer
