#include "decide/z3_prover.hpp"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "decide/ball_eval.hpp"
#include "decide/grid.hpp"
#include "expr/eval.hpp"
#include "expr/walk.hpp"
#include "support/isolated_call.hpp"

namespace racer::decide {

using expr::CmpOp;
using expr::ExprId;
using expr::FuncKind;
using expr::Kind;

namespace {

constexpr long kMaxPower = 64;

// A node's value and the condition under which it is defined.
struct Enc {
  z3::expr val, def;
};

// Thrown inside the encoder for what it does not encode exactly.
struct NotEncodable {
  std::string why;
};

class Encoder {
 public:
  Encoder(z3::context& ctx, const expr::Store& s, PointSource& src, const Z3Options& o)
      : ctx_(ctx), s_(s), src_(src), opt_(o), axioms_(ctx) {
    for (size_t k = 0; k < src.size(); ++k) {
      ExprId y = src.symbols()[k];
      bool integer = src.domain(k).grid == Grid::Integer;
      std::string name = "s" + std::to_string(y.index);
      z3::expr c = integer ? ctx.int_const(name.c_str()) : ctx.real_const(name.c_str());
      consts_.push_back(c);
      sym_index_.emplace(y.index, k);
      z3::expr v = integer ? z3::to_real(c) : c;
      auto [lo, hi] = range_of(k);
      if (lo) axioms_.push_back(v >= rat(*lo));
      if (hi) axioms_.push_back(v <= rat(*hi));
      enc_.emplace(y.index, Enc{v, ctx.bool_val(true)});
    }
  }

  const Enc& encode(ExprId root) {
    auto no_leaf = [](ExprId) -> std::optional<Enc> { return std::nullopt; };
    auto defined = [&](ExprId x, auto push) {
      for (uint32_t i = 0; i < s_.arity(x); ++i) {
        if (!s_.is_undefined(s_.operand(x, i))) push(s_.operand(x, i));
      }
    };
    expr::fold_post_order(root, enc_, no_leaf, defined, [&](ExprId x) {
      if (enc_.size() > opt_.max_nodes) throw NotEncodable{"more than " + std::to_string(opt_.max_nodes) + " nodes"};
      return node(x);
    });
    return enc_.at(root.index);
  }

  // Monotonicity facts between applications of one increasing function.
  void finish() {
    for (auto& [kind, apps] : monotone_) {
      size_t n = std::min(apps.size(), opt_.max_monotone);
      for (size_t i = 0; i < n; ++i) {
        for (size_t j = i + 1; j < n; ++j) {
          const auto& [ui, fi] = apps[i];
          const auto& [uj, fj] = apps[j];
          axioms_.push_back(z3::implies(ui < uj, fi < fj));
          axioms_.push_back(z3::implies(uj < ui, fj < fi));
        }
      }
    }
  }

  z3::expr_vector& axioms() { return axioms_; }
  const std::vector<z3::expr>& consts() const { return consts_; }
  bool uninterpreted() const { return uninterpreted_; }

  std::pair<std::optional<mpq_class>, std::optional<mpq_class>> range_of(size_t k) const {
    std::optional<mpq_class> lo = src_.domain(k).lo, hi = src_.domain(k).hi;
    if (const auto& r = s_.symbol_info(src_.symbols()[k]).range) {
      if (!lo || r->lo > *lo) lo = r->lo;
      if (!hi || r->hi < *hi) hi = r->hi;
    }
    return {lo, hi};
  }

  z3::expr rat(const mpq_class& q) { return ctx_.real_val(q.get_str().c_str()); }

 private:
  size_t functions_ = 0;  // transcendental applications encoded so far
  const Enc& get(ExprId x) const {
    auto it = enc_.find(x.index);
    if (it == enc_.end()) throw NotEncodable{"an undefined operand"};
    return it->second;
  }

  z3::expr all_defined(ExprId x) {
    z3::expr_vector v(ctx_);
    for (uint32_t i = 0; i < s_.arity(x); ++i) v.push_back(get(s_.operand(x, i)).def);
    return v.empty() ? ctx_.bool_val(true) : z3::mk_and(v);
  }

  Enc node(ExprId x) {
    switch (s_.kind(x)) {
      case Kind::Const:
        if (!s_.is_rational(x)) throw NotEncodable{"an infinite constant"};
        return {rat(s_.rational(x)), ctx_.bool_val(true)};
      case Kind::Bool: return {ctx_.bool_val(s_.bool_value(x)), ctx_.bool_val(true)};
      case Kind::Symbol: throw NotEncodable{"a symbol outside the cell's symbols"};
      case Kind::Add: {
        z3::expr sum = rat(s_.coef(x));
        for (uint32_t i = 0; i < s_.arity(x); ++i) sum = sum + rat(s_.weight(x, i)) * get(s_.operand(x, i)).val;
        return {sum, all_defined(x)};
      }
      case Kind::Mul: {
        z3::expr num = rat(s_.coef(x)), den = ctx_.real_val(1);
        z3::expr_vector def(ctx_);
        bool divides = false;
        for (uint32_t i = 0; i < s_.arity(x); ++i) {
          const Enc& b = get(s_.operand(x, i));
          def.push_back(b.def);
          mpz_class e = s_.weight(x, i).get_num();
          if (abs(e) > kMaxPower) throw NotEncodable{"a power beyond " + std::to_string(kMaxPower)};
          long k = e.get_si();
          for (long j = 0; j < std::abs(k); ++j) (k > 0 ? num : den) = (k > 0 ? num : den) * b.val;
          if (k < 0) {
            def.push_back(b.val != 0);
            divides = true;
          }
        }
        return {divides ? num / den : num, z3::mk_and(def)};
      }
      case Kind::Func: return func(x);
      case Kind::Min:
      case Kind::Max: {
        bool is_max = s_.kind(x) == Kind::Max;
        z3::expr m = get(s_.operand(x, 0)).val;
        for (uint32_t i = 1; i < s_.arity(x); ++i) {
          z3::expr v = get(s_.operand(x, i)).val;
          m = z3::ite(is_max ? v <= m : m <= v, m, v);
        }
        return {m, all_defined(x)};
      }
      case Kind::Cmp: {
        z3::expr l = get(s_.operand(x, 0)).val, r = get(s_.operand(x, 1)).val;
        z3::expr v = ctx_.bool_val(false);
        switch (s_.cmp_op(x)) {
          case CmpOp::Lt: v = l < r; break;
          case CmpOp::Le: v = l <= r; break;
          case CmpOp::Eq: v = l == r; break;
          case CmpOp::Ne: v = l != r; break;
          case CmpOp::Gt: v = l > r; break;
          case CmpOp::Ge: v = l >= r; break;
        }
        return {v, all_defined(x)};
      }
      case Kind::Select: {
        const Enc& c = get(s_.operand(x, 0));
        ExprId t = s_.operand(x, 1), e = s_.operand(x, 2);
        bool tu = s_.is_undefined(t), eu = s_.is_undefined(e);
        if (tu && eu) throw NotEncodable{"a select of two undefined branches"};
        // An Undefined branch takes the other branch's value (of the right sort) and is
        // defined nowhere.
        z3::expr tv = tu ? get(e).val : get(t).val, td = tu ? ctx_.bool_val(false) : get(t).def;
        z3::expr ev = eu ? get(t).val : get(e).val, ed = eu ? ctx_.bool_val(false) : get(e).def;
        return {z3::ite(c.val, tv, ev), c.def && z3::ite(c.val, td, ed)};
      }
    }
    throw NotEncodable{"an unknown node"};
  }

  Enc func(ExprId x) {
    const Enc& u = get(s_.operand(x, 0));
    FuncKind f = s_.func_kind(x);
    if (expr::is_wrap(f)) {
      // Exact: u - 2^w k for the one integer k that puts it in [lo, lo + 2^w).
      const unsigned bits = expr::wrap_bits(f);
      const mpz_class period = mpz_class(1) << bits;
      const mpz_class lo = expr::wrap_signed(f) ? mpz_class(-(mpz_class(1) << (bits - 1))) : mpz_class(0);
      std::string name = "wrap" + std::to_string(x.index);
      z3::expr k = ctx_.int_const(name.c_str());
      z3::expr r = u.val - rat(mpq_class(period)) * z3::to_real(k);
      axioms_.push_back(r >= rat(mpq_class(lo)) && r < rat(mpq_class(lo + period)));
      return {r, u.def};
    }
    if (f == FuncKind::Abs) return {z3::ite(u.val >= 0, u.val, -u.val), u.def};
    if (f == FuncKind::Log) throw NotEncodable{"log (it reaches -inf at 0)"};
    if (++functions_ > opt_.max_functions)
      throw NotEncodable{"more than " + std::to_string(opt_.max_functions) + " applications of transcendental functions"};
    z3::sort R = ctx_.real_sort();
    std::string name(expr::func_name(f));
    z3::func_decl decl = ctx_.function(name.c_str(), R, R);
    z3::expr app = decl(u.val);
    switch (f) {
      case FuncKind::Sqrt:
        axioms_.push_back(z3::implies(u.val >= 0, app >= 0 && app * app == u.val));
        return {app, u.def && u.val >= 0};
      case FuncKind::Exp:
        axioms_.push_back(app > 0);
        monotone_[uint8_t(f)].emplace_back(u.val, app);
        break;
      case FuncKind::Tanh:
      case FuncKind::Erf:
        axioms_.push_back(app > -1 && app < 1);
        monotone_[uint8_t(f)].emplace_back(u.val, app);
        break;
      case FuncKind::Sin:
      case FuncKind::Cos: axioms_.push_back(app >= -1 && app <= 1); break;
      default: break;
    }
    uninterpreted_ = true;
    return {app, u.def};
  }

  z3::context& ctx_;
  const expr::Store& s_;
  PointSource& src_;
  const Z3Options& opt_;
  z3::expr_vector axioms_;
  std::vector<z3::expr> consts_;
  std::unordered_map<uint32_t, size_t> sym_index_;
  std::unordered_map<uint32_t, Enc> enc_;
  std::map<uint8_t, std::vector<std::pair<z3::expr, z3::expr>>> monotone_;
  bool uninterpreted_ = false;
};

mpq_class to_mpq(z3::context& ctx, const z3::expr& v) {
  z3::expr e = v;
  if (e.is_algebraic()) e = z3::expr(ctx, Z3_get_algebraic_number_lower(ctx, e, 40));
  if (!e.is_numeral()) return mpq_class(0);
  mpq_class q(Z3_get_numeral_string(ctx, e));
  q.canonicalize();
  return q;
}

// Significand bits of a float grid (0 for Integer and Real).
long precision_of(Grid g) {
  switch (g) {
    case Grid::F64: return 53;
    case Grid::F32: return 24;
    case Grid::TF32:
    case Grid::F16: return 11;
    case Grid::BF16: return 8;
    case Grid::E4M3: return 4;
    case Grid::E5M2: return 3;
    case Grid::Integer:
    case Grid::Real: return 0;
  }
  return 0;
}

}  // namespace

struct Z3Prover::Impl {
  Z3Options opt;
  z3::context ctx;
  size_t no_answer_run = 0;  // cells in a row on which Z3 said unknown
  double spent_ms = 0;

  explicit Impl(Z3Options o) : opt(o) {}

  z3::solver solver() {
    z3::solver sv(ctx);
    z3::params p(ctx);
    p.set("timeout", opt.timeout_ms);
    if (opt.rlimit > 0) p.set("rlimit", opt.rlimit);
    sv.set(p);
    return sv;
  }

  // Z3 4.8 does not honour its timeout inside every tactic (nlsat can run on for minutes
  // past it), so each query also has a watchdog that interrupts the context when its time
  // is up; the query then answers unknown.
  class Watchdog {
   public:
    Watchdog(z3::context& ctx, unsigned ms)
        : thread_([this, &ctx, ms] {
            std::unique_lock<std::mutex> lock(m_);
            if (!cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return done_; })) ctx.interrupt();
          }) {}
    ~Watchdog() {
      {
        std::lock_guard<std::mutex> lock(m_);
        done_ = true;
      }
      cv_.notify_all();
      thread_.join();
    }

   private:
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;
  };

  z3::check_result timed_check(z3::solver& sv) {
    Watchdog w(ctx, opt.timeout_ms + opt.timeout_ms / 2 + 50);
    return sv.check();
  }

  static std::string unknown_reason(z3::solver& sv) {
    std::string r = sv.reason_unknown();
    return r.empty() ? "unknown" : r;
  }

  // The model's symbol values, and their grid roundings, checked on the original sides.
  std::optional<Refutation> from_model(const expr::Store& s, ExprId a, ExprId b, PointSource& src, Encoder& enc,
                                       const z3::model& m, Point& raw) {
    raw.assign(src.size(), mpq_class(0));
    for (size_t k = 0; k < src.size(); ++k) raw[k] = to_mpq(ctx, m.eval(enc.consts()[k], true));
    for (int mode = 0; mode < 3; ++mode) {
      Point p = raw;
      bool ok = true;
      for (size_t k = 0; k < p.size() && ok; ++k) {
        const SymbolDomain& d = src.domain(k);
        std::optional<mpq_class> v;
        if (mode > 0) v = round_to_grid(raw[k], d.grid, mode == 1 ? Rounding::Down : Rounding::Up);
        if (!v || !admissible(*v, d)) v = snap(raw[k], d);
        ok = v.has_value();
        if (ok) p[k] = *v;
      }
      if (!ok) continue;
      if (std::optional<Refutation> r = refutation_at(s, a, b, src, p, opt.balls)) return r;
    }
    return std::nullopt;
  }

  Z3Outcome check(const expr::Store& s, ExprId a, ExprId b, PointSource& src) {
    Z3Outcome out;
    if (s.is_undefined(a) || s.is_undefined(b)) {
      out.status = Z3Status::NotEncodable;
      out.why = "Z3 skipped: a side is undefined everywhere";
      return out;
    }
    try {
      Encoder enc(ctx, s, src, opt);
      Enc ea = enc.encode(a), eb = enc.encode(b);
      enc.finish();
      z3::solver sv = solver();
      for (const z3::expr& ax : enc.axioms()) sv.add(ax);
      sv.add(ea.def && eb.def && ea.val != eb.val);
      switch (timed_check(sv)) {
        case z3::unsat: {
          z3::solver dv = solver();
          for (const z3::expr& ax : enc.axioms()) dv.add(ax);
          dv.add(ea.def != eb.def);
          z3::check_result r = timed_check(dv);
          if (r == z3::unsat) {
            out.status = Z3Status::Proved;
          } else {
            out.status = Z3Status::Unknown;
            out.why = r == z3::sat ? "Z3: the sides agree where both are defined, but one can be defined where the "
                                     "other is not"
                                   : "Z3 proved the sides equal where both are defined but not that they are "
                                     "defined alike (" + unknown_reason(dv) + ")";
          }
          return out;
        }
        case z3::unknown:
          out.status = Z3Status::Unknown;
          out.why = "Z3: " + unknown_reason(sv);
          return out;
        case z3::sat: break;
      }
      Point raw;
      if (std::optional<Refutation> r = from_model(s, a, b, src, enc, sv.get_model(), raw)) {
        out.status = Z3Status::Refuted;
        out.refutation = std::move(r);
        return out;
      }
      // Again, with every float symbol a value k / 2^j that its format holds exactly.
      for (size_t k = 0; k < src.size(); ++k) {
        const SymbolDomain& d = src.domain(k);
        if (d.grid == Grid::Integer || admissible(raw[k], d)) continue;
        long p = precision_of(d.grid);
        long j = p > 0 ? std::min(p - 1, 10L) : 10;
        std::string name = "k" + std::to_string(k);
        z3::expr kk = ctx.int_const(name.c_str());
        mpz_class scale = mpz_class(1) << j;
        sv.add(enc.consts()[k] == z3::to_real(kk) / ctx.real_val(scale.get_str().c_str()));
        if (p > 0) {
          mpz_class top = (mpz_class(1) << p) - 1;
          sv.add(kk <= ctx.int_val(top.get_str().c_str()) && kk >= ctx.int_val(mpz_class(-top).get_str().c_str()));
        }
      }
      z3::check_result r2 = timed_check(sv);
      if (r2 == z3::sat) {
        Point raw2;
        if (std::optional<Refutation> r = from_model(s, a, b, src, enc, sv.get_model(), raw2)) {
          out.status = Z3Status::Refuted;
          out.refutation = std::move(r);
          return out;
        }
      }
      out.status = Z3Status::Unknown;
      out.why = std::string("Z3 found a point where the sides may differ, but exact evaluation at it and at grid "
                            "points near it did not confirm a difference") +
                (enc.uninterpreted() ? " (its functions are uninterpreted, so its model is only a hint)" : "") +
                (r2 == z3::unknown ? "; on the grid: " + unknown_reason(sv)
                                   : r2 == z3::unsat ? "; no point on the grids" : "");
      return out;
    } catch (const NotEncodable& e) {
      out.status = Z3Status::NotEncodable;
      out.why = "Z3 skipped: " + e.why + " is not encoded";
    } catch (const z3::exception& e) {
      out.status = Z3Status::Unknown;
      out.why = std::string("Z3: ") + e.msg();
    }
    return out;
  }
};

namespace {

// A Z3Outcome through the pipe of an isolated call: lines of status, reason (length first),
// and for a refutation its flags and numbers.
std::string serialized(const Z3Outcome& o) {
  std::ostringstream out;
  out << static_cast<int>(o.status) << '\n' << o.why.size() << '\n' << o.why << '\n' << (o.refutation ? 1 : 0) << '\n';
  if (const auto& r = o.refutation) {
    out << r->by_balls << ' ' << r->precision << ' ' << r->point.size() << '\n';
    for (const mpq_class& v : r->point) out << v.get_str() << '\n';
    out << r->value_a.get_str() << '\n' << r->value_b.get_str() << '\n';
  }
  return out.str();
}

std::optional<Z3Outcome> deserialized(const std::string& text) {
  std::istringstream in(text);
  Z3Outcome o;
  int status = 0, has_refutation = 0;
  size_t why_size = 0;
  if (!(in >> status >> why_size) || status < 0 || status > static_cast<int>(Z3Status::NotEncodable)) return std::nullopt;
  in.get();
  o.status = static_cast<Z3Status>(status);
  o.why.resize(why_size);
  if (!in.read(o.why.data(), static_cast<std::streamsize>(why_size)) || !(in >> has_refutation)) return std::nullopt;
  if (has_refutation) {
    Refutation r;
    size_t n = 0;
    std::string word;
    if (!(in >> r.by_balls >> r.precision >> n)) return std::nullopt;
    for (size_t k = 0; k <= n + 1; ++k) {
      if (!(in >> word)) return std::nullopt;
      mpq_class v(word);
      if (k < n) r.point.push_back(v);
      else (k == n ? r.value_a : r.value_b) = v;
    }
    o.refutation = std::move(r);
  }
  return o;
}

}  // namespace

Z3Prover::Z3Prover(Z3Options options) : impl_(std::make_unique<Impl>(options)) {}
Z3Prover::~Z3Prover() = default;

Z3Outcome Z3Prover::check(const expr::Store& s, ExprId a, ExprId b, PointSource& src) {
  Impl& m = *impl_;
  if (m.opt.give_up_after > 0 && m.no_answer_run >= m.opt.give_up_after) {
    return Z3Outcome{Z3Status::NotEncodable,
                     "Z3 skipped: it gave no answer on the " + std::to_string(m.no_answer_run) + " cells before", {}};
  }
  if (m.opt.total_ms > 0 && m.spent_ms >= m.opt.total_ms) {
    return Z3Outcome{Z3Status::NotEncodable,
                     "Z3 skipped: its time budget of " + std::to_string(m.opt.total_ms) + " ms is spent", {}};
  }
  auto t0 = std::chrono::steady_clock::now();
  // In a child process killed at the queries' time: Z3 4.8 honours neither its timeout nor an
  // interrupt inside some tactics (nlsat on a product of 13 logistic functions ran for
  // minutes past both), and the check's own time limit must hold.
  auto limit = std::chrono::milliseconds(3 * (m.opt.timeout_ms + m.opt.timeout_ms / 2 + 50) + 1000);
  if (m.opt.deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*m.opt.deadline - t0);
    if (left.count() <= 0) return Z3Outcome{Z3Status::NotEncodable, "Z3 skipped: the time limit is reached", {}};
    limit = std::min(limit, left);
  }
  support::IsolatedResult run = support::call_isolated([&] { return serialized(m.check(s, a, b, src)); }, limit, m.opt.memory_mb);
  std::optional<Z3Outcome> answer = run.answer ? deserialized(*run.answer) : std::nullopt;
  Z3Outcome out = answer ? *answer : Z3Outcome{Z3Status::Unknown, "Z3: no answer (" + (run.answer ? std::string("unreadable") : run.why) + ")", {}};
  m.spent_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (out.status == Z3Status::Proved || out.status == Z3Status::Refuted) {
    m.no_answer_run = 0;
  } else if (out.status == Z3Status::Unknown && out.why.rfind("Z3: ", 0) == 0) {
    ++m.no_answer_run;  // unknown, a timeout or a resource limit
  }
  return out;
}

}  // namespace racer::decide
