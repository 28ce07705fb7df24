#include "decide/boundary.hpp"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "decide/grid.hpp"
#include "expr/eval.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

namespace {

constexpr size_t kMaxMinMaxPairs = 4;
constexpr int kSecantSteps = 8;

// Keeps secant iterates short: far below any grid's spacing near the root, yet never the
// thousand-digit rationals an exact secant on a nonlinear function produces.
mpq_class shorten(const mpq_class& q) { return *round_to_grid(q, Grid::F64, Rounding::Nearest); }

void push_candidate(std::vector<mpq_class>& out, const std::optional<mpq_class>& v, const SymbolDomain& d) {
  if (v && admissible(*v, d) && std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
}

}  // namespace

std::vector<Boundary> find_boundaries(const expr::Store& s, std::span<const ExprId> roots, size_t limit) {
  std::vector<Boundary> out;
  std::unordered_set<uint32_t> seen;
  for (ExprId root : roots) {
    if (!seen.insert(root.index).second) continue;
    std::vector<ExprId> queue{root};
    // Breadth first: the outermost conditions are the ones most likely to decide the cell.
    for (size_t head = 0; head < queue.size() && out.size() < limit; ++head) {
      ExprId x = queue[head];
      switch (s.kind(x)) {
        case Kind::Cmp: out.push_back({s.operand(x, 0), s.operand(x, 1)}); break;
        case Kind::Min:
        case Kind::Max:
          for (uint32_t i = 0; i + 1 < s.arity(x) && i < kMaxMinMaxPairs && out.size() < limit; ++i) {
            out.push_back({s.operand(x, i), s.operand(x, i + 1)});
          }
          break;
        case Kind::Func:
          if (s.func_kind(x) == expr::FuncKind::Abs) out.push_back({s.operand(x, 0), s.zero()});
          if (expr::is_wrap(s.func_kind(x))) {
            // Where the operand leaves the type's range upwards and downwards (an overflow).
            const unsigned bits = expr::wrap_bits(s.func_kind(x));
            const mpz_class lo = expr::wrap_signed(s.func_kind(x)) ? mpz_class(-(mpz_class(1) << (bits - 1))) : mpz_class(0);
            out.push_back({s.operand(x, 0), s.zero(), mpq_class(lo + (mpz_class(1) << bits))});
            out.push_back({s.operand(x, 0), s.zero(), mpq_class(lo - 1)});
          }
          break;
        default: break;
      }
      for (uint32_t i = 0; i < s.arity(x); ++i) {
        ExprId c = s.operand(x, i);
        if (seen.insert(c.index).second) queue.push_back(c);
      }
    }
  }
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::vector<mpq_class> boundary_values(const expr::Store& s, const Boundary& bd, const PointSource& src,
                                       const Point& base, size_t k) {
  expr::Assignment at = src.assignment(base);
  ExprId sym = src.symbols()[k];
  auto gap = [&](const mpq_class& v) -> std::optional<mpq_class> {
    at.set(sym, v);
    std::optional<mpq_class> l = expr::eval_exact(s, bd.lhs, at);
    if (!l) return std::nullopt;
    std::optional<mpq_class> r = expr::eval_exact(s, bd.rhs, at);
    if (!r) return std::nullopt;
    return mpq_class(*l - *r - bd.shift);
  };

  // Two probes where the gap is defined and differs (else l - r does not depend on sym).
  std::optional<std::pair<mpq_class, mpq_class>> p0, p1;
  for (auto [u, v] : std::initializer_list<std::pair<long, long>>{{0, 1}, {1, 2}, {-1, 3}, {2, 5}}) {
    std::optional<mpq_class> gu = gap(mpq_class(u)), gv = gap(mpq_class(v));
    if (gu && gv && *gu != *gv) {
      p0.emplace(mpq_class(u), *gu);
      p1.emplace(mpq_class(v), *gv);
      break;
    }
  }
  if (!p0) return {};

  std::optional<mpq_class> root;
  for (int step = 0; step < kSecantSteps; ++step) {
    mpq_class slope = (p1->second - p0->second) / (p1->first - p0->first);
    if (slope == 0) break;
    mpq_class next = p1->first - p1->second / slope;
    if (step > 0) next = shorten(next);
    std::optional<mpq_class> g = gap(next);
    if (!g) break;
    root = next;
    if (*g == 0 || next == p1->first) break;
    p0 = p1;
    p1.emplace(next, *g);
  }
  if (!root) return {};

  const SymbolDomain& d = src.domain(k);
  std::vector<mpq_class> out;
  if (admissible(*root, d)) {
    push_candidate(out, *root, d);
    push_candidate(out, next_down(*root, d.grid), d);
    push_candidate(out, next_up(*root, d.grid), d);
  } else {
    // The root is off the grid: the grid values around it are on either side.
    push_candidate(out, round_to_grid(*root, d.grid, Rounding::Down), d);
    push_candidate(out, round_to_grid(*root, d.grid, Rounding::Up), d);
  }
  return out;
}

}  // namespace racer::decide
