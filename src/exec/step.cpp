// Stepping threads: each ready thread runs alone, instruction by instruction, until it exits
// or reaches a synchronization point (the scheduler, exec/scheduler.hpp, lets it go on from
// there); a refusal may be a compiled math routine to step over, or a branch on symbolic data.
#include <algorithm>

#include "exec/choice_paths.hpp"
#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "ptx/liveness.hpp"
#include "ptx/printer.hpp"

namespace racer::exec {
namespace {

constexpr const char* kRoutineLeftOpen =
    "the thread ended inside a recognized math routine, before the routine's result was in place (stepping over it "
    "would have left the routine by a path that skips its merge point)";

// Whether the skipped instruction `instr` reads a register another instruction the plan skips
// writes: the thread never wrote it, so running `instr` again (a later routine's probe re-running
// what computed its input) would read a stale value.
bool reads_skipped_writes(const ptx::Function& fn, const AbsorbPlan& p, uint32_t instr) {
  std::vector<uint32_t> reads, writes;
  ptx::reads_of(fn.instrs[instr], reads);
  for (uint32_t s : p.skip) {
    if (s == instr) continue;
    writes.clear();
    ptx::writes_of(fn.instrs[s], writes);
    for (uint32_t w : writes)
      if (std::find(reads.begin(), reads.end(), w) != reads.end()) return true;
  }
  return false;
}

// The register's value was placed at `instr` by a plan (Thread::plan_placed, where that matters).
void place(const ptx::Function& fn, Thread& th, const AbsorbPlan& p, uint32_t reg, const Value& v, uint32_t instr) {
  th.regs[reg] = v;
  th.def_pc[reg] = instr;
  if (reads_skipped_writes(fn, p, instr)) th.plan_placed.emplace_back(reg, instr);
}

// The registers a split routine's plan places at this instruction get their values.
void place_results(const ptx::Function& fn, Thread& th, const AbsorbPlan& p, uint32_t instr) {
  for (const AbsorbPlan::Placed& r : p.placed)
    if (r.instr == instr) place(fn, th, p, r.reg, r.value, instr);
}

}  // namespace

Site instruction_site(const LaunchSpec& l, uint32_t instr) {
  const ptx::Function& fn = l.module->functions[l.function];
  const ptx::Instr& ins = fn.instrs[instr];
  Site s;
  s.instr = instr;
  if (l.source_map && l.function < l.source_map->instr_pos.size() && instr < l.source_map->instr_pos[l.function].size())
    s.ptx_line = l.source_map->instr_pos[l.function][instr].first;
  if (ins.debug_loc >= 0) {
    const ptx::DebugLoc& d = fn.debug_locs[static_cast<size_t>(ins.debug_loc)];
    const ptx::DebugFile* f = l.module->find_file(d.file);
    s.source = (f ? f->name : "file " + std::to_string(d.file)) + ":" + std::to_string(d.line) + ":" + std::to_string(d.col);
  }
  s.text = ptx::print_instruction(*l.module, fn, ins);
  return s;
}

Site ExecContext::site(const ptx::Instr& ins) const {
  Site s = instruction_site(m.current_launch(), static_cast<uint32_t>(&ins - fn.instrs.data()));
  s.launch = m.launch_index();
  s.ctaid = cta.ctaid;
  s.tid = th.tid;
  return s;
}

std::optional<Site> Machine::site_now() const {
  if (!running_ctx_ || !running_ins_) return std::nullopt;
  return running_ctx_->site(*running_ins_);
}

void Machine::refuse(ExecContext& ctx, const ptx::Instr& ins, const std::string& reason) { refuse_at(ctx.site(ins), reason); }

void Machine::refuse_at(const Site& s, const std::string& reason) {
  std::string where = launch_->label + ", CTA " + dims_text(s.ctaid) + ", thread " + dims_text(s.tid);
  if (s.ptx_line) where += ", PTX line " + std::to_string(s.ptx_line);
  if (!s.source.empty()) where += " (" + s.source + ")";
  throw LocatedRefusal(std::string("program ") + program_ + ", " + where + ": " + s.text + "\n  refused: " + reason);
}

// A recognized routine's result is in place: its register gets the function, and the
// scratch memory the skipped stores would have left holds nothing a later read may use.
void Machine::commit_plan(Thread& th, size_t plan, uint32_t instr) {
  AbsorbPlan& p = th.plans[plan];
  Value v = p.value;
  if (!p.before && p.addend_reg != UINT32_MAX) {
    Value addend = th.regs[p.addend_reg];
    v = dom_.fbin(p.addend_negated ? FBin::Sub : FBin::Add, p.addend_type, v, addend, {});
  }
  const ptx::Function& fn = launch_->module->functions[launch_->function];
  place(fn, th, p, p.reg, v, instr);
  for (const auto& [reg, value] : p.extra) place(fn, th, p, reg, value, instr);
  for (auto [addr, size] : p.clobber_local)
    if (th.local && th.local->contains(addr, size)) write_bytes(*th.local, addr - th.local->base, size, Value::poison());
  th.plans.erase(th.plans.begin() + static_cast<long>(plan));
}

// Where control goes after a skipped instruction: on, unless it is a branch of the routine.
void Machine::follow_skipped(ExecContext& ctx, const AbsorbPlan& p, uint32_t instr) {
  auto it = std::lower_bound(p.jumps.begin(), p.jumps.end(), std::pair{instr, uint32_t{0}});
  if (it == p.jumps.end() || it->first != instr) return;
  if (it->second == AbsorbPlan::kLeaves)
    refuse(ctx, ctx.fn.instrs[instr], "a branch inside a recognized math routine depends on data the routine does not own; "
                                      "stepping over the routine cannot follow it");
  ctx.th.pc = it->second;
}

// Just after a recognition at `instr`: the plan's first step, which may also be its last
// (a selection whose value is the routine's result).
void Machine::enter_plan(ExecContext& ctx, uint32_t instr) {
  Thread& th = ctx.th;
  if (!th.plans.back().jumps.empty()) th.data_branched = true;  // the routine's branches may part lanes
  follow_skipped(ctx, th.plans.back(), instr);
  place_results(ctx.fn, th, th.plans.back(), instr);
  if (!th.plans.back().before && th.plans.back().commit == instr) commit_plan(th, th.plans.size() - 1, instr);
}

// Steps over an instruction of a recognized routine; at the plan's commit point the
// routine's result register gets the function it computes.
bool Machine::absorbed(ExecContext& ctx, uint32_t instr) {
  Thread& th = ctx.th;
  // Results set just before this instruction first: another routine open beside them (logf's
  // x == 0 test after erff's merge point) may step over the instruction itself.
  for (size_t i = 0; i < th.plans.size();) {
    if (th.plans[i].before && th.plans[i].commit == instr) commit_plan(th, i, instr);
    else ++i;
  }
  for (size_t i = 0; i < th.plans.size(); ++i) {
    AbsorbPlan& p = th.plans[i];
    if (!p.placed.empty() && instr == p.end) {
      th.plans.erase(th.plans.begin() + static_cast<long>(i--));
      continue;
    }
    if (instr == p.entry)
      refuse(ctx, ctx.fn.instrs[instr], "control came back to the start of a recognized math routine before the routine's "
                                        "result was in place (it left the routine by a path that skips its merge point)");
    if (!std::binary_search(p.skip.begin(), p.skip.end(), instr)) continue;
    follow_skipped(ctx, p, instr);
    place_results(ctx.fn, th, p, instr);
    if (instr == p.commit) commit_plan(th, i, instr);
    return true;
  }
  return false;
}

// A recognizer that cannot read the values around the refusal (a packed register, say)
// leaves the original refusal standing, located at the instruction.
bool Machine::try_recognize(ExecContext& ctx, const ptx::Instr& ins, const std::string& why,
                            RoutineRecognizer::Trigger trigger) {
  if (!recognizer_) return false;
  settle_deferred(ctx.th, dom_);  // the recognizer reads the registers themselves
  try {
    return recognizer_->recognize(ctx, ins, why, trigger);
  } catch (const LocatedRefusal&) {
    throw;
  } catch (const Refusal&) {
    return false;
  }
}

// A float selp whose predicate is symbolic: where a branchless routine (nvcc's tanhf) joins
// the approximations of its range.
static bool selects_on_symbolic(const Thread& th, const ptx::Instr& ins) {
  if (ins.op != ptx::Op::Selp || !ptx::is_float(ins.type()) || ins.operands.size() != 4) return false;
  const ptx::Operand& p = ins.operands[3];
  return p.kind == ptx::Operand::Kind::Reg && th.regs[p.index].is_symbolic();
}

// A float rounded to an integer (cvt.rni/.rzi/.rmi/.rpi of a symbolic float): modelled exactly,
// but also the first step of a compiled exp or pow's range reduction, whose later steps read
// the integer's bits (2^n built in the exponent field). The recognizer is asked first, as at a
// refusal; only where it finds no routine is the rounding run.
static bool rounds_symbolic_to_integer(const Thread& th, const ptx::Instr& ins) {
  if (ins.op != ptx::Op::Cvt || !ptx::is_float(ins.type(1)) || ins.operands.size() != 2 || !ins.has(ptx::Mod::Rnd) ||
      !ptx::rnd::to_integer(ins.mod(ptx::Mod::Rnd)))
    return false;
  const ptx::Operand& a = ins.operands[1];
  return a.kind == ptx::Operand::Kind::Reg && th.regs[a.index].is_symbolic();
}

bool Machine::run_ready_threads(Cta& cta) {
  const ptx::Module& mod = *launch_->module;
  const ptx::Function& fn = mod.functions[launch_->function];
  const uint64_t step_limit = session_.limits().max_steps;
  {
    for (Thread& th : cta.threads) {
      if (th.exited || th.wait != Wait::None) continue;
      ExecContext ctx{*this, cta, th, mod, fn, dom_, reg_masks_.data()};
      while (!th.exited && th.wait == Wait::None) {
        if (!th.paths.empty() && th.pc == th.paths.back().join) {
          reach_join(ctx);
          continue;
        }
        if (th.pc >= fn.instrs.size()) {
          if (!th.paths.empty())
            refuse(ctx, fn.instrs[th.paths.back().branch], "a path of this data-dependent branch ends the kernel");
          if (!th.plans.empty()) refuse(ctx, fn.instrs[th.plans.back().entry], kRoutineLeftOpen);
          th.exited = true;  // fell off the end: an implicit ret
          break;
        }
        const ptx::Instr& ins = fn.instrs[th.pc++];
        if (!th.plans.empty() && absorbed(ctx, th.pc - 1)) continue;
        if (before_grid_wait(th)) step_before_grid_wait(ctx, ins);
        if (!th.paths.empty()) {
          if (leave_on_path(ctx, ins)) continue;
          check_on_path(ctx, ins);
        }
        if ((++steps_ & 0xFFFF) == 0) {
          session_.check_limits();
          if (steps_ > step_limit) throw LimitReached("step limit of " + std::to_string(step_limit) + " thread-instructions reached");
        }
        try {
          if (ins.has_guard) {
            Value g = th.regs[ins.guard];
            bool on;
            try {
              on = dom_.truth(g);
            } catch (const Refusal& r) {
              if (ins.op == ptx::Op::Bra) th.data_branched = true;  // lanes may part on their data here
              std::string why = std::string("guard ") + fn.regs[ins.guard].name + ": " + r.what();
              if (try_recognize(ctx, ins, why)) {
                enter_plan(ctx, th.pc - 1);
                continue;
              }
              std::string cannot = ins.op == ptx::Op::Bra ? split(ctx, ins, g) : guarded_path(ctx, ins, g);
              if (cannot.empty()) continue;
              why += "; " + cannot;
              refuse(ctx, ins, why);
            }
            if (on == ins.guard_negated) continue;
          }
          if (selects_on_symbolic(th, ins) &&
              try_recognize(ctx, ins, "", RoutineRecognizer::Trigger::Selection)) {
            enter_plan(ctx, th.pc - 1);
            continue;
          }
          if (rounds_symbolic_to_integer(th, ins) && try_recognize(ctx, ins, "rounds symbolic float data to an integer",
                                                                 RoutineRecognizer::Trigger::Rounding)) {
            enter_plan(ctx, th.pc - 1);
            continue;
          }
          Handler h = sem_.step[static_cast<size_t>(ins.op)];
          if (!h) refuse(ctx, ins, std::string("instruction '") + std::string(ptx::op_name(ins.op)) + "' is not modelled");
          running_ctx_ = &ctx, running_ins_ = &ins;
          h(ctx, ins);
          running_ctx_ = nullptr, running_ins_ = nullptr;
          if (th.exited && !th.plans.empty()) refuse(ctx, fn.instrs[th.plans.back().entry], kRoutineLeftOpen);
        } catch (const LocatedRefusal&) {
          throw;
        } catch (const Refusal& r) {
          if (run_per_choice(ctx, ins, sem_.step[static_cast<size_t>(ins.op)], session_.store())) continue;
          if (try_recognize(ctx, ins, r.what())) {
            enter_plan(ctx, th.pc - 1);
            continue;
          }
          refuse(ctx, ins, r.what());
        }
      }
    }
  }
  return std::all_of(cta.threads.begin(), cta.threads.end(), [](const Thread& t) { return t.exited; });
}

}  // namespace racer::exec
