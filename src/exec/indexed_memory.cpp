// Loads, stores and atomics at data-dependent addresses: an address computed from integer data
// read from memory (an embedding row, a gather or scatter index, a histogram bin). The index
// symbols are enumerated over their declared ranges (exec/indexed_address.hpp), and each
// candidate cell is accessed under the condition that names it, exactly: a load is the select
// over the cells, a store makes each cell select(condition, value, old) (as a path's store
// does), an atomic adds select(condition, operand, 0) to each cell (additions commute, so the
// order of atomics still does not matter). Defects at a candidate carry its condition; races
// are decided on the conditions (exec/indexed_races.hpp), never assumed.
#include <map>

#include "exec/indexed_address.hpp"
#include "exec/integer_range.hpp"
#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "expr/substitute.hpp"
#include "ptx/modifiers.hpp"

namespace racer::exec {
namespace {

// The running access's candidate, whose condition the defects it records carry, until the
// scope ends.
template <class Slot>
struct ConditionScope {
  Slot& slot;
  ConditionScope(Slot& s, const IndexedAddress& a, size_t c) : slot(s) { slot = {&a, &a.candidates[c].points}; }
  ~ConditionScope() { slot = {}; }
  ConditionScope(const ConditionScope&) = delete;
  ConditionScope& operator=(const ConditionScope&) = delete;
};

uint32_t thread_number(const ExecContext& ctx) {
  return ctx.cta.linear * static_cast<uint32_t>(ctx.cta.threads.size()) + ctx.th.linear;
}

const char* kind_name(IndexedKind k) {
  switch (k) {
    case IndexedKind::Read: return "read";
    case IndexedKind::Write: return "write";
    case IndexedKind::Atomic: return "atomic";
  }
  return "";
}

bool untyped(ptx::Type t) { return ptx::type_class(t) == ptx::TypeClass::Bits; }

// How an access of type t reads or writes a cell of a table of `elem`: as the table's element
// where the access does not say (Triton loads f32 tables as .b32) or names an integer type of
// the width of a float element (nvcc loads and stores a __half as .u16); else as t.
ptx::Type table_view(ptx::Type t, ptx::Type elem) {
  if (ptx::type_bits(elem) != ptx::type_bits(t)) return t;
  return untyped(t) || (ptx::is_float(elem) && !ptx::is_float(t)) ? elem : t;
}

}  // namespace

namespace {

// The conjuncts of a path condition (innermost frames' conditions, and-ed), each with its
// polarity: a conjunction of literals.
void literals(const expr::Store& st, expr::ExprId e, bool positive, std::vector<std::pair<expr::ExprId, bool>>& out) {
  if (st.kind(e) == expr::Kind::Select) {
    expr::ExprId c = st.operand(e, 0), t = st.operand(e, 1), f = st.operand(e, 2);
    if (t == st.false_value() && f == st.true_value()) return literals(st, c, !positive, out);
    if (positive && f == st.false_value()) return literals(st, c, true, out), literals(st, t, true, out);
    if (!positive && t == st.true_value()) return literals(st, c, false, out), literals(st, f, false, out);
  }
  out.emplace_back(e, positive);
}

// e as w sym + c (nullopt where it is not linear in sym alone).
std::optional<std::pair<mpq_class, mpq_class>> linear_in(const expr::Store& st, expr::ExprId e, expr::ExprId sym) {
  if (e == sym) return std::pair{mpq_class(1), mpq_class(0)};
  if (st.is_rational(e)) return std::pair{mpq_class(0), st.rational(e)};
  if (st.kind(e) == expr::Kind::Add && st.arity(e) == 1 && st.operand(e, 0) == sym) return std::pair{st.weight(e, 0), st.coef(e)};
  return std::nullopt;
}

// The values of `sym` a comparison literal linear in it allows (w sym + c op 0, or its negation);
// nullopt for any other literal, or one that allows all but one value.
std::optional<Interval> literal_bounds(const expr::Store& st, expr::ExprId lit, bool positive, expr::ExprId sym) {
  if (st.kind(lit) != expr::Kind::Cmp) return std::nullopt;
  auto x = linear_in(st, st.operand(lit, 0), sym), y = linear_in(st, st.operand(lit, 1), sym);
  if (!x || !y || x->first == y->first) return std::nullopt;
  const mpq_class w = x->first - y->first, t = (y->second - x->second) / w;  // sym op t, when w > 0
  enum class Rel { Lt, Le, Gt, Ge, Eq, Ne } rel;
  switch (st.cmp_op(lit)) {
    case expr::CmpOp::Lt: rel = positive ? Rel::Lt : Rel::Ge; break;
    case expr::CmpOp::Le: rel = positive ? Rel::Le : Rel::Gt; break;
    case expr::CmpOp::Eq: rel = positive ? Rel::Eq : Rel::Ne; break;
    case expr::CmpOp::Ne: rel = positive ? Rel::Ne : Rel::Eq; break;
    default: return std::nullopt;
  }
  if (w < 0) rel = rel == Rel::Lt ? Rel::Gt : rel == Rel::Le ? Rel::Ge : rel == Rel::Gt ? Rel::Lt : rel == Rel::Ge ? Rel::Le : rel;
  mpz_class fl, ce;
  mpz_fdiv_q(fl.get_mpz_t(), t.get_num_mpz_t(), t.get_den_mpz_t());
  mpz_cdiv_q(ce.get_mpz_t(), t.get_num_mpz_t(), t.get_den_mpz_t());
  const mpq_class none_lo(mpz_class(-1) << 64), none_hi(mpz_class(1) << 64);
  switch (rel) {
    case Rel::Lt: return Interval{none_lo, mpq_class(ce - 1)};
    case Rel::Le: return Interval{none_lo, mpq_class(fl)};
    case Rel::Gt: return Interval{mpq_class(fl + 1), none_hi};
    case Rel::Ge: return Interval{mpq_class(ce), none_hi};
    case Rel::Eq: return t.get_den() == 1 ? Interval{t, t} : Interval{mpq_class(1), mpq_class(0)};
    case Rel::Ne: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::shared_ptr<const IndexedAddress> Machine::indexed_address(ExecContext& ctx, const ptx::Instr&, Value base, unsigned width,
                                                               uint64_t offset) {
  if (!base.is_symbolic() || !base.integer) throw Refusal("an address that depends on float data");
  expr::Store& st = session_.store();
  const std::vector<expr::ExprId> in_address = expr::free_symbols(st, base.expr());
  // Index values where the thread's path condition is false never reach this access: a guard
  // `idx < n` or `v == r` narrows the index's range, any other condition on the indices alone is
  // evaluated at each point, one that also reads other data is substituted into.
  std::map<expr::ExprId, Interval> narrowed;
  std::vector<expr::ExprId> exact, mixed;  // literal conditions (as true) checked per point
  for (const PathFrame& f : ctx.th.paths) {
    if (!f.taken.is_symbolic()) continue;
    std::vector<std::pair<expr::ExprId, bool>> lits;
    literals(st, f.taken.expr(), !f.second, lits);
    for (auto [lit, positive] : lits) {
      std::vector<expr::ExprId> syms = expr::free_symbols(st, lit);
      size_t shared = 0;
      for (expr::ExprId y : syms) shared += std::binary_search(in_address.begin(), in_address.end(), y);
      if (shared == 0) continue;
      if (syms.size() == 1)
        if (std::optional<Interval> b = literal_bounds(st, lit, positive, syms[0])) {
          auto [it, fresh] = narrowed.emplace(syms[0], *b);
          if (!fresh) it->second = Interval{std::max(it->second.lo, b->lo), std::min(it->second.hi, b->hi)};
          continue;
        }
      expr::ExprId as_true = positive ? lit : st.select(lit, st.false_value(), st.true_value());
      (shared == syms.size() ? exact : mixed).push_back(as_true);
    }
  }
  Admissible admissible;
  if (!exact.empty() || !mixed.empty())
    admissible = [&st, &exact, &mixed, &in_address](const expr::Assignment& at) {
      for (expr::ExprId c : exact)
        if (std::optional<mpq_class> v = expr::eval_exact(st, c, at); v && *v == 0) return false;
      if (mixed.empty()) return true;
      expr::Substitution sub;
      for (expr::ExprId sym : in_address)  // (the point gives values to the address's symbols)
        if (std::optional<mpq_class> v = at.value(sym)) sub[sym] = st.constant(*v);
      for (expr::ExprId c : mixed)
        if (expr::substitute(st, c, sub) == st.false_value()) return false;
      return true;
    };
  IndexRange range = [this, &narrowed](expr::ExprId s) -> std::optional<Interval> {
    std::optional<SymbolOrigin> o = session_.origin(s);
    if (!o || o->tensor < 0) return std::nullopt;
    std::optional<Interval> r = integer_range(storage_.tensors()[static_cast<size_t>(o->tensor)], *o);
    if (auto it = narrowed.find(s); r && it != narrowed.end())
      r = Interval{std::max(r->lo, it->second.lo), std::min(r->hi, it->second.hi)};
    return r;
  };
  // An index no input range bounds may still be a choice among integers made by comparisons.
  const bool ranged = std::all_of(in_address.begin(), in_address.end(), [&](expr::ExprId s) {
    const std::optional<Interval> r = range(s);
    return r && r->lo.get_den() == 1 && r->hi.get_den() == 1;
  });
  if (!ranged) {
    std::vector<expr::ExprId> holds;  // the branches and guards the thread is under
    for (const PathFrame& f : ctx.th.paths)
      if (f.taken.is_symbolic()) holds.push_back(f.second ? st.select(f.taken.expr(), st.false_value(), st.true_value()) : f.taken.expr());
    return std::make_shared<const IndexedAddress>(enumerate_choices(st, base.expr(), width, offset, holds));
  }
  return std::make_shared<const IndexedAddress>(enumerate_address(st, base.expr(), width, offset, range, admissible));
}

std::optional<uint64_t> Machine::indexed_target(ExecContext& ctx, const ptx::Instr& ins, const Located& l, unsigned size,
                                                IndexedKind kind) {
  const DefectKind oob = kind == IndexedKind::Read ? DefectKind::OobRead : DefectKind::OobWrite;
  std::optional<uint64_t> at = target(ctx, ins, l, size, size, oob, [&] {
    return "misaligned " + std::to_string(size) + "-byte " + kind_name(kind) + " at a data-dependent address" + only_where(ctx.th);
  });
  if (!at) return std::nullopt;
  Region& r = *l.region;
  auto where = [&] { return storage_.describe(l.region, l.offset, size); };
  if (kind == IndexedKind::Read && r.tensor >= 0 && !r.readable)
    defect(DefectKind::AccessViolation, SiteRef{&ctx, &ins}, where, [] { return std::string("reads a tensor this launch was not given for reading"); });
  if (kind != IndexedKind::Read && !r.writable)
    defect(DefectKind::AccessViolation, SiteRef{&ctx, &ins}, where, [&] {
      return std::string(r.tensor >= 0 ? "stores into a tensor this launch was given only for reading" : "stores into read-only memory");
    });
  if (kind == IndexedKind::Atomic && &r == ctx.th.local) refuse(ctx, ins, "atomic on local memory");
  if (kind != IndexedKind::Atomic && pending_atomic_overlaps(r, *at, size, clusters_.region_cta(ctx, l.region)))
    refuse(ctx, ins, "accesses " + where() + " at a data-dependent address while atomic updates to it are pending (their order is not established)");
  if (!r.in_flight.empty() && AsyncUnit::in_flight(r, *at, size))
    refuse(ctx, ins, "accesses " + where() + " at a data-dependent address while an asynchronous copy writes it");
  return at;
}

Value Machine::indexed_old_value(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, ptx::Type t) {
  if (!ctx.th.paths.empty())
    if (auto held = path_load(ctx, ins, r, off, size)) return *held;
  if (r.state[off] != ByteState::Uninit) return read_bytes(r, off, size, &ctx.cta, SiteRef{&ctx, &ins}, !ptx::is_float(t));
  const std::string where = storage_.describe(&r, r.base + off, size);
  if (r.tensor < 0)
    refuse(ctx, ins, "stores at a data-dependent address that may name " + where +
                         ", which holds no value for the index values that name another cell (initialize it first)");
  const TensorSpec& spec = storage_.tensors()[r.tensor];
  int64_t cell = size == spec.elem_bytes() && off % size == 0 ? storage_.cell_of(r.tensor, off / size) : -1;
  if (cell < 0) refuse(ctx, ins, "stores at a data-dependent address part of a cell of " + spec.name + " that holds no value");
  return final_uninitialized(static_cast<size_t>(r.tensor), cell);
}

// A cell an address chosen by comparisons may name is read only where nothing can be said
// against reading it whatever the choice: a cell of a tensor this launch cannot write (no race
// to find) that holds a value (no uninitialized read to report). The choices' paths may include
// some that no input takes, so a defect found at their cells could be a false alarm.
void Machine::chosen_cell_readable(ExecContext& ctx, const ptx::Instr& ins, const Located& l, unsigned size) {
  const Region* r = l.region;
  const std::string where = storage_.describe(r, l.offset, size);
  if (!r || r->tensor < 0 || r->writable || !r->contains(l.offset, size))
    refuse(ctx, ins, "reads at an address chosen by comparisons of data that may name " + where +
                         ", outside the tensors this launch only reads");
  for (uint64_t k = 0; k < size; ++k)
    if (r->state[l.offset - r->base + k] == ByteState::Uninit)
      refuse(ctx, ins, "reads at an address chosen by comparisons of data that may name " + where + ", which holds no value");
}

Value Machine::load_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space, const std::shared_ptr<const IndexedAddress>& a,
                            uint64_t extra, unsigned size, ptx::Type t) {
  if (before_grid_wait(ctx.th)) refuse_before_grid_wait(ctx, ins, "reads at a data-dependent address");
  const IndexedAddress& ia = *a;
  if (ia.candidates.empty()) return Value::of_bits(0);  // no index value reaches it on this path
  expr::Store& st = session_.store();
  ptx::Type view = t;
  std::vector<Located> where;
  for (const auto& c : ia.candidates) {
    where.push_back(locate(ctx, space, c.addr + extra));
    const Region* r = where.back().region;
    if (view == t && r && r->tensor >= 0) view = table_view(t, storage_.tensors()[r->tensor].elem);
  }
  std::vector<Value> values;
  for (size_t c = 0; c < ia.candidates.size(); ++c) {
    ConditionScope scope(access_condition_, ia, c);
    const Located& l = where[c];
    if (ia.by_comparisons()) chosen_cell_readable(ctx, ins, l, size);
    std::optional<uint64_t> at = indexed_target(ctx, ins, l, size, IndexedKind::Read);
    if (!at) {
      values.push_back(out_of_bounds_value(l, ia.candidates[c].addr + extra, size, view));
      continue;
    }
    Region& r = *l.region;
    indexed_vs_plain(ctx, ins, r, *at, size, IndexedKind::Read);
    indexed_conflicts(ctx, ins, r, *at, size, IndexedKind::Read, &ia, &ia.candidates[c].points, {});
    // A tensor this launch cannot write has no write to race with (one would be a defect itself).
    if (r.tensor < 0 || r.writable) record_indexed(ctx, ins, r, *at, size, IndexedKind::Read, a, static_cast<uint32_t>(c), {});
    std::optional<Value> held = ctx.th.paths.empty() ? std::nullopt : path_load(ctx, ins, r, *at, size);
    values.push_back(held ? *held : read_bytes(r, *at, size, &clusters_.region_cta(ctx, l.region), SiteRef{&ctx, &ins}, !ptx::is_float(view)));
  }
  Value v = values.back();
  try {
    for (size_t c = values.size() - 1; c-- > 0;) {
      expr::ExprId cond = candidate_condition(st, ia, c);
      v = merge(Value::of_expr(cond), values[c], v, view);
    }
  } catch (const Refusal& e) {
    refuse(ctx, ins, std::string("selecting among the cells a data-dependent address may name: ") + e.what());
  }
  return v;
}

void Machine::store_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space, const std::shared_ptr<const IndexedAddress>& a,
                            uint64_t extra, unsigned size, Value v, ptx::Type t) {
  if (before_grid_wait(ctx.th)) refuse_before_grid_wait(ctx, ins, "writes at a data-dependent address");
  if (v.is_poison()) refuse(ctx, ins, "stores the old value returned by an atomic, whose value depends on the order of atomics");
  if (v.is_concrete() && size < 8) v.bits &= (uint64_t{1} << (8 * size)) - 1;
  const IndexedAddress& ia = *a;
  if (ia.by_comparisons()) refuse(ctx, ins, "stores at an address chosen by comparisons of data");
  expr::Store& st = session_.store();
  const auto instr = static_cast<uint32_t>(&ins - ctx.fn.instrs.data());
  for (size_t c = 0; c < ia.candidates.size(); ++c) {
    ConditionScope scope(access_condition_, ia, c);
    Located l = locate(ctx, space, ia.candidates[c].addr + extra);
    std::optional<uint64_t> at = indexed_target(ctx, ins, l, size, IndexedKind::Write);
    if (!at) continue;
    Region& r = *l.region;
    indexed_vs_plain(ctx, ins, r, *at, size, IndexedKind::Write);
    indexed_conflicts(ctx, ins, r, *at, size, IndexedKind::Write, &ia, &ia.candidates[c].points, v);
    record_indexed(ctx, ins, r, *at, size, IndexedKind::Write, a, static_cast<uint32_t>(c), v);
    Value now = v;
    if (ia.candidates.size() > 1) {
      const ptx::Type view = r.tensor >= 0 ? table_view(t, storage_.tensors()[r.tensor].elem) : t;
      Value old = indexed_old_value(ctx, ins, r, *at, size, view);
      try {
        now = merge(Value::of_expr(candidate_condition(st, ia, c)), v, old, view);
      } catch (const Refusal& e) {
        refuse(ctx, ins, "storing at a data-dependent address into " + storage_.describe(&r, r.base + *at, size) + ": " + e.what());
      }
    }
    if (!ctx.th.paths.empty()) {
      path_store(ctx, ins, ctx.th.paths.back(), PathStore{&r, *at, size, now, t, instr});
    } else {
      write_bytes(r, *at, size, now);
      note_writer(r, *at, instr);
    }
  }
}

void Machine::atomic_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space, const std::shared_ptr<const IndexedAddress>& a,
                             unsigned size, uint8_t op, ptx::Type t, Value operand) {
  using namespace ptx::atomop;
  const bool real = ptx::is_float(t);
  if (op != ADD && (real || (op != MIN && op != MAX)))
    refuse(ctx, ins, std::string("atomic .") + std::string(ptx::mod_values(ptx::Mod::AtomOp)[op]) +
                         " at a data-dependent address (add, and min and max of integers, are modelled)");
  if (operand.is_poison()) refuse(ctx, ins, "an atomic's operand is the old value of another atomic");
  if (!ctx.th.paths.empty())
    refuse(ctx, ins, "an atomic at a data-dependent address on a path of a branch on symbolic data");
  // Where the condition fails the cell gets the operation's neutral element.
  const unsigned bits = ptx::type_bits(t);
  const bool sgn = ptx::type_class(t) == ptx::TypeClass::Signed;
  const uint64_t all = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  Value neutral = Value::of_bits(0);
  if (op == MIN) neutral = Value::of_bits(sgn ? all >> 1 : all);
  if (op == MAX) neutral = Value::of_bits(sgn ? (all >> 1) + 1 : 0);
  const IndexedAddress& ia = *a;
  if (ia.by_comparisons()) refuse(ctx, ins, "an atomic at an address chosen by comparisons of data");
  expr::Store& st = session_.store();
  for (size_t c = 0; c < ia.candidates.size(); ++c) {
    ConditionScope scope(access_condition_, ia, c);
    Located l = locate(ctx, space, ia.candidates[c].addr);
    std::optional<uint64_t> at = indexed_target(ctx, ins, l, size, IndexedKind::Atomic);
    if (!at) continue;
    Region& r = *l.region;
    indexed_vs_plain(ctx, ins, r, *at, size, IndexedKind::Atomic);
    indexed_conflicts(ctx, ins, r, *at, size, IndexedKind::Atomic, &ia, &ia.candidates[c].points, {});
    record_indexed(ctx, ins, r, *at, size, IndexedKind::Atomic, a, static_cast<uint32_t>(c), {});
    Value part = operand;
    if (ia.candidates.size() > 1) {
      try {
        part = merge(Value::of_expr(candidate_condition(st, ia, c)), operand, neutral, t);
      } catch (const Refusal& e) {
        refuse(ctx, ins, std::string("an atomic at a data-dependent address: ") + e.what());
      }
    }
    pend_atomic(ctx, ins, l, *at, size, op, t, part);
  }
}

// --- race detection (exec/indexed_races.hpp) ---

void Machine::indexed_vs_plain(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, IndexedKind kind) {
  if (!r.track_races || &r == ctx.th.local) return;
  if (!race_tracking_ && (r.tensor >= 0 || &r == ctx.cta.shared.get())) return;
  const uint32_t me = thread_number(ctx);
  auto concurrent = [&](const AccessRecord& a) {
    return a.valid() && a.thread != me && a.launch == launch_index_ && !ordered_before(a, ctx.cta, ctx.th);
  };
  for (unsigned k = 0; k < size; ++k) {
    const ByteTrack& b = r.track.peek(off + k);
    std::optional<std::pair<AccessRecord, const char*>> hit;
    if (kind == IndexedKind::Read) {
      if (concurrent(b.established) && b.writer.thread != me) hit = {b.established, "write"};
    } else {
      if (concurrent(b.writer)) hit = {b.writer, "write"};
      else if (concurrent(b.reader)) hit = {b.reader, "read"};
      else if (concurrent(b.other_reader)) hit = {b.other_reader, "read"};
    }
    if (!hit) continue;
    const AccessRecord other = hit->first;
    const char* what = hit->second;
    size_t index = defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return storage_.describe(&r, r.base + off, size); }, [&] {
      return std::string(kind_name(kind)) + " at a data-dependent address conflicts with a " + what +
             " by another thread not ordered by a barrier";
    });
    if (other.thread < AccessRecord::kAsyncWriterBase && other.instr != AccessRecord::kNone)
      log_.set_other_side(index, [&] { return access_site(other); });
    return;
  }
}

void Machine::indexed_conflicts(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, IndexedKind kind,
                                const IndexedAddress* mine, const std::vector<uint32_t>* points, Value stored) {
  IndexedAccesses* ix = r.indexed.get();
  if (!ix || ix->launch != launch_index_) return;
  const uint32_t me = thread_number(ctx);
  const expr::Store& st = session_.store();
  // One race per access and cell is enough to report; true once found.
  auto scan = [&](const std::multimap<uint64_t, IndexedEntry>& entries) {
    for (auto it = entries.lower_bound(off >= 16 ? off - 16 : 0); it != entries.end() && it->first < off + size; ++it) {
      const IndexedEntry& e = it->second;
      if (it->first + e.size <= off || e.rec.thread == me || e.rec.launch != launch_index_) continue;
      if (e.kind == kind && kind == IndexedKind::Atomic) continue;  // atomics with atomics combine in any order
      if (ordered_before(e.rec, ctx.cta, ctx.th)) continue;
      const std::vector<uint32_t>& theirs = e.access->candidates[e.candidate].points;
      // Both access the cell only for index values each allows: they meet where both can hold.
      if (mine && !can_coincide(*mine, *points, *e.access, theirs)) continue;
      const std::string their_condition = candidate_condition_text(st, *e.access, theirs);
      if (kind == IndexedKind::Write && e.kind == IndexedKind::Write && stored == e.stored) {
        log_.note(SiteRef{&ctx, &ins}, [&] {
          return "stores the same value as another thread's store at a data-dependent address (where " + their_condition + ") to " +
                 storage_.describe(&r, r.base + off, size) + " in the same epoch";
        });
        continue;
      }
      const IndexedEntry seen = e;
      size_t index = defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return storage_.describe(&r, r.base + off, size); }, [&] {
        return std::string(kind_name(kind)) + (mine ? " at a data-dependent address" : "") + " conflicts with a " +
               kind_name(seen.kind) + " at a data-dependent address by another thread (where " + their_condition +
               ") not ordered by a barrier";
      });
      log_.set_other_side(index, [&] { return access_site(seen.rec); });
      return true;
    }
    return false;
  };
  if (scan(ix->updates) || kind == IndexedKind::Read) return;  // reads with reads never race
  scan(ix->reads);
}

void Machine::record_indexed(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, IndexedKind kind,
                             const std::shared_ptr<const IndexedAddress>& a, uint32_t candidate, Value stored) {
  if (!r.track_races || &r == ctx.th.local) return;
  if (!race_tracking_ && (r.tensor >= 0 || &r == ctx.cta.shared.get())) return;
  if (!r.indexed) r.indexed = std::make_shared<IndexedAccesses>();
  IndexedAccesses& ix = *r.indexed;
  if (ix.launch != launch_index_) ix.reads.clear(), ix.updates.clear(), ix.launch = static_cast<uint16_t>(launch_index_);
  if (ix.size() >= IndexedAccesses::kMaxEntries)
    refuse(ctx, ins, "more than " + std::to_string(IndexedAccesses::kMaxEntries) + " accesses at data-dependent addresses to " +
                         r.name + " in one launch (race detection keeps each)");
  AccessRecord cur{thread_number(ctx), ctx.cta.epoch, ctx.cta.warp_epoch[ctx.th.warp], static_cast<uint16_t>(launch_index_),
                   next_access(), static_cast<uint32_t>(&ins - ctx.fn.instrs.data())};
  (kind == IndexedKind::Read ? ix.reads : ix.updates).emplace(off, IndexedEntry{cur, kind, size, a, candidate, stored});
}

}  // namespace racer::exec
