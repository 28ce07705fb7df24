// Warp collectives. A thread reaching one waits (step); when every lane of the member mask
// waits at the same instruction, the collective runs once for all of them.
#include <algorithm>

#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

using exec::Cta;
using exec::Machine;
using exec::Thread;

// Arrive at a collective whose member mask is operand `mask_operand`.
void arrive(ExecContext& c, const Instr& i, size_t mask_operand) {
  c.th.wait = exec::Wait::Warp;
  c.th.wait_instr = c.th.pc - 1;
  c.th.member_mask = static_cast<uint32_t>(int_operand(c, i.operands[mask_operand], Type::B32));
  if (!(c.th.member_mask >> c.th.lane & 1)) throw exec::Refusal("the executing lane is not in the member mask");
}

// Operands of one lane, read and written in that lane's context.
Value lane_get(ExecContext& c0, Thread& th, const ptx::Operand& op, Type t) { return c0.with(th).get(op, t); }

void lane_set(ExecContext& c0, Thread& th, const ptx::Operand& op, Value v) { c0.with(th).set(op, v); }

uint64_t lane_bits(ExecContext& c0, Thread& th, const ptx::Operand& op, Type t) {
  Value v = lane_get(c0, th, op, t);
  if (!v.is_concrete()) throw exec::Refusal("a warp collective's control operand depends on symbolic inputs");
  return v.bits;
}

void shfl(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  uint8_t mode = i.mod(Mod::ShflMode);
  Thread* by_lane[32] = {};
  for (Thread* t : lanes) by_lane[t->lane] = t;
  std::vector<Value> src(32);
  for (Thread* t : lanes) src[t->lane] = lane_get(c0, *t, i.operands[1], Type::B32);
  for (Thread* t : lanes) {
    uint32_t lane = t->lane;
    uint32_t b = static_cast<uint32_t>(lane_bits(c0, *t, i.operands[2], Type::B32)) & 31;
    uint32_t cv = static_cast<uint32_t>(lane_bits(c0, *t, i.operands[3], Type::B32));
    uint32_t clamp = cv & 31, seg = (cv >> 8) & 31;
    uint32_t max_lane = (lane & seg) | (clamp & ~seg);
    uint32_t min_lane = lane & seg;
    int64_t j = lane;
    bool ok = false;
    switch (mode) {
      case ptx::shfl::UP: j = int64_t{lane} - b; ok = j >= static_cast<int64_t>(max_lane); break;
      case ptx::shfl::DOWN: j = int64_t{lane} + b; ok = j <= static_cast<int64_t>(max_lane); break;
      case ptx::shfl::BFLY: j = lane ^ b; ok = j <= static_cast<int64_t>(max_lane); break;
      case ptx::shfl::IDX: j = min_lane | (b & ~seg); ok = j <= static_cast<int64_t>(max_lane); break;
    }
    if (!ok) j = lane;
    if (!by_lane[j]) throw exec::Refusal("shfl reads lane " + std::to_string(j) + ", which is not in the member mask");
    const ptx::Operand& d = i.operands[0];
    if (d.kind == ptx::Operand::Kind::Pair) {
      lane_set(c0, *t, d.elems[0], src[j]);
      lane_set(c0, *t, d.elems[1], Value::of_bits(ok ? 1 : 0));
    } else {
      lane_set(c0, *t, d, src[j]);
    }
  }
}

void vote(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  exec::Domain& dom = c0.dom;
  uint32_t mask = lanes.front()->member_mask;
  uint8_t mode = i.mod(Mod::VoteMode);
  std::vector<Value> preds;
  bool symbolic = false;
  uint32_t ballot = 0;
  for (Thread* t : lanes) {
    Value p = lane_get(c0, *t, i.operands[1], Type::Pred);
    symbolic |= !p.is_concrete();
    if (p.is_concrete() && (p.bits & 1)) ballot |= 1u << t->lane;
    preds.push_back(p);
  }
  Value r;
  if (!symbolic) {
    switch (mode) {
      case ptx::vote::ALL: r = Value::of_bits(ballot == mask); break;
      case ptx::vote::ANY: r = Value::of_bits(ballot != 0); break;
      case ptx::vote::UNI: r = Value::of_bits(ballot == 0 || ballot == mask); break;
      default: r = Value::of_bits(ballot); break;
    }
  } else if (mode == ptx::vote::BALLOT) {
    // The mask as an exact integer: the sum over lanes of 2^lane where the predicate holds.
    r = dom.as_integer(Value::of_bits(0), Type::U32);
    for (size_t k = 0; k < lanes.size(); ++k) {
      Value bit = dom.select(preds[k], dom.as_integer(Value::of_bits(uint64_t{1} << lanes[k]->lane), Type::U32),
                             dom.as_integer(Value::of_bits(0), Type::U32));
      r = dom.int_op(exec::IntOp::Add, Type::U32, r, bit);
    }
  } else {
    Value all = Value::of_bits(1), any = Value::of_bits(0);
    for (const Value& p : preds) {
      all = dom.pred(exec::PredOp::And, all, p);
      any = dom.pred(exec::PredOp::Or, any, p);
    }
    if (mode == ptx::vote::ALL) r = all;
    else if (mode == ptx::vote::ANY) r = any;
    else r = dom.pred(exec::PredOp::Or, all, dom.pred(exec::PredOp::Not, any, {}));
  }
  for (Thread* t : lanes) lane_set(c0, *t, i.operands[0], r);
}

void warp_sync(ExecContext& c0, const Instr&, std::span<Thread* const> lanes) {
  uint32_t warp = lanes.front()->warp;
  uint32_t present = 0;
  for (size_t k = 0; k < 32 && size_t{warp} * 32 + k < c0.cta.threads.size(); ++k) present |= 1u << k;
  if (lanes.front()->member_mask != present)
    throw exec::Refusal("bar.warp.sync over part of a warp: ordering among a subset of lanes is not modelled");
  ++c0.cta.warp_epoch[warp];
  c0.sync().warp_synchronized(c0.cta, lanes);
}

// redux.sync add/min/max over symbolic integer data: the exact fold over the lanes, each
// partial result bounds-checked like any symbolic integer arithmetic (min and max cannot
// leave the range of their operands; a sum is refused where it may not fit the type).
bool symbolic_redux(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  Type t = i.type();
  std::vector<Value> v;
  bool symbolic = false;
  for (Thread* th : lanes) {
    v.push_back(bits_view(c0, lane_get(c0, *th, i.operands[1], t), t));
    symbolic |= !v.back().is_concrete();
  }
  if (!symbolic) return false;
  // Every lane a flag (0 or 1: concrete, or integer data the domain's flag logic takes, since
  // or with 0 is a flag itself): and is their minimum, or their maximum (Triton's all/any of a
  // block's comparisons).
  auto flags = [&] {
    return std::all_of(v.begin(), v.end(), [&](const Value& x) {
      return x.is_concrete() ? (x.bits & IntT(t).mask()) <= 1 : c0.dom.int_flag_logic(false, t, x, 0).has_value();
    });
  };
  exec::IntOp op;
  switch (i.mod(Mod::AtomOp)) {
    case ptx::atomop::ADD: op = exec::IntOp::Add; break;
    case ptx::atomop::MIN: op = exec::IntOp::Min; break;
    case ptx::atomop::MAX: op = exec::IntOp::Max; break;
    case ptx::atomop::AND:
    case ptx::atomop::OR:
      if (!flags()) throw exec::Refusal("redux.sync and/or of symbolic integer data that is not 0 or 1 (bitwise on exact integers)");
      op = i.mod(Mod::AtomOp) == ptx::atomop::AND ? exec::IntOp::Min : exec::IntOp::Max;
      break;
    default: throw exec::Refusal("redux.sync xor of symbolic integer data (bitwise on exact integers)");
  }
  Value acc = c0.dom.as_integer(v.front(), t);
  for (size_t k = 1; k < v.size(); ++k) acc = c0.dom.int_op(op, t, acc, v[k]);
  for (Thread* th : lanes) lane_set(c0, *th, i.operands[0], acc);
  return true;
}

void redux(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  // (The integer reductions below would order a float's bits as an integer's.)
  if (ptx::is_float(i.type())) throw exec::Refusal("redux.sync on float data is not modelled");
  if (symbolic_redux(c0, i, lanes)) return;
  Type t = i.type();
  IntT it(t);
  uint8_t op = i.mod(Mod::AtomOp);
  uint64_t acc = 0;
  bool first = true;
  for (Thread* th : lanes) {
    uint64_t x = lane_bits(c0, *th, i.operands[1], t) & it.mask();
    if (first) acc = x, first = false;
    else switch (op) {
        case ptx::atomop::ADD: acc = (acc + x) & it.mask(); break;
        case ptx::atomop::AND: acc &= x; break;
        case ptx::atomop::OR: acc |= x; break;
        case ptx::atomop::XOR: acc ^= x; break;
        case ptx::atomop::MIN: acc = it.sgn ? (it.sx(x) < it.sx(acc) ? x : acc) : std::min(acc, x); break;
        case ptx::atomop::MAX: acc = it.sgn ? (it.sx(x) > it.sx(acc) ? x : acc) : std::max(acc, x); break;
        default: throw exec::Refusal("redux operation not modelled");
      }
  }
  for (Thread* th : lanes) lane_set(c0, *th, i.operands[0], Value::of_bits(acc));
}

void match(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  Type t = i.type();
  std::vector<uint64_t> v(32);
  for (Thread* th : lanes) v[th->lane] = lane_bits(c0, *th, i.operands[1], t);
  bool all_mode = i.mod(Mod::MatchMode) == 1;
  uint32_t mask = lanes.front()->member_mask;
  bool all_equal = true;
  for (Thread* th : lanes) all_equal &= v[th->lane] == v[lanes.front()->lane];
  for (Thread* th : lanes) {
    uint32_t same = 0;
    for (Thread* o : lanes)
      if (v[o->lane] == v[th->lane]) same |= 1u << o->lane;
    const ptx::Operand& d = i.operands[0];
    Value r = Value::of_bits(all_mode ? (all_equal ? mask : 0) : same);
    if (d.kind == ptx::Operand::Kind::Pair) {
      lane_set(c0, *th, d.elems[0], r);
      lane_set(c0, *th, d.elems[1], Value::of_bits(all_equal ? 1 : 0));
    } else {
      lane_set(c0, *th, d, r);
    }
  }
}

void elect(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  uint32_t leader = 32;
  for (Thread* t : lanes) leader = std::min(leader, t->lane);
  for (Thread* t : lanes) {
    const ptx::Operand& d = i.operands[0];
    if (d.kind == ptx::Operand::Kind::Pair) {
      lane_set(c0, *t, d.elems[0], Value::of_bits(leader));
      lane_set(c0, *t, d.elems[1], Value::of_bits(t->lane == leader));
    } else {
      lane_set(c0, *t, d, Value::of_bits(leader));
    }
  }
}

// activemask: each lane waits alone (its member mask is itself), so this runs once every lane
// of the CTA has run to a synchronization point or exited. The lanes active together are then
// determined by the program when every live lane of the warp waits here having taken the
// same branches since launch and none on symbolic data; otherwise they depend on how the
// hardware schedules or reconverges diverged lanes, and the answer would be a guess.
void activemask(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  const Thread& me = *lanes.front();
  std::vector<Thread*> group;
  uint32_t mask = 0;
  for (uint32_t k = 0; k < 32; ++k) {
    size_t j = size_t{me.warp} * 32 + k;
    if (j >= c0.cta.threads.size()) break;
    Thread& o = c0.cta.threads[j];
    if (o.exited) continue;
    std::string lane = "lane " + std::to_string(k);
    if (o.wait != exec::Wait::Warp || o.wait_instr != me.wait_instr)
      throw exec::Refusal("activemask while " + lane + " of the warp waits elsewhere: which lanes run together here depends on the schedule");
    if (o.data_branched)
      throw exec::Refusal("activemask after " + lane + " branched on symbolic data: which lanes run together here depends on the data and the schedule");
    if (o.branch_history == exec::BranchHistories::kLost)
      throw exec::Refusal("activemask after more than " + std::to_string(exec::BranchHistories::kMaxNodes) +
                          " distinct branch histories in the CTA: which lanes took the same branches is no longer known");
    if (o.branch_history != me.branch_history)
      throw exec::Refusal("activemask reached by lane " + std::to_string(me.lane) + " and " + lane +
                          " along different branches: which lanes run together here depends on how the hardware reconverges them");
    mask |= 1u << k;
    group.push_back(&o);
  }
  for (Thread* o : group) {
    lane_set(c0, *o, i.operands[0], Value::of_bits(mask));
    o->wait = exec::Wait::None;
  }
}

}  // namespace

void register_warp(exec::Semantics& s) {
  auto& st = s.step;
  auto& co = s.collective;
  st[size_t(ptx::Op::ShflSync)] = [](ExecContext& c, const Instr& i) { arrive(c, i, 4); };
  co[size_t(ptx::Op::ShflSync)] = shfl;
  st[size_t(ptx::Op::VoteSync)] = [](ExecContext& c, const Instr& i) { arrive(c, i, 2); };
  co[size_t(ptx::Op::VoteSync)] = vote;
  st[size_t(ptx::Op::BarWarpSync)] = [](ExecContext& c, const Instr& i) { arrive(c, i, 0); };
  co[size_t(ptx::Op::BarWarpSync)] = warp_sync;
  st[size_t(ptx::Op::ReduxSync)] = [](ExecContext& c, const Instr& i) { arrive(c, i, 2); };
  co[size_t(ptx::Op::ReduxSync)] = redux;
  st[size_t(ptx::Op::Match)] = [](ExecContext& c, const Instr& i) { arrive(c, i, 2); };
  co[size_t(ptx::Op::Match)] = match;
  st[size_t(ptx::Op::ElectSync)] = [](ExecContext& c, const Instr& i) { arrive(c, i, 1); };
  co[size_t(ptx::Op::ElectSync)] = elect;
  st[size_t(ptx::Op::Activemask)] = [](ExecContext& c, const Instr&) {
    c.th.wait = exec::Wait::Warp;
    c.th.wait_instr = c.th.pc - 1;
    c.th.member_mask = 1u << c.th.lane;
  };
  co[size_t(ptx::Op::Activemask)] = activemask;
}

}  // namespace racer::sem
