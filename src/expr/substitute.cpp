#include "expr/substitute.hpp"

#include <algorithm>
#include <unordered_set>

namespace racer::expr {

ExprId substitute(Store& s, ExprId x, const Substitution& map) {
  if (map.empty()) return x;
  std::unordered_map<uint32_t, ExprId> done;
  struct Frame {
    ExprId id;
    bool expanded;
  };
  std::vector<Frame> stack{{x, false}};
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
    uint32_t n = s.arity(f.id);
    if (!f.expanded) {
      stack.back().expanded = true;
      for (uint32_t i = 0; i < n; ++i) {
        ExprId c = s.operand(f.id, i);
        if (!done.count(c.index)) stack.push_back({c, false});
      }
      continue;
    }
    stack.pop_back();
    ops.clear();
    for (uint32_t i = 0; i < n; ++i) ops.push_back(done.at(s.operand(f.id, i).index));
    done.emplace(f.id.index, n == 0 ? f.id : s.rebuild(f.id, ops));
  }
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
