#pragma once
// `contract lint` on the launches of a `ptx` implementation, against the PTX file itself: the
// entry is there, takes as many parameters as the launch passes arguments, every tensor goes
// to a 64-bit pointer parameter and every number to a parameter that holds it (an integral
// value in range for an integer parameter). CUDA and Triton implementations are compiled only
// when checked, so they are not linted here.
#include <functional>
#include <string>

#include "contract/lang_ast.hpp"
#include "contract/lang_quantity.hpp"

namespace racer::contract {

// Each problem goes to `error`, located at the contract's own text (the entry, the launch, the
// argument), as the linter's other errors are.
using LintError = std::function<void(const Span& at, const std::string& message)>;
void lint_ptx_launches(const Contract& c, const Impl& impl, const std::string& ptx_path, const Env& params,
                       const LintError& error);

}  // namespace racer::contract
