#include "ptx/summary.hpp"

#include <map>

namespace racer::ptx {

std::string summarize_module(const Module& m, const std::string& path) {
  std::string s = path + ": PTX " + m.version + ", target ";
  for (size_t i = 0; i < m.target.size(); ++i) s += (i ? ", " : "") + m.target[i];
  s += ", address size " + std::to_string(m.address_size) + "\n";
  for (const Variable& v : m.vars) {
    s += "  variable ." + std::string(space_name(v.space)) + " " + v.name + ": ." + std::string(type_name(v.type));
    if (v.has_dims) s += v.size_bytes() ? " (" + std::to_string(v.size_bytes()) + " bytes)" : " (size set at launch)";
    s += "\n";
  }
  for (const Function& f : m.functions) {
    s += std::string("  ") + (f.is_entry ? "entry " : "function ") + f.name + (f.has_body ? "" : " (declaration)") + "\n";
    for (size_t i = 0; i < f.params.size(); ++i) {
      const Variable& p = f.params[i];
      s += "    param " + std::to_string(i) + " " + p.name + ": ." + std::string(space_name(p.space)) + " ." +
           std::string(type_name(p.type));
      if (p.ptr) s += " pointer to ." + std::string(space_name(p.ptr_space == Space::None ? Space::Global : p.ptr_space));
      if (p.has_dims) s += " [" + std::to_string(p.size_bytes()) + " bytes]";
      s += "\n";
    }
    if (f.reqntid[0]) s += "    .reqntid " + std::to_string(f.reqntid[0]) + (f.reqntid[1] ? "," + std::to_string(f.reqntid[1]) : "") + (f.reqntid[2] ? "," + std::to_string(f.reqntid[2]) : "") + "\n";
    if (f.maxntid[0]) s += "    .maxntid " + std::to_string(f.maxntid[0]) + "\n";
    if (!f.has_body) continue;
    std::map<std::string, size_t> regs_by_type;
    for (const Register& r : f.regs) regs_by_type["." + std::string(type_name(r.type))]++;
    s += "    registers:";
    for (const auto& [t, n] : regs_by_type) s += " " + std::to_string(n) + " " + t;
    s += "\n    instructions: " + std::to_string(f.instrs.size()) + ", labels: " + std::to_string(f.labels.size()) +
         ", local variables: " + std::to_string(f.vars.size()) + "\n";
  }
  return s;
}

}  // namespace racer::ptx
