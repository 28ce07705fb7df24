// Witness files that carry their instance, and finding the instance a witness is about.
#include <filesystem>

#include "instance/json.hpp"
#include "instance/load.hpp"
#include "report/report.hpp"

namespace racer::report {

nlohmann::json witness_json(const check::CheckResult& r, const std::string& instance_path, const instance::Instance& inst) {
  nlohmann::json j = witness_json(r, instance_path);
  if (!r.counterexample) return j;
  j["replay"] = instance::instance_to_json(inst);
  // Exact values with the element type they are stored as, so a replay needs no lookup.
  for (auto& v : j["values"]) {
    int t = v["tensor"].get<int>();
    if (t >= 0 && static_cast<size_t>(t) < inst.tensors.size())
      v["dtype"] = instance::dtype_name(inst.tensors[static_cast<size_t>(t)].dtype);
  }
  return j;
}

instance::Instance witness_instance(const WitnessFile& w, const std::string& witness_path) {
  if (!w.replay.is_null()) return instance::instance_from_json(w.replay);
  std::string path = w.instance;
  if (!std::filesystem::exists(path)) {
    auto beside = std::filesystem::path(witness_path).parent_path() / w.instance;
    if (std::filesystem::exists(beside)) path = beside.string();
  }
  return instance::load_instance(path);
}

}  // namespace racer::report
