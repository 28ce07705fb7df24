// cp.async (sm_80 asynchronous copies global -> shared) with commit_group, wait_group and
// wait_all; the proxy fence and setmaxnreg, which change nothing Racer models.
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

void cp_async(ExecContext& c, const Instr& i) {
  if (i.has(Mod::Space) && space_of(i) != exec::Space::Shared) throw exec::Refusal("cp.async to a space other than .shared");
  uint64_t dst = c.address(i.operands[0]);
  uint64_t src = c.address(i.operands[1]);
  unsigned size = static_cast<unsigned>(int_operand(c, i.operands[2], Type::U32));
  if (size != 4 && size != 8 && size != 16) throw exec::Refusal("cp.async of " + std::to_string(size) + " bytes");
  unsigned src_size = size;
  if (i.operands.size() > 3) {
    const ptx::Operand& o = i.operands[3];
    bool pred = o.kind == ptx::Operand::Kind::Reg && c.fn.regs[o.index].type == Type::Pred;
    if (pred) {
      // ignore-src: when true, nothing is read and the destination is zero-filled.
      if (c.dom.truth(c.get(o, Type::Pred))) src_size = 0;
    } else if (o.kind == ptx::Operand::Kind::Reg || o.kind == ptx::Operand::Kind::Imm) {
      src_size = static_cast<unsigned>(int_operand(c, o, Type::U32));
      if (src_size > size) throw exec::Refusal("cp.async src-size larger than cp-size");
    }
  }
  c.async().async_copy(c, i, dst, src, size, src_size);
}

void no_effect(ExecContext&, const Instr&) {}

}  // namespace

void register_async_copy(exec::Semantics& s) {
  s.step[size_t(ptx::Op::CpAsync)] = cp_async;
  s.step[size_t(ptx::Op::CpAsyncCommitGroup)] = [](ExecContext& c, const Instr&) { c.async().async_commit(c); };
  s.step[size_t(ptx::Op::CpAsyncWaitGroup)] = [](ExecContext& c, const Instr& i) {
    c.async().async_wait(c, static_cast<uint32_t>(int_operand(c, i.operands[0], Type::U32)), false);
  };
  s.step[size_t(ptx::Op::CpAsyncWaitAll)] = [](ExecContext& c, const Instr&) { c.async().async_wait(c, 0, true); };
  // fence.proxy.async makes the thread's earlier shared-memory stores visible to the async
  // proxy (wgmma reads); other proxy fences change nothing Racer models.
  s.step[size_t(ptx::Op::FenceProxy)] = [](ExecContext& c, const Instr& i) {
    if (i.has(Mod::ProxyKind) && ptx::mod_values(Mod::ProxyKind)[i.mod(Mod::ProxyKind)].starts_with("async")) c.async().proxy_fence(c);
  };
  // setmaxnreg moves register budget between warpgroups: no effect on values.
  s.step[size_t(ptx::Op::Setmaxnreg)] = no_effect;
}

}  // namespace racer::sem
