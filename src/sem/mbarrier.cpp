// mbarrier (init, arrive, arrive.expect_tx, arrive_drop, expect_tx, try_wait / test_wait by
// parity or state token, inval) and cp.async.bulk global -> shared completing on an mbarrier
// (exec/mbarrier.cpp has the model). Tensor copies (TMA) are in tma.cpp.
#include "exec/async_state.hpp"
#include "ptx/wait_loops.hpp"
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

// The .shared::cluster address (a shared-space address of this CTA, or one mapa made) an
// [addr] operand whose space is .shared, .shared::cta, .shared::cluster or generic names.
uint64_t cluster_address(ExecContext& c, const Instr& i, const ptx::Operand& op) {
  uint64_t a = c.address(op);
  std::string_view n = i.has(Mod::Space) ? ptx::mod_values(Mod::Space)[i.mod(Mod::Space)] : "";
  if (n.empty()) {
    if (a < exec::Machine::kSharedWindow || a >= exec::Machine::kSharedWindow + (1ull << 32))
      throw exec::Refusal("mbarrier or bulk-copy address outside shared memory");
    return a - exec::Machine::kSharedWindow;
  }
  if (n != "shared" && n != "shared::cta" && n != "shared::cluster") throw exec::Refusal("state space ." + std::string(n) + " for an mbarrier or bulk copy");
  return a;
}

// The same within this CTA's shared memory: another CTA's barrier or buffer is refused.
uint64_t shared_address(ExecContext& c, const Instr& i, const ptx::Operand& op) {
  return c.cluster().own_shared_address(c, cluster_address(c, i, op), "an mbarrier or bulk-copy operand");
}

uint32_t u32(ExecContext& c, const ptx::Operand& op) { return static_cast<uint32_t>(int_operand(c, op, Type::U32)); }

void init(ExecContext& c, const Instr& i) { c.async().mbarrier_init(c, shared_address(c, i, i.operands[0]), u32(c, i.operands[1])); }

void inval(ExecContext& c, const Instr& i) { c.async().mbarrier_inval(c, shared_address(c, i, i.operands[0])); }

void arrive(ExecContext& c, const Instr& i) {
  if (i.has(Mod::NoComplete)) throw exec::Refusal("mbarrier.arrive.noComplete is not modelled");
  bool expect_tx = i.has(Mod::ExpectTx);
  uint32_t extra = i.operands.size() > 2 ? u32(c, i.operands[2]) : (expect_tx ? 0 : 1);
  std::string_view sem = i.has(Mod::Sem) ? ptx::mod_values(Mod::Sem)[i.mod(Mod::Sem)] : "release";
  if (sem != "release" && sem != "relaxed") throw exec::Refusal("mbarrier.arrive." + std::string(sem) + " is not a PTX form");
  uint64_t token = c.cluster().mbarrier_arrive_cluster(c, cluster_address(c, i, i.operands[1]), expect_tx ? 1 : extra,
                                               expect_tx ? extra : 0, i.op == ptx::Op::MbarrierArriveDrop, sem == "release");
  c.set(i.operands[0], Value::of_bits(token));
}

void expect_tx(ExecContext& c, const Instr& i) { c.async().mbarrier_expect_tx(c, shared_address(c, i, i.operands[0]), u32(c, i.operands[1])); }

void wait(ExecContext& c, const Instr& i) {
  // A relaxed wait acquires nothing; a later fence would, which the model does not follow.
  if (i.has(Mod::Sem) && ptx::mod_values(Mod::Sem)[i.mod(Mod::Sem)] != "acquire")
    throw exec::Refusal("an mbarrier wait without .acquire semantics is not modelled");
  // The wait runs as the schedule that delays the thread until the phase completes; a program
  // that acts on "not yet" other than by retrying could tell that schedule from the others.
  const Instr* first = c.fn.instrs.data();
  if (&i < first || &i >= first + c.fn.instrs.size())
    throw exec::Refusal("an mbarrier wait outside its function's instruction list is not modelled");
  if (std::optional<std::string> why = ptx::wait_outcome_observed(c.fn, static_cast<uint32_t>(&i - first)))
    throw exec::Refusal("an mbarrier wait whose outcome the program uses other than to retry it: " + *why);
  bool parity = i.has(Mod::Parity);
  uint64_t value = int_operand(c, i.operands[2], parity ? Type::U32 : Type::B64);
  if (c.async().mbarrier_wait(c, shared_address(c, i, i.operands[1]), parity, value)) {
    const ptx::Operand& d = i.operands[0];
    c.set(d.kind == ptx::Operand::Kind::Pair ? d.elems[0] : d, Value::of_bits(1));
  }
}

void bulk(ExecContext& c, const Instr& i) {
  std::string_view dst = i.has(Mod::Space) ? ptx::mod_values(Mod::Space)[i.mod(Mod::Space)] : "";
  std::string_view src = i.has(Mod::Space2) ? ptx::mod_values(Mod::Space2)[i.mod(Mod::Space2)] : "";
  const bool multicast = i.has(Mod::Multicast);
  if (src != "global" || (dst != "shared::cluster" && dst != "shared::cta") || i.operands.size() < (multicast ? 5u : 4u))
    throw exec::Refusal("cp.async.bulk other than global -> shared completing on an mbarrier is not modelled");
  uint64_t d = shared_address(c, i, i.operands[0]);
  uint64_t s = c.address(i.operands[1]);
  if (!multicast) return c.async().bulk_copy(c, i, d, s, u32(c, i.operands[2]), shared_address(c, i, i.operands[3]));
  c.cluster().bulk_copy_multicast(c, i, c.async().bulk_source(c, i, d, s, u32(c, i.operands[2])), shared_address(c, i, i.operands[3]),
                          static_cast<uint32_t>(int_operand(c, i.operands[4], Type::U16)));
}

}  // namespace

void register_mbarrier(exec::Semantics& s) {
  s.step[size_t(ptx::Op::MbarrierInit)] = init;
  s.step[size_t(ptx::Op::MbarrierInval)] = inval;
  s.step[size_t(ptx::Op::MbarrierArrive)] = arrive;
  s.step[size_t(ptx::Op::MbarrierArriveDrop)] = arrive;
  s.step[size_t(ptx::Op::MbarrierExpectTx)] = expect_tx;
  s.step[size_t(ptx::Op::MbarrierTryWait)] = wait;
  s.step[size_t(ptx::Op::MbarrierTestWait)] = wait;
  s.step[size_t(ptx::Op::CpAsyncBulk)] = bulk;
}

}  // namespace racer::sem
