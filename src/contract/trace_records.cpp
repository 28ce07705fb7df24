#include "contract/trace_records.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "contract/run_impl.hpp"
#include "trace/keys.hpp"

namespace racer::contract {
namespace {

std::string file_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream s;
  s << in.rdbuf();
  return trace::blake2b_256_hex(s.str());
}

}  // namespace

void append_records(trace::Writer& w, const LoadedContracts& f, const Contract& c, const Impl& impl, const CheckReport& r,
                    const std::string& protocol) {
  nlohmann::json common = {
      {"kind", "contract_measurement"},
      {"contract", c.id.text},
      {"contract_file", f.source->path()},
      {"contract_hash", trace::blake2b_256_hex(f.source->text())},
      {"impl", impl.name.text},
      {"impl_role", impl.role ? impl.role->text : ""},
      {"ptx_hash", file_hash(implementation_ptx(impl, f.base_dir))},
      {"backend", r.backend},
      {"device", r.profile},
      {"protocol", protocol},
  };
  for (const Measurement& m : r.measurements) {
    nlohmann::json rec = common;
    rec["config"] = m.config;
    rec["seed"] = m.seed;
    rec["input_hash"] = m.input_digest;
    rec["residual"] = trace::exact_hex(m.worst_residual);
    rec["tolerance"] = trace::exact_hex(m.worst_bound);
    rec["residual_over_tolerance"] = trace::exact_hex(m.residual);
    rec["verdict"] = m.pass ? "pass" : "violation";
    w.append(rec);
  }
  nlohmann::json summary = common;
  summary["kind"] = "contract_verdict";
  summary["verdict"] = verdict_name(r.verdict);
  summary["measurements"] = r.measurements.size();
  summary["runs"] = r.runs;
  summary["violating_cells"] = r.violations;
  if (!r.findings.empty()) summary["signature"] = r.findings.front().observed;
  if (!r.refusal.empty()) summary["refusal"] = r.refusal;
  summary["under_specified"] = r.unspecified;
  w.append(summary);
}

}  // namespace racer::contract
