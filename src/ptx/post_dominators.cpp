#include "ptx/post_dominators.hpp"

#include <algorithm>

namespace racer::ptx {

void successors_of(const Function& f, uint32_t i, std::vector<uint32_t>& out) {
  out.clear();
  const uint32_t end = static_cast<uint32_t>(f.instrs.size());
  const Instr& ins = f.instrs[i];
  bool ends = ins.op == Op::Ret || ins.op == Op::Exit || ins.op == Op::Trap;
  if (ins.op == Op::Bra) out.push_back(f.labels[ins.operands[0].index].target);
  else if (ends) out.push_back(end);
  if (ins.has_guard || (ins.op != Op::Bra && !ends)) out.push_back(std::min(i + 1, end));
}

// Cooper, Harvey and Kennedy's iterative dominator algorithm on the reversed flow graph,
// rooted at the function's end.
std::vector<uint32_t> immediate_post_dominators(const Function& f) {
  const uint32_t n = static_cast<uint32_t>(f.instrs.size());
  const uint32_t root = n;
  std::vector<std::vector<uint32_t>> succ(n + 1), pred(n + 1);
  std::vector<uint32_t> s;
  for (uint32_t i = 0; i < n; ++i) {
    successors_of(f, i, s);
    for (uint32_t t : s) {
      succ[i].push_back(t);
      pred[t].push_back(i);
    }
  }
  // Postorder of the reversed graph (edges from an instruction to its predecessors).
  std::vector<uint32_t> order, number(n + 1, kNoPostDominator);
  std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
  std::vector<bool> visited(n + 1, false);
  visited[root] = true;
  while (!stack.empty()) {
    auto& [v, k] = stack.back();
    if (k < pred[v].size()) {
      uint32_t w = pred[v][k++];
      if (!visited[w]) {
        visited[w] = true;
        stack.push_back({w, 0});
      }
      continue;
    }
    number[v] = static_cast<uint32_t>(order.size());
    order.push_back(v);
    stack.pop_back();
  }
  std::vector<uint32_t> ipdom(n + 1, kNoPostDominator);
  ipdom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (number[a] < number[b]) a = ipdom[a];
      while (number[b] < number[a]) b = ipdom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = order.size(); k-- > 0;) {
      uint32_t v = order[k];
      if (v == root) continue;
      uint32_t best = kNoPostDominator;
      for (uint32_t w : succ[v]) {
        if (ipdom[w] == kNoPostDominator) continue;
        best = best == kNoPostDominator ? w : intersect(w, best);
      }
      if (best != ipdom[v]) ipdom[v] = best, changed = true;
    }
  }
  // Instructions from which the end is unreachable keep kNoPostDominator; so does any
  // whose paths include one that never ends (it is not in the reversed graph's order).
  ipdom.resize(n);
  for (uint32_t i = 0; i < n; ++i)
    if (number[i] == kNoPostDominator) ipdom[i] = kNoPostDominator;
  return ipdom;
}

}  // namespace racer::ptx
