// Thread-block clusters in Racer's concrete domain against the same PTX run on an H200
// (tests/ptx/cluster: kernels, inputs, GPU outputs, how they were made): the cluster special
// registers, distributed shared memory (mapa, ld/st/atom on another CTA's shared memory,
// getctarank), barrier.cluster, mbarrier arrivals from other CTAs, TMA multicast, and st.async /
// red.async into another CTA's shared memory completing on its mbarrier. Every case must
// reproduce the GPU's output bytes exactly, without a defect.
#include <gtest/gtest.h>

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

struct ClusterCase {
  std::string name, entry;
  exec::Dim3 grid, cluster;
  uint32_t block = 32, out_bytes = 0;
  std::vector<uint8_t> in, out;
  test::TmaInput tma;
};

const std::string kDir = std::string(RACER_SOURCE_DIR) + "/tests/ptx/cluster/";

std::vector<ClusterCase> load_cases() {
  return test::read_vector_cases<ClusterCase>(
      kDir + "vectors.txt",
      [](ClusterCase& c, std::istream& ls) {
        ls >> c.name >> c.entry >> c.grid.x >> c.grid.y >> c.grid.z >> c.cluster.x >> c.cluster.y >> c.cluster.z >> c.block >> c.out_bytes;
      },
      [](ClusterCase& c, const std::string& key, const std::string& hex) {
        if (key == "in") c.in = test::unhex(hex);
        else if (key == "out") c.out = test::unhex(hex);
      });
}

const ptx::ParsedModule& module() {
  static const ptx::ParsedModule m = ptx::parse_ptx_file(kDir + "cluster.sm90a.ptx");
  return m;
}

std::vector<uint8_t> run_case(const ClusterCase& c) {
  std::vector<exec::TensorSpec> tensors;
  for (int t = 0; t < 2; ++t) {
    exec::TensorSpec s = test::byte_tensor(t == 0 ? "in" : "out", t == 0 ? c.in : std::vector<uint8_t>(c.out_bytes, 0));
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
  spec.grid = c.grid;
  spec.block.x = c.block;
  // A cluster shape from the launch, else the entry's own (.reqnctapercluster), as check/prepare does.
  if (c.cluster.x) spec.clustered = true, spec.cluster = c.cluster;
  else if (fn.reqnctapercluster[0]) spec.clustered = true, spec.cluster = {fn.reqnctapercluster[0], 1, 1};
  spec.label = "launch 0 (" + c.entry + ")";
  spec.access = {exec::TensorAccess::Read, exec::TensorAccess::ReadWrite};
  auto slots = exec::param_layout(fn);
  spec.params.assign(exec::param_buffer_size(fn), 0);
  for (size_t t = c.tma.present ? 1 : 0; t < 2; ++t) {
    uint64_t base = m.tensor_base(t);
    std::memcpy(spec.params.data() + slots[t].offset, &base, 8);
  }
  if (c.tma.present) spec.tensor_maps.push_back({slots[0].offset, 0, {c.tma.box_rows, c.tma.box_cols}, c.tma.swizzle_bytes});
  m.launch(spec);
  for (const exec::Defect& d : m.defects())
    ADD_FAILURE() << c.name << ": defect " << exec::defect_kind_name(d.kind) << " at " << d.site.text << " " << d.memory << " " << d.detail;
  std::vector<uint8_t> out(c.out_bytes);
  for (uint32_t i = 0; i < c.out_bytes; ++i) out[i] = static_cast<uint8_t>(m.cell(1, i).bits);
  return out;
}

TEST(ClusterGpuVectors, ConcreteDomainReproducesTheGpu) {
  auto cases = load_cases();
  ASSERT_EQ(cases.size(), 21u) << "tests/ptx/cluster/vectors.txt missing or short";
  for (const ClusterCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> got;
    try {
      got = run_case(c);
    } catch (const exec::Refusal& r) {
      ADD_FAILURE() << c.name << " refused: " << r.what();
      continue;
    }
    ASSERT_EQ(got.size(), c.out.size());
    size_t first = 0;
    while (first < got.size() && got[first] == c.out[first]) ++first;
    EXPECT_EQ(first, got.size()) << c.name << ": first differing byte " << first;
  }
}

}  // namespace
}  // namespace racer::check
