#pragma once
// Validating a parsed contract: every required part present once, names resolved (tensors,
// parameters, implementations, precisions, policies), quantities evaluable, tolerances well
// formed and derived, the reference oracle resolvable and the protocol executable.
#include <string>
#include <vector>

#include "contract/lang_ast.hpp"
#include "contract/lang_quantity.hpp"
#include "support/diagnostics.hpp"
#include "support/source_text.hpp"

namespace racer::contract {

struct LintOptions {
  std::string base_dir;     // implementation files resolve against it
  bool check_files = true;  // whether ptx/source files must exist
};

void lint(const SourceText& src, const ContractFile& file, Diagnostics& diags, const LintOptions& opts);

// The parameters' values, in order (a parameter may use earlier ones), with overrides
// (sweeps) applied. Throws racer::Error(BadInput) for one that does not evaluate.
Env parameter_env(const Contract& c, const Env& overrides = {});

// Policies an implementation may declare, per policy name (nan, denormal, out_of_bounds,
// determinism). Empty for an unknown name.
const std::vector<std::string>& policy_choices(const std::string& policy);

// Reads, parses and lints a .kc file; throws racer::Error(BadInput) with every located error.
struct LoadedContracts {
  std::shared_ptr<const SourceText> source;
  ContractFile file;
  std::string base_dir;
};
LoadedContracts load_contracts(const std::string& path);

}  // namespace racer::contract
