// racer freivalds: check a claimed matrix product in O(n^2 k) (issue #8), on the CPU or a GPU.
// This command generates the product it checks (random A, B in the format; C as the format's
// matmul computes it), so that a check, its tolerance and its detection can be reproduced
// from a seed; --self-test also corrupts one element and requires the check to catch it.
// The random vectors are drawn from a fresh seed unless --vector-seed is given: the guarantee
// needs vectors that whoever produced C could not know (the seed is printed and recorded).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>

#include "freivalds/freivalds.hpp"
#include "freivalds/gpu_plugin.hpp"
#include "freivalds/modular.hpp"
#include "freivalds/npy.hpp"
#include "freivalds/synthetic.hpp"
#include "support/error.hpp"
#include "tools/racer/commands.hpp"
#include "trace/trace.hpp"

namespace racer::cli {
namespace {

namespace fv = racer::freivalds;

struct FreivaldsArgs {
  bool gpu = false, cpu = false, self_test = false;
  int64_t n = 256;
  int k = 10;
  std::string format = "f32", model = "worst-case", trace_path, key_path, a_path, b_path, c_path;
  uint64_t seed = 1, vector_seed = 0;
  double false_alarm = 0x1p-40, corrupt_factor = 10;
};

std::string cpu_profile() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return "cpu: " + line.substr(line.find(':') + 2);
  return "cpu";
}

std::string hex_of(double v) { return trace::exact_hex(v); }

struct Measurement {
  std::string label, backend, device;
  bool pass;
  double residual, tolerance, ratio;
  int64_t row;
  int vector;
};

void report(const Measurement& m) {
  std::printf("%-9s %s  residual %.4g %s tolerance %.4g (ratio %.3g, row %lld, vector %d)\n", m.label.c_str(),
              m.pass ? "PASS" : "FAIL", m.residual, m.pass ? "<=" : ">", m.tolerance, m.ratio,
              static_cast<long long>(m.row), m.vector);
}

void record(std::optional<trace::Writer>& w, const FreivaldsArgs& a, const Measurement& m, const std::string& extra_key,
            const nlohmann::json& extra) {
  if (!w) return;
  nlohmann::json f = {{"kind", "freivalds"}, {"case", m.label}, {"backend", m.backend}, {"device", m.device},
                      {"format", a.format}, {"n", a.n}, {"k", a.k}, {"seed", a.seed}, {"vector_seed", a.vector_seed}, {"error_model", a.model},
                      {"false_alarm", hex_of(a.false_alarm)}, {"residual", hex_of(m.residual)},
                      {"tolerance", hex_of(m.tolerance)}, {"worst_ratio", hex_of(m.ratio)},
                      {"verdict", m.pass ? "pass" : "fail"}, {"implementation", "racer freivalds " + m.backend},
                      {"inputs", "generated from seed (racer freivalds synthetic product)"}};
  if (!extra_key.empty()) f[extra_key] = extra;
  w->append(f);
}

// A modular verdict line: where the first nonzero residual is, identical on the CPU and the GPU.
void report_modular(const char* label, bool pass, int64_t row, int vector, uint64_t residual, double miss_log2) {
  std::printf("%-9s %s  exact mod 2^61-1", label, pass ? "PASS" : "FAIL");
  if (!pass)
    std::printf(", row %lld differs (vector %d, residual %llu)", static_cast<long long>(row), vector,
                static_cast<unsigned long long>(residual));
  std::printf("; a wrong product escapes with probability <= 2^%.0f\n", miss_log2);
}

void record_modular(std::optional<trace::Writer>& w, const FreivaldsArgs& a, const char* label, const std::string& backend,
                    const std::string& device, bool pass, int64_t row, int vector, uint64_t residual, const nlohmann::json& timing) {
  if (!w) return;
  record(w, a, {label, backend, device, pass, 0, 0, pass ? 0.0 : INFINITY, row, vector}, "exact",
         {{"miss_log2_bound", hex_of(fv::modular_miss_log2(a.k))}, {"first_bad_residual", residual}, {"timing_ms", timing}});
}

int run_modular_gpu(const FreivaldsArgs& a, std::optional<trace::Writer>& w) {
  fv::GpuPlugin plugin = fv::load_gpu_plugin();
  const int64_t row = a.n / 3, col = a.n / 2;
  racer_fv_modular_request q{a.format == "s8", a.n, a.k, a.seed, a.vector_seed, a.self_test ? 1 : 0, row, col};
  racer_fv_modular_response good{}, bad{};
  plugin.run_modular(&q, &good, &bad);
  if (good.error[0]) throw Error(ExitCode::BadInput, std::string("--gpu: ") + good.error);
  const double miss_log2 = fv::modular_miss_log2(a.k);
  const nlohmann::json timing = {{"check", hex_of(good.check_ms)}, {"gemm", hex_of(good.gemm_ms)}};
  report_modular("correct", good.pass != 0, good.first_bad_row, good.first_bad_vector, good.first_bad_residual, miss_log2);
  std::printf("          check %.3f ms, the int8 GEMM (cuBLAS) %.3f ms (%.1f%%)\n", good.check_ms, good.gemm_ms,
              100 * good.check_ms / good.gemm_ms);
  record_modular(w, a, "correct", "cuda modular", good.device, good.pass != 0, good.first_bad_row, good.first_bad_vector,
                 good.first_bad_residual, timing);
  if (!a.self_test) return good.pass ? 0 : 1;
  report_modular("corrupted", bad.pass != 0, bad.first_bad_row, bad.first_bad_vector, bad.first_bad_residual, miss_log2);
  std::printf("          C[%lld, %lld] += 1\n", static_cast<long long>(row), static_cast<long long>(col));
  record_modular(w, a, "corrupted", "cuda modular", bad.device, bad.pass != 0, bad.first_bad_row, bad.first_bad_vector,
                 bad.first_bad_residual, nullptr);
  return good.pass && !bad.pass ? 0 : 1;
}

int run_modular(const FreivaldsArgs& a, std::optional<trace::Writer>& w) {
  fv::check_modular_arguments(a.n, a.k);
  // The synthetic product's entries (at most 255^2 n for u8, 2^14 n for s8) must fit int32.
  if (a.n > 32768) throw Error(ExitCode::BadInput, "--n above 32768: the generated s8/u8 product could overflow int32");
  if (a.gpu) return run_modular_gpu(a, w);
  fv::SyntheticIntProduct product = fv::make_int_product(a.format == "s8", a.n, a.seed);
  const std::string device = cpu_profile();
  auto run = [&](const char* label) {
    fv::ModularResult r = fv::check_modular(product.view(), a.k, a.vector_seed);
    report_modular(label, r.pass, r.first_bad_row, r.first_bad_vector, r.first_bad_residual, r.miss_log2);
    record_modular(w, a, label, "cpu modular", device, r.pass, r.first_bad_row, r.first_bad_vector, r.first_bad_residual, nullptr);
    return r.pass;
  };
  bool first = run("correct");
  if (!a.self_test) return first ? 0 : 1;
  product.c[static_cast<size_t>((a.n / 3) * a.n + a.n / 2)] += 1;  // the smallest possible corruption
  std::printf("          C[%lld, %lld] += 1\n", static_cast<long long>(a.n / 3), static_cast<long long>(a.n / 2));
  bool second = run("corrupted");
  return first && !second ? 0 : 1;
}

int run_float(const FreivaldsArgs& a, std::optional<trace::Writer>& w) {
  fv::Format format = fv::parse_format(a.format);
  fv::Options o{a.k, a.vector_seed, fv::parse_error_model(a.model), a.false_alarm, true};
  const int64_t row = a.n / 3, col = a.n / 2;
  if (a.gpu) {
    fv::GpuPlugin plugin = fv::load_gpu_plugin();
    fv::Tolerance t = fv::derive_tolerance({format, a.n, a.n, a.n, a.k, o.model, o.false_alarm, fv::gpu_check_arithmetic(format)});
    racer_fv_request q{static_cast<int>(format), a.n, a.k, a.seed, a.vector_seed, a.self_test ? a.corrupt_factor : 0.0, row, col,
                       {t.coef.lambda_r, t.coef.eps_acc, t.coef.u_out_rel, t.coef.d_am, t.coef.d_cm, t.coef.slack}};
    racer_fv_response good{}, bad{};
    plugin.run(&q, &good, &bad);
    for (auto* r : {&good, &bad})
      if (r->error[0]) throw Error(ExitCode::BadInput, std::string("--gpu: ") + r->error);
    std::cout << t.derivation << "\n";
    Measurement mg{"correct", "cuda", good.device, good.pass != 0, good.residual, good.tolerance, good.worst_ratio, good.worst_row, good.worst_vector};
    report(mg);
    std::printf("          check %.3f ms, the checked matmul %.3f ms (%.1f%%)\n", good.check_ms, good.matmul_ms, 100 * good.check_ms / good.matmul_ms);
    record(w, a, mg, "timing_ms", {{"check", hex_of(good.check_ms)}, {"matmul", hex_of(good.matmul_ms)}});
    if (!a.self_test) return mg.pass ? 0 : 1;
    Measurement mb{"corrupted", "cuda", bad.device, bad.pass != 0, bad.residual, bad.tolerance, bad.worst_ratio, bad.worst_row, bad.worst_vector};
    report(mb);
    std::printf("          C[%lld, %lld] changed by %.4g = %.3g x its row's tolerance\n", static_cast<long long>(row),
                static_cast<long long>(col), bad.applied_delta, bad.applied_delta / bad.corrupt_row_tolerance);
    record(w, a, mb, "corruption", {{"row", row}, {"col", col}, {"delta", hex_of(bad.applied_delta)}});
    return mg.pass && !mb.pass ? 0 : 1;
  }
  fv::SyntheticProduct product = fv::make_product(format, a.n, a.seed);
  const std::string device = cpu_profile();
  fv::Result good = fv::check_cpu(product.view(), o);
  std::cout << good.derived.derivation << "\n";
  Measurement mg{"correct", "cpu", device, good.pass, good.residual, good.tolerance, good.worst_ratio, good.worst_row, good.worst_vector};
  report(mg);
  record(w, a, mg, "", nullptr);
  if (!a.self_test) return good.pass ? 0 : 1;
  double applied = fv::corrupt(product, row, col, a.corrupt_factor * good.row_tolerances[static_cast<size_t>(row)]);
  fv::Result bad = fv::check_cpu(product.view(), o);
  Measurement mb{"corrupted", "cpu", device, bad.pass, bad.residual, bad.tolerance, bad.worst_ratio, bad.worst_row, bad.worst_vector};
  report(mb);
  std::printf("          C[%lld, %lld] changed by %.4g = %.3g x its row's tolerance\n", static_cast<long long>(row),
              static_cast<long long>(col), applied, applied / good.row_tolerances[static_cast<size_t>(row)]);
  record(w, a, mb, "corruption", {{"row", row}, {"col", col}, {"delta", hex_of(applied)}});
  return good.pass && !bad.pass ? 0 : 1;
}

// A product given as three .npy files, checked on the CPU.
int run_files(const FreivaldsArgs& a, std::optional<trace::Writer>& w) {
  if (a.gpu) throw Error(ExitCode::BadInput, "--gpu checks products it generates on the device; --a/--b/--c files are checked on the CPU");
  if (a.self_test) throw Error(ExitCode::BadInput, "--self-test generates its own product; drop --a/--b/--c");
  if (a.a_path.empty() || a.b_path.empty() || a.c_path.empty()) throw Error(ExitCode::BadInput, "--a, --b and --c go together");
  fv::Format format = fv::parse_format(a.format);
  fv::NpyMatrix ma = fv::load_npy(a.a_path, format), mb = fv::load_npy(a.b_path, format), mc = fv::load_npy(a.c_path, format);
  if (ma.cols != mb.rows || mc.rows != ma.rows || mc.cols != mb.cols)
    throw Error(ExitCode::BadInput, "shapes do not multiply: A " + std::to_string(ma.rows) + "x" + std::to_string(ma.cols) + ", B " +
                                        std::to_string(mb.rows) + "x" + std::to_string(mb.cols) + ", C " + std::to_string(mc.rows) + "x" +
                                        std::to_string(mc.cols));
  fv::Options o{a.k, a.vector_seed, fv::parse_error_model(a.model), a.false_alarm, false};
  fv::Result r = fv::check_cpu({format, ma.rows, ma.cols, mb.cols, ma.values.data(), mb.values.data(), mc.values.data()}, o);
  std::cout << r.derived.derivation << "\n";
  Measurement m{"files", "cpu", cpu_profile(), r.pass, r.residual, r.tolerance, r.worst_ratio, r.worst_row, r.worst_vector};
  report(m);
  FreivaldsArgs shown = a;
  shown.n = ma.cols;
  record(w, shown, m, "input_hash", {{"a", ma.data_hash}, {"b", mb.data_hash}, {"c", mc.data_hash}});
  return r.pass ? 0 : 1;
}

}  // namespace

void add_freivalds_commands(CLI::App& app) {
  static FreivaldsArgs a;
  auto* f = app.add_subcommand("freivalds", "Check a matrix product C = A B in O(n^2 k) with k random vectors");
  auto* cpu = f->add_flag("--cpu", a.cpu, "run on the CPU (BLAS, f64 check; the default)");
  f->add_flag("--gpu", a.gpu, "run on a CUDA GPU (cuBLAS product, fused check kernels)")->excludes(cpu);
  f->add_option("--n", a.n, "matrix size (A, B, C are n x n)")->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  f->add_option("--k", a.k, "random vectors")->check(CLI::Range(1, 4096));
  f->add_option("--format", a.format, "f32, tf32, f16, bf16, or s8/u8 (exact check modulo 2^61-1)")
      ->check(CLI::IsMember({"f32", "tf32", "f16", "bf16", "s8", "u8"}));
  f->add_option("--seed", a.seed, "seed of the generated data (default 1)");
  static CLI::Option* vector_seed = f->add_option("--vector-seed", a.vector_seed, "seed of the random vectors (default: a fresh one, printed)");
  f->add_option("--error-model", a.model, "worst-case (default) or probabilistic (Higham-Mary) rounding bound")
      ->check(CLI::IsMember({"worst-case", "probabilistic"}));
  f->add_option("--false-alarm", a.false_alarm, "bound on the probability that a correct product fails (default 2^-40)");
  f->add_flag("--self-test", a.self_test, "also corrupt one element of C; exit 0 only if the correct product passes and the corrupted one fails");
  f->add_option("--corrupt-factor", a.corrupt_factor, "--self-test's corruption, in multiples of the row's tolerance (default 10)");
  f->add_option("--a", a.a_path, "A (m x n) as a .npy file; with --b and --c, checks that product on the CPU");
  f->add_option("--b", a.b_path, "B (n x p) as a .npy file");
  f->add_option("--c", a.c_path, "the claimed C = A B (m x p) as a .npy file");
  f->add_option("--trace", a.trace_path, "append a signed trace record per measurement to this file");
  f->add_option("--key", a.key_path, "Ed25519 secret key file for --trace (racer trace keygen)");
  on_selected(f, [] {
    if (!vector_seed->count()) {
      std::random_device rd;
      a.vector_seed = (uint64_t{rd()} << 32) ^ rd();
    }
    std::printf("random vectors: seed %llu (--vector-seed %llu repeats this check)\n",
                static_cast<unsigned long long>(a.vector_seed), static_cast<unsigned long long>(a.vector_seed));
    std::optional<trace::Writer> w;
    if (!a.trace_path.empty()) {
      if (a.key_path.empty()) throw Error(ExitCode::BadInput, "--trace needs --key (a secret key file from racer trace keygen)");
      w.emplace(a.trace_path, trace::Signer::load(a.key_path));
    }
    bool modular = a.format == "s8" || a.format == "u8";
    if (!a.a_path.empty() || !a.b_path.empty() || !a.c_path.empty()) {
      if (modular) throw Error(ExitCode::BadInput, "--a/--b/--c files hold f32, tf32, f16 or bf16 matrices");
      return run_files(a, w);
    }
    return modular ? run_modular(a, w) : run_float(a, w);
  });
}

}  // namespace racer::cli
