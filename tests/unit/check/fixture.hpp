#pragma once
// Machine-model tests through hand-written PTX: a test gives a module of kernels and the
// launches of programs A and B; the fixture writes the PTX and a checking instance to a
// scratch directory, loads it and checks it. Every module is assembled once with ptxas
// (when installed) so the kernels stay valid PTX.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "check/check.hpp"
#include "instance/load.hpp"

namespace racer::check::testing {

using exec::DefectKind;

inline const std::string kPtxHeader = ".version 8.0\n.target sm_90\n.address_size 64\n\n";

// An entry with `ptrs` .u64 params p0, p1, ...: each loaded into %rd<i> and converted to a
// global address. Then %r0 = %tid.x, %r1 = %ctaid.x, %r2 = %ntid.x, %r3 = the global index
// ctaid * ntid + tid. Bodies use %r10.., %rd10.., %f1.., %p1.. for their own work; `decls`
// go before the first instruction (e.g. a .shared array).
inline std::string kernel(std::string_view name, int ptrs, std::string_view body, std::string_view decls = {}) {
  std::string s = ".visible .entry " + std::string(name) + "(";
  for (int i = 0; i < ptrs; ++i) s += (i ? ", .param .u64 p" : ".param .u64 p") + std::to_string(i);
  s += ")\n{\n  .reg .pred %p<16>;\n  .reg .b32 %r<64>;\n  .reg .f32 %f<32>;\n  .reg .b64 %rd<64>;\n";
  s += decls;
  for (int i = 0; i < ptrs; ++i) {
    std::string r = "%rd" + std::to_string(i);
    s += "  ld.param.u64 " + r + ", [p" + std::to_string(i) + "];\n";
    s += "  cvta.to.global.u64 " + r + ", " + r + ";\n";
  }
  s += "  mov.u32 %r0, %tid.x;\n  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mad.lo.s32 %r3, %r1, %r2, %r0;\n";
  s += body;
  s += "  ret;\n}\n\n";
  return s;
}

// out[tid] = f(x[tid]) over f32 tensors: `body` reads %f1 and leaves f's value in %f2.
inline std::string unary_kernel(std::string_view name, std::string_view body) {
  std::string s = "  mul.wide.u32 %rd10, %r0, 4;\n  add.s64 %rd11, %rd0, %rd10;\n  ld.global.f32 %f1, [%rd11];\n";
  s += body;
  s += "\n  add.s64 %rd12, %rd1, %rd10;\n  st.global.f32 [%rd12], %f2;\n";
  return kernel(name, 2, s);
}

// out[tid] = f(x[tid], y[tid]) over f32 tensors: `body` reads %f1 and %f2 and leaves f in %f3.
inline std::string binary_kernel(std::string_view name, std::string_view body) {
  return kernel(name, 3, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  add.s64 %rd12, %rd1, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd12];
  )") + std::string(body) + R"(
  add.s64 %rd13, %rd2, %rd10;
  st.global.f32 [%rd13], %f3;
)");
}

// out[g] = x[g] over f32 tensors, g the global thread index: the reference of many tests.
inline std::string copy_kernel(std::string_view name) {
  return kernel(name, 2, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
)");
}

// out[tid] = x[j] over f32 tensors, j (%r13) computed by `index`.
inline std::string gather_ref(std::string_view name, std::string_view index) {
  return kernel(name, 2, std::string(index) + R"(
  mul.wide.u32 %rd10, %r13, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f1;
)");
}

// The start of a two-CTA cluster handoff: %r13 the cluster rank, %r12 &buf[tid], %r20 &bar,
// which rank 0's thread 0 initializes for `arrivals` arrivals and a cluster barrier publishes;
// %p1 tid == 0, %p2 rank 0, %p3 both. Rank 0 branches to CONSUME; rank 1 goes on holding
// x[32 + tid] in %f1.
inline std::string cluster_handoff_prologue(int arrivals) {
  return R"(
  mov.u32 %r13, %cluster_ctarank;
  mov.u32 %r10, buf;
  shl.b32 %r11, %r0, 2;
  add.u32 %r12, %r10, %r11;
  mov.u32 %r20, bar;
  setp.eq.u32 %p1, %r0, 0;
  setp.eq.u32 %p2, %r13, 0;
  and.pred %p3, %p1, %p2;
  @%p3 mbarrier.init.shared::cta.b64 [%r20], )" +
         std::to_string(arrivals) + R"(;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  @%p2 bra CONSUME;
  add.u32 %r14, %r0, 32;
  mul.wide.u32 %rd10, %r14, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
)";
}

// `text` with every occurrence of `from` replaced by `to` (kernel variants); fails the test
// when `from` does not occur, so a variant cannot silently equal the original.
inline std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  size_t n = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()), ++n)
    text.replace(at, from.size(), to);
  EXPECT_GT(n, 0u) << "variant: '" << from << "' not found";
  return text;
}

// One launch: the entry, its args (the TOML array's contents), grid and block.
struct L {
  std::string entry;
  std::string args;
  std::string grid = "[1]";
  std::string block = "[32]";
  unsigned shared = 0;
  std::string cluster;  // e.g. "[2, 1, 1]"; none when empty
};

struct Spec {
  std::string tensors;  // lines of the [tensors] table
  std::vector<L> a, b;
  std::string outputs = R"("out")";
  std::string version = "8.0";  // the module's .version (8.1 for st.async / red.async)
};

inline std::string find_ptxas() {
  for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
    if (std::filesystem::exists(p)) return p;
  return {};
}

inline std::string replace_version(std::string header, std::string_view version) {
  return header.replace(header.find("8.0"), 3, version);
}

class MachineTest : public ::testing::Test {
 protected:
  MachineTest() {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("racer_check_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(dir_);
  }
  ~MachineTest() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Writes the module (header added) and the instance, loads and checks it.
  CheckResult run(std::string_view kernels, const Spec& s, const CheckOptions& options = {}) {
    ptx_ = (s.version == "8.0" ? kPtxHeader : replace_version(kPtxHeader, s.version)) + std::string(kernels);
    std::ofstream(dir_ / "k.ptx") << ptx_;
    assemble();
    std::string toml = "name = \"t\"\nabout = \"machine test\"\noutputs = [" + s.outputs + "]\n\n[tensors]\n" +
                       s.tensors + "\n";
    auto launches = [&](char p, const std::vector<L>& ls) {
      for (const L& l : ls)
        toml += std::string("\n[[") + p + ".launch]]\nptx = \"k.ptx\"\nentry = \"" + l.entry + "\"\ngrid = " + l.grid +
                "\nblock = " + l.block + "\nshared_bytes = " + std::to_string(l.shared) + "\nargs = [" + l.args + "]\n" +
                (l.cluster.empty() ? "" : "cluster = " + l.cluster + "\n");
    };
    launches('a', s.a);
    launches('b', s.b);
    std::ofstream(dir_ / "case.toml") << toml;
    instance::Instance inst = instance::load_instance((dir_ / "case.toml").string());
    return check_instance(inst, options);
  }

  // The 1-based line of the PTX file (as written by the last run) that contains `marker`.
  uint32_t line_of(std::string_view marker) const {
    std::istringstream in(ptx_);
    std::string line;
    uint32_t n = 0, found = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.find(marker) != std::string::npos) {
        EXPECT_EQ(found, 0u) << "marker '" << marker << "' occurs twice";
        found = n;
      }
    }
    EXPECT_NE(found, 0u) << "marker '" << marker << "' not in the PTX";
    return found;
  }

  static std::string show(const CheckResult& r) {
    std::string s = "verdict " + std::string(verdict_name(r.verdict));
    if (!r.reason.empty()) s += "\nreason: " + r.reason;
    for (const exec::Defect& d : r.defects)
      s += std::string("\ndefect ") + d.program + ":" + std::string(exec::defect_kind_name(d.kind)) + " at line " +
           std::to_string(d.site.ptx_line) + " '" + d.site.text + "' memory '" + d.memory + "' " + d.detail + " x" +
           std::to_string(d.count);
    for (const exec::Note& n : r.notes) s += std::string("\nnote ") + n.program + ": " + n.message;
    for (const std::string& u : r.unknown_cells) s += "\nunknown " + u;
    if (r.counterexample) s += "\ncounterexample at " + r.counterexample->cell;
    return s;
  }

  // The defect of program a of kind k whose detail or memory mentions `text` (a failure if none).
  static const exec::Defect* expect_defect(const CheckResult& r, DefectKind k, std::string_view text) {
    for (const exec::Defect& d : r.defects)
      if (d.kind == k && d.program == 'a' && (d.detail.find(text) != std::string::npos || d.memory.find(text) != std::string::npos))
        return &d;
    ADD_FAILURE() << "no " << exec::defect_kind_name(k) << " defect mentioning '" << text << "'\n" << show(r);
    return nullptr;
  }
  static const exec::Defect* find(const CheckResult& r, DefectKind k, char program = 0) {
    for (const exec::Defect& d : r.defects)
      if (d.kind == k && (program == 0 || d.program == program)) return &d;
    return nullptr;
  }
  static size_t count(const CheckResult& r, DefectKind k) {
    size_t n = 0;
    for (const exec::Defect& d : r.defects) n += d.kind == k;
    return n;
  }

  std::string ptx_;

 private:
  // Every distinct module goes through ptxas once per process.
  void assemble() {
    static const std::string ptxas = find_ptxas();
    static std::set<std::string> done;
    static std::mutex mu;
    if (ptxas.empty()) return;
    {
      std::lock_guard<std::mutex> g(mu);
      if (!done.insert(ptx_).second) return;
    }
    std::string cmd = ptxas + " -arch=sm_90 " + (dir_ / "k.ptx").string() + " -o " + (dir_ / "k.cubin").string() +
                      " 2>" + (dir_ / "ptxas.txt").string();
    int rc = std::system(cmd.c_str());
    std::ifstream err(dir_ / "ptxas.txt");
    std::string msg((std::istreambuf_iterator<char>(err)), {});
    EXPECT_EQ(rc, 0) << "ptxas rejects the test's PTX:\n" << msg;
  }

  std::filesystem::path dir_;
};

// A tensor declaration line: init is a keyword ("input", "empty", "zeros") or an inline
// table ("{ values = [...] }"); `extra` adds keys (e.g. "range = [0, 4]").
inline std::string tensor(std::string_view name, std::string_view shape, std::string_view dtype,
                          std::string_view init, std::string_view extra = {}) {
  std::string i = init.starts_with("{") ? std::string(init) : "\"" + std::string(init) + "\"";
  std::string s = std::string(name) + " = { shape = " + std::string(shape) + ", dtype = \"" + std::string(dtype) +
                  "\", init = " + i;
  if (!extra.empty()) s += ", " + std::string(extra);
  return s + " }\n";
}

// Two binary_kernel programs over x, y in [-4, 4] (f32 [32]) writing out.
inline Spec binary_spec(std::string_view a, std::string_view b) {
  const std::string args = R"({ read = "x" }, { read = "y" }, { write = "out" })";
  return {.tensors = tensor("x", "[32]", "f32", "input", "range = [-4, 4]") +
                     tensor("y", "[32]", "f32", "input", "range = [-4, 4]") + tensor("out", "[32]", "f32", "empty"),
          .a = {{std::string(a), args}},
          .b = {{std::string(b), args}}};
}

}  // namespace racer::check::testing
