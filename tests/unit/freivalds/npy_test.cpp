// .npy input: matrices load exactly in each format; anything else is a located error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "freivalds/freivalds.hpp"
#include "freivalds/npy.hpp"
#include "support/error.hpp"

namespace racer::freivalds {
namespace {

// One directory per test process, removed at exit so that runs leave nothing in the temp directory.
const std::filesystem::path& scratch_dir() {
  struct Scratch {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("racer_npy_" + std::to_string(::getpid()));
    Scratch() { std::filesystem::create_directories(dir); }
    ~Scratch() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  };
  static Scratch scratch;
  return scratch.dir;
}

std::string npy(const std::string& name, const std::string& descr, const std::string& shape, const void* data, size_t bytes,
                bool fortran = false) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  auto path = (scratch_dir() / name).string();
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  out.write(reinterpret_cast<const char*>(&len), 2);
  out << header;
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  return path;
}

TEST(Npy, F32ProductLoadsAndChecks) {
  const int n = 24;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = std::sin(i * 0.37f), b[i] = std::cos(i * 0.11f);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int l = 0; l < n; ++l) s += double(a[i * n + l]) * b[l * n + j];
      c[i * n + j] = static_cast<float>(s);
    }
  NpyMatrix ma = load_npy(npy("a.npy", "<f4", "(24, 24)", a.data(), a.size() * 4), Format::F32);
  NpyMatrix mb = load_npy(npy("b.npy", "<f4", "(24, 24)", b.data(), b.size() * 4), Format::F32);
  NpyMatrix mc = load_npy(npy("c.npy", "<f4", "(24, 24)", c.data(), c.size() * 4), Format::F32);
  EXPECT_EQ(ma.values, a);
  EXPECT_EQ(ma.data_hash.size(), 64u);
  EXPECT_NE(ma.data_hash, mb.data_hash);
  HostProduct p{Format::F32, n, n, n, ma.values.data(), mb.values.data(), mc.values.data()};
  EXPECT_TRUE(check_cpu(p, {8, 3, ErrorModel::WorstCase, 0x1p-40, false}).pass);
  mc.values[5 * n + 7] += 1.0f;
  EXPECT_FALSE(check_cpu(p, {8, 3, ErrorModel::WorstCase, 0x1p-40, false}).pass);
}

TEST(Npy, HalfFormatsWidenExactly) {
  std::vector<uint16_t> f16 = {0x3c00, 0xc000, 0x0001, 0x7bff};  // 1, -2, 2^-24, 65504
  NpyMatrix h = load_npy(npy("h.npy", "<f2", "(2, 2)", f16.data(), 8), Format::F16);
  EXPECT_EQ(h.values, (std::vector<float>{1.0f, -2.0f, 0x1p-24f, 65504.0f}));
  std::vector<uint16_t> bf = {0x3f80, 0xbfc0};  // 1, -1.5
  NpyMatrix b = load_npy(npy("bf.npy", "|V2", "(1, 2)", bf.data(), 4), Format::BF16);
  EXPECT_EQ(b.values, (std::vector<float>{1.0f, -1.5f}));
}

TEST(Npy, BadFilesAreLocatedErrors) {
  float x[4] = {1, 2, 3, 4};
  auto expect_error = [](const std::string& path, Format f, const std::string& words) {
    try {
      load_npy(path, f);
      ADD_FAILURE() << path << " loaded";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::BadInput);
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  expect_error(npy("t1.npy", "<f8", "(2, 2)", x, 16), Format::F32, "element type");
  expect_error(npy("t2.npy", "<f4", "(4,)", x, 16), Format::F32, "two-dimensional");
  expect_error(npy("t3.npy", "<f4", "(2, 2)", x, 16, true), Format::F32, "Fortran");
  expect_error(npy("t4.npy", "<f4", "(2, 3)", x, 16), Format::F32, "data bytes");
  expect_error(npy("t5.npy", "<f4", "(2, 2)", x, 16), Format::BF16, "does not hold bf16");
  expect_error("/nonexistent/racer.npy", Format::F32, "cannot read");
}

}  // namespace
}  // namespace racer::freivalds
