#include "decide/piecewise.hpp"

#include <unordered_set>

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
  struct Frame {
    ExprId id;
    bool expanded;
  };
  auto lookup = [&](ExprId x) {
    auto it = map.find(x);
    return it == map.end() ? x : it->second;
  };
  std::vector<Frame> stack{{root, false}};
  std::vector<ExprId> ops;
  while (!stack.empty()) {
    Frame f = stack.back();
    if (done.count(f.id.index)) {
      stack.pop_back();
      continue;
    }
    if (auto it = map.find(f.id); it != map.end()) {
      done.emplace(f.id.index, it->second);
      stack.pop_back();
      continue;
    }
    uint32_t n = s_.arity(f.id);
    if (n == 0 || (branch_keys_only && !has_branch(f.id))) {
      done.emplace(f.id.index, f.id);
      stack.pop_back();
      continue;
    }
    if (!f.expanded) {
      stack.back().expanded = true;
      for (uint32_t i = 0; i < n; ++i) {
        ExprId c = s_.operand(f.id, i);
        if (!done.count(c.index)) stack.push_back({c, false});
      }
      continue;
    }
    stack.pop_back();
    ops.clear();
    for (uint32_t i = 0; i < n; ++i) ops.push_back(done.at(s_.operand(f.id, i).index));
    done.emplace(f.id.index, lookup(s_.rebuild(f.id, ops)));
  }
  work_ += done.size();
  return done.at(root.index);
}

bool Piecewise::has_branch(ExprId root) {
  if (auto it = has_branch_.find(root.index); it != has_branch_.end()) return it->second;
  struct Frame {
    ExprId id;
    bool expanded;
  };
  std::vector<Frame> stack{{root, false}};
  while (!stack.empty()) {
    Frame f = stack.back();
    if (has_branch_.count(f.id.index)) {
      stack.pop_back();
      continue;
    }
    uint32_t n = s_.arity(f.id);
    if (!f.expanded) {
      stack.back().expanded = true;
      for (uint32_t i = 0; i < n; ++i) {
        ExprId c = s_.operand(f.id, i);
        if (!has_branch_.count(c.index)) stack.push_back({c, false});
      }
      continue;
    }
    stack.pop_back();
    bool h = is_branch_point(s_, f.id);
    for (uint32_t i = 0; i < n && !h; ++i) h = has_branch_.at(s_.operand(f.id, i).index);
    has_branch_.emplace(f.id.index, h);
  }
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
