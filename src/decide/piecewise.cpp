#include "decide/piecewise.hpp"

#include <unordered_set>

#include "expr/walk.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

bool is_branch_point(const expr::Store& s, ExprId x) {
  switch (s.kind(x)) {
    case Kind::Cmp:
    case Kind::Min:
    case Kind::Max: return true;
    case Kind::Func: return s.func_kind(x) == expr::FuncKind::Abs;
    default: return false;
  }
}

ExprId Piecewise::rewrite(ExprId root, const expr::Substitution& map, bool branch_keys_only) {
  if (map.empty()) return root;
  std::unordered_map<uint32_t, ExprId> done;
  auto lookup = [&](ExprId x) {
    auto it = map.find(x);
    return it == map.end() ? x : it->second;
  };
  auto leaf = [&](ExprId x) -> std::optional<ExprId> {
    if (auto it = map.find(x); it != map.end()) return it->second;
    if (s_.arity(x) == 0 || (branch_keys_only && !has_branch(x))) return x;
    return std::nullopt;
  };
  expr::fold_post_order(root, done, leaf, expr::AllOperands{s_},
                        [&](ExprId x) { return lookup(expr::rebuild_over(s_, x, done)); });
  work_ += done.size();
  return done.at(root.index);
}

bool Piecewise::has_branch(ExprId root) {
  auto no_leaf = [](ExprId) -> std::optional<bool> { return std::nullopt; };
  expr::fold_post_order(root, has_branch_, no_leaf, expr::AllOperands{s_}, [&](ExprId x) {
    bool h = is_branch_point(s_, x);
    for (uint32_t i = 0; i < s_.arity(x) && !h; ++i) h = has_branch_.at(s_.operand(x, i).index);
    return h;
  });
  return has_branch_.at(root.index);
}

ExprId Piecewise::pick(std::span<const ExprId> roots) {
  std::unordered_set<uint32_t> seen;
  std::vector<ExprId> queue;
  for (ExprId r : roots) {
    if (seen.insert(r.index).second && has_branch(r)) queue.push_back(r);
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    ExprId x = queue[head];
    if (is_branch_point(s_, x)) {
      bool innermost = true;
      for (uint32_t i = 0; i < s_.arity(x) && innermost; ++i) innermost = !has_branch(s_.operand(x, i));
      if (innermost) return x;
    }
    for (uint32_t i = 0; i < s_.arity(x); ++i) {
      ExprId c = s_.operand(x, i);
      if (seen.insert(c.index).second && has_branch(c)) queue.push_back(c);
    }
  }
  return ExprId{};
}

std::vector<ExprId> Piecewise::branch_points(ExprId root) {
  std::vector<ExprId> out;
  if (!has_branch(root)) return out;
  std::unordered_set<uint32_t> seen{root.index};
  std::vector<ExprId> stack{root};
  while (!stack.empty()) {
    ExprId x = stack.back();
    stack.pop_back();
    if (is_branch_point(s_, x)) out.push_back(x);
    for (uint32_t i = 0; i < s_.arity(x); ++i) {
      ExprId c = s_.operand(x, i);
      if (has_branch(c) && seen.insert(c.index).second) stack.push_back(c);
    }
  }
  return out;
}

}  // namespace racer::decide
