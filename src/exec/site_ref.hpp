#pragma once
// Where a defect or note happened, built only when one is recorded for the first time at
// that instruction (printing the instruction is too costly for every access).
#include <cstdint>
#include <functional>
#include <string>

#include "exec/defect.hpp"
#include "ptx/ir.hpp"

namespace racer::exec {

struct ExecContext;

struct SiteRef {
  ExecContext* ctx = nullptr;
  const ptx::Instr* ins = nullptr;
  const Site* fixed = nullptr;
  Site get() const;
  uint32_t launch() const;
  uint32_t instr() const;
};

// A message made only when it is needed.
using Text = std::function<std::string()>;

}  // namespace racer::exec
