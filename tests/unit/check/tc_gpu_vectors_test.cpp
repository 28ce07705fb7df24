// The tensor-core and asynchronous-copy instructions in Racer's concrete domain against the
// same PTX run on an H200 (tests/ptx/tc: kernels, inputs, GPU outputs, how they were made).
// Every "exact" case must reproduce the GPU's output bytes exactly. "measure" cases use
// general float inputs, where Racer's concrete model of a tensor-core dot product (the exact
// sum rounded once) and the hardware's accumulation may part in the last bits: they report
// the distance and bound it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "exec/concrete_domain.hpp"
#include "exec/machine.hpp"
#include "exec/params.hpp"
#include "exec/refusal.hpp"
#include "ptx/parser.hpp"
#include "sem/semantics.hpp"
#include "gpu_vector_launch.hpp"

namespace racer::check {
namespace {

struct VectorCase {
  std::string name, entry, mode;
  uint32_t block = 32, shared = 0, out_bytes = 0;
  std::vector<uint8_t> in[3], out;
  bool has_out = false;
  test::TmaInput tma;
};

const std::string kDir = std::string(RACER_SOURCE_DIR) + "/tests/ptx/tc/";

std::vector<VectorCase> load_vectors() {
  return test::read_vector_cases<VectorCase>(
      kDir + "vectors.txt",
      [](VectorCase& c, std::istream& ls) { ls >> c.name >> c.entry >> c.block >> c.shared >> c.out_bytes >> c.mode; },
      [](VectorCase& c, const std::string& key, const std::string& hex) {
        if (key == "a") c.in[0] = test::unhex(hex);
        else if (key == "b") c.in[1] = test::unhex(hex);
        else if (key == "c") c.in[2] = test::unhex(hex);
        else if (key == "out") c.out = test::unhex(hex), c.has_out = hex != "-";
      });
}

const ptx::ParsedModule& module() {
  static const ptx::ParsedModule m = ptx::parse_ptx_file(kDir + "kernels.sm90a.ptx");
  return m;
}

// Runs one case in the concrete domain; returns the output bytes (defects fail the test).
std::vector<uint8_t> run_case(const VectorCase& c) {
  std::vector<exec::TensorSpec> tensors;
  const char* names[4] = {"a", "b", "c", "out"};
  for (int t = 0; t < 4; ++t) {
    exec::TensorSpec s = test::byte_tensor(names[t], t < 3 ? c.in[t] : std::vector<uint8_t>(c.out_bytes, 0));
    if (t == 0 && c.tma.present) test::as_f16_matrix(s, c.tma.rows, c.tma.cols);
    tensors.push_back(s);
  }
  const ptx::ParsedModule& pm = module();
  std::optional<exec::LaunchSpec> launch = test::launch_of(pm, c.entry);
  if (!launch) return {};
  const ptx::Function& fn = pm.module.functions[launch->function];
  exec::Session session;
  exec::ConcreteDomain dom;
  exec::Machine m(session, 'a', tensors, dom, sem::semantics());
  exec::LaunchSpec spec = *launch;
  spec.block.x = c.block;
  spec.dynamic_shared_bytes = c.shared;
  spec.label = "launch 0 (" + c.entry + ")";
  spec.access = {exec::TensorAccess::Read, exec::TensorAccess::Read, exec::TensorAccess::Read, exec::TensorAccess::ReadWrite};
  auto slots = exec::param_layout(fn);
  spec.params.assign(exec::param_buffer_size(fn), 0);
  for (size_t t = c.tma.present ? 1 : 0; t < 4 && t < slots.size(); ++t) {
    uint64_t base = m.tensor_base(t);
    std::memcpy(spec.params.data() + slots[t].offset, &base, 8);
  }
  if (c.tma.present) spec.tensor_maps.push_back({slots[0].offset, 0, {c.tma.box_rows, c.tma.box_cols}, c.tma.swizzle_bytes});
  m.launch(spec);
  for (const exec::Defect& d : m.defects()) ADD_FAILURE() << c.name << ": defect " << exec::defect_kind_name(d.kind) << " at " << d.site.text << " " << d.memory << " " << d.detail;
  std::vector<uint8_t> out(c.out_bytes);
  for (uint32_t i = 0; i < c.out_bytes; ++i) out[i] = static_cast<uint8_t>(m.cell(3, i).bits);

  return out;
}

float as_f32(const std::vector<uint8_t>& v, size_t i) {
  float f;
  std::memcpy(&f, v.data() + 4 * i, 4);
  return f;
}

TEST(TensorCoreGpuVectors, ConcreteDomainReproducesTheGpu) {
  auto cases = load_vectors();
  ASSERT_GE(cases.size(), 40u) << "tests/ptx/tc/vectors.txt missing or short";
  size_t compared = 0;
  for (const VectorCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> got;
    try {
      got = run_case(c);
    } catch (const exec::Refusal& r) {
      ADD_FAILURE() << c.name << " refused: " << r.what();
      continue;
    }
    if (!c.has_out) continue;  // not run on a GPU yet
    ++compared;
    ASSERT_EQ(got.size(), c.out.size());
    if (c.mode == "exact") {
      size_t differ = 0, first = SIZE_MAX;
      for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != c.out[i]) ++differ, first = std::min(first, i);
      EXPECT_EQ(differ, 0u) << c.name << ": " << differ << " bytes differ from the GPU, first at byte " << first;
    } else {
      // f32 outputs from normal(0, 1) inputs: count differing values and the largest
      // distance in units of the last place of max(|result|, 1) (results that cancel to
      // near zero are judged at the inputs' scale, not their own).
      size_t n = got.size() / 4, differ = 0;
      double worst = 0;
      for (size_t i = 0; i < n; ++i) {
        float g = as_f32(got, i), e = as_f32(c.out, i);
        if (g == e) continue;
        ++differ;
        double scale = std::max(std::fabs(double(e)), 1.0);
        worst = std::max(worst, std::fabs(double(g) - double(e)) / std::ldexp(1.0, std::ilogb(scale) - 23));
      }
      std::cout << c.name << ": " << differ << " of " << n << " f32 results differ from the GPU, at most " << worst
                << " ulp of max(|result|, 1)\n";
      EXPECT_LE(worst, 4.0) << c.name;
    }
  }
  std::cout << compared << " of " << cases.size() << " cases compared with GPU outputs\n";
}

}  // namespace
}  // namespace racer::check
