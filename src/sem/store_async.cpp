// st.async and red.async (sm_90): a store or an atomic reduction into shared memory of a CTA
// of the cluster that completes on an mbarrier there (.mbarrier::complete_tx::bytes). The
// model is exec/store_async.cpp; this file checks the forms PTX allows and reads operands.
#include <algorithm>
#include <iterator>

#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

std::string_view mod_name(const Instr& i, Mod m) { return i.has(m) ? ptx::mod_values(m)[i.mod(m)] : ""; }

// The .shared::cluster address an operand names: as written under .shared::cluster, less
// the shared window when the instruction names no space (generic addressing).
uint64_t cluster_address(ExecContext& c, const Instr& i, const ptx::Operand& op) {
  const uint64_t a = c.address(op);
  if (i.has(Mod::Space)) return a;
  if (a < exec::Machine::kSharedWindow || a >= exec::Machine::kSharedWindow + (1ull << 32))
    throw exec::Refusal(std::string(ptx::op_info(i.op).name) + " to a generic address outside shared memory");
  return a - exec::Machine::kSharedWindow;
}

// What st.async and red.async share: the space, the completion mechanism and the scope.
void check_common(const Instr& i) {
  const std::string name(ptx::op_info(i.op).name);
  std::string_view space = mod_name(i, Mod::Space);
  if (!space.empty() && space != "shared::cluster") throw exec::Refusal(name + " to ." + std::string(space) + " is not a PTX form");
  if (mod_name(i, Mod::Completion) != "mbarrier::complete_tx::bytes")
    throw exec::Refusal(name + " without .mbarrier::complete_tx::bytes is not modelled");
  std::string_view scope = mod_name(i, Mod::Scope);
  if (!scope.empty() && scope != "cluster") throw exec::Refusal(name + " with scope ." + std::string(scope) + " is not modelled");
}

void st_async(ExecContext& c, const Instr& i) {
  check_common(i);
  std::string_view sem = mod_name(i, Mod::Sem);
  if (!sem.empty() && sem != "weak") throw exec::Refusal("st.async." + std::string(sem) + " is not modelled");
  const Type t = i.type();
  const unsigned bits = ptx::type_bits(t);
  static constexpr Type kTypes[] = {Type::B32, Type::B64, Type::U32, Type::S32, Type::U64, Type::S64, Type::F32, Type::F64};
  if (std::find(std::begin(kTypes), std::end(kTypes), t) == std::end(kTypes))
    throw exec::Refusal("st.async of ." + std::string(ptx::type_name(t)) + " is not modelled");
  std::vector<Value> values;
  const ptx::Operand& b = i.operands[1];
  if (b.kind == ptx::Operand::Kind::Vector) {
    if (b.elems.size() * bits > 128) throw exec::Refusal("st.async of a vector wider than 16 bytes is not modelled");
    for (const ptx::Operand& e : b.elems) values.push_back(c.get(e, t));
  } else {
    values.push_back(c.get(b, t));
  }
  c.cluster().store_async(c, i, cluster_address(c, i, i.operands[0]), values, bits / 8, cluster_address(c, i, i.operands[2]));
}

// The operation and type pairs PTX defines for red.async.
bool red_form(uint8_t op, Type t) {
  using namespace ptx::atomop;
  switch (op) {
    case ADD: return t == Type::U32 || t == Type::S32 || t == Type::U64;
    case MIN: case MAX: return t == Type::U32 || t == Type::S32;
    case INC: case DEC: return t == Type::U32;
    case AND: case OR: case XOR: return t == Type::B32;
    default: return false;
  }
}

void red_async(ExecContext& c, const Instr& i) {
  check_common(i);
  std::string_view sem = mod_name(i, Mod::Sem);
  if (!sem.empty() && sem != "relaxed") throw exec::Refusal("red.async." + std::string(sem) + " is not modelled");
  if (!i.has(Mod::AtomOp)) throw exec::Refusal("red.async without an operation");
  const uint8_t op = i.mod(Mod::AtomOp);
  const Type t = i.type();
  if (!red_form(op, t))
    throw exec::Refusal("red.async." + std::string(ptx::mod_values(Mod::AtomOp)[op]) + "." + std::string(ptx::type_name(t)) +
                        " is not modelled");
  Value v = c.get(i.operands[1], t);
  using namespace ptx::atomop;
  if (!v.is_concrete() && op != ADD && op != MIN && op != MAX)
    throw exec::Refusal("red.async." + std::string(ptx::mod_values(Mod::AtomOp)[op]) + " of symbolic data");
  c.cluster().reduce_async(c, i, cluster_address(c, i, i.operands[0]), op, t, v, cluster_address(c, i, i.operands[2]));
}

}  // namespace

void register_store_async(exec::Semantics& s) {
  s.step[size_t(ptx::Op::StAsync)] = st_async;
  s.step[size_t(ptx::Op::RedAsync)] = red_async;
}

}  // namespace racer::sem
