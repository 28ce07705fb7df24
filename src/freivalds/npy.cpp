#include "freivalds/npy.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>

#include "support/error.hpp"
#include "trace/keys.hpp"

namespace racer::freivalds {
namespace {

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw Error(ExitCode::BadInput, path + ": " + what);
}

std::string header_field(const std::string& header, const std::string& key, const std::string& path) {
  std::smatch m;
  std::regex re("'" + key + "'\\s*:\\s*('[^']*'|True|False|\\([^)]*\\))");
  if (!std::regex_search(header, m, re)) bad(path, "npy header has no '" + key + "' entry");
  return m[1].str();
}

}  // namespace

NpyMatrix load_npy(const std::string& path, Format format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) bad(path, "cannot read the file");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) bad(path, "not a .npy file (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) bad(path, "truncated npy header");
    for (int i = 3; i >= 0; --i) header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + i]);
    offset = 12;
  } else {
    bad(path, "npy format version " + std::to_string(major) + " is not supported");
  }
  if (offset + header_len > bytes.size()) bad(path, "truncated npy header");
  const std::string header = bytes.substr(offset, header_len);
  const std::string descr = header_field(header, "descr", path);
  if (header_field(header, "fortran_order", path) != "False") bad(path, "Fortran-order arrays are not supported (save with C order)");
  std::smatch dims;
  const std::string shape = header_field(header, "shape", path);
  if (!std::regex_match(shape, dims, std::regex("\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)")))
    bad(path, "shape " + shape + " is not two-dimensional");
  NpyMatrix m;
  m.rows = std::stoll(dims[1].str());
  m.cols = std::stoll(dims[2].str());
  const bool wide = format == Format::F32 || format == Format::TF32;
  const bool ok_type = wide ? descr == "'<f4'" : format == Format::F16 ? descr == "'<f2'"
                                                                      : (descr == "'<u2'" || descr == "'|V2'" || descr == "'<V2'");
  if (!ok_type)
    bad(path, "element type " + descr + " does not hold " + format_name(format) +
                  (wide ? " (expected '<f4')" : format == Format::F16 ? " (expected '<f2')" : " (expected bf16 bits as '<u2' or 'V2')"));
  const size_t size = wide ? 4 : 2, count = static_cast<size_t>(m.rows * m.cols);
  const size_t data = offset + header_len;
  if (bytes.size() - data != count * size)
    bad(path, "holds " + std::to_string(bytes.size() - data) + " data bytes, the shape needs " + std::to_string(count * size));
  m.values.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const char* p = bytes.data() + data + i * size;
    if (wide) {
      std::memcpy(&m.values[i], p, 4);
    } else {
      uint16_t h;
      std::memcpy(&h, p, 2);
      if (format == Format::BF16) {
        uint32_t w = static_cast<uint32_t>(h) << 16;
        std::memcpy(&m.values[i], &w, 4);
      } else {  // IEEE binary16 to float, exactly
        int e = h >> 10 & 31, f = h & 1023;
        float v = e == 0 ? std::ldexp(static_cast<float>(f), -24)
                 : e == 31 ? (f ? NAN : INFINITY)
                           : std::ldexp(static_cast<float>(f | 1024), e - 25);
        m.values[i] = h & 0x8000 ? -v : v;
      }
    }
  }
  m.data_hash = trace::blake2b_256_hex(std::string_view(bytes.data() + data, count * size));
  return m;
}

}  // namespace racer::freivalds
