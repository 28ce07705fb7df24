// Replacing racing loads by fresh unknowns (exec/racing_reads.hpp says why).
#include "exec/machine.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {

Value Machine::racing_read_value(ExecContext& ctx, const ptx::Instr& ins, uint32_t access, Value read, const Region& r,
                                 uint64_t off, unsigned size) {
  // Only float data becomes an unknown real: integer data could steer addresses, and a
  // concrete or packed value is not one real number.
  if (!read.is_symbolic() || read.integer)
    refuse(ctx, ins, "a load racing with a store reads data that is not one float value");
  std::string where = storage_.describe(&r, r.base + off, size);
  std::string name = std::string(1, program_) + ": racing read #" + std::to_string(access) + " of " + where;
  SymbolOrigin o{SymbolOrigin::Kind::RacingRead, -1, static_cast<int64_t>(access), program_, where};
  expr::ExprId sym = session_.symbol(o, name);
  racing_.replaced.insert(access);
  racing_.symbols.insert(sym.index);
  return Value::of_expr(sym);
}

bool Machine::depends_on_racing_read(std::span<const expr::ExprId> roots) const {
  if (racing_.symbols.empty()) return false;
  // One walk over all roots: output cells share most of their nodes.
  const expr::Store& st = session_.store();
  std::vector<expr::ExprId> stack(roots.begin(), roots.end());
  std::unordered_set<uint32_t> seen;
  while (!stack.empty()) {
    expr::ExprId e = stack.back();
    stack.pop_back();
    if (!seen.insert(e.index).second) continue;
    if (racing_.symbols.count(e.index)) return true;
    for (uint32_t i = 0; i < st.arity(e); ++i) stack.push_back(st.operand(e, i));
  }
  return false;
}

bool Machine::depends_on_racing_read(Value v) const {
  if (!v.is_symbolic()) return false;
  expr::ExprId e = v.expr();
  return depends_on_racing_read(std::span<const expr::ExprId>(&e, 1));
}

}  // namespace racer::exec
