#include "expr/substitute.hpp"

#include <algorithm>
#include <unordered_set>

#include "expr/walk.hpp"

namespace racer::expr {

ExprId substitute(Store& s, ExprId x, const Substitution& map) {
  if (map.empty()) return x;
  std::unordered_map<uint32_t, ExprId> done;
  auto mapped = [&](ExprId y) -> std::optional<ExprId> {
    auto it = map.find(y);
    return it == map.end() ? std::nullopt : std::optional<ExprId>(it->second);
  };
  fold_post_order(x, done, mapped, AllOperands{s}, [&](ExprId y) { return rebuild_over(s, y, done); });
  return done.at(x.index);
}

std::vector<ExprId> free_symbols(const Store& s, ExprId x) {
  std::unordered_set<uint32_t> seen{x.index};
  std::vector<ExprId> stack{x}, out;
  while (!stack.empty()) {
    ExprId y = stack.back();
    stack.pop_back();
    if (s.kind(y) == Kind::Symbol) out.push_back(y);
    for (uint32_t i = 0; i < s.arity(y); ++i) {
      ExprId c = s.operand(y, i);
      if (seen.insert(c.index).second) stack.push_back(c);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace racer::expr
