#include "check/expect.hpp"

#include <algorithm>

namespace racer::check {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s.empty() ? std::string("none") : s;
}

}  // namespace

std::string expectation_mismatch(const instance::Instance& inst, const CheckResult& r) {
  if (!inst.expect) return "no [expect] table";
  const auto& e = *inst.expect;
  bool verdict_ok = false;
  switch (e.verdict) {
    case instance::Verdict::Equivalent: verdict_ok = r.verdict == Verdict::Equivalent; break;
    case instance::Verdict::Inequivalent: verdict_ok = r.verdict == Verdict::Inequivalent; break;
    case instance::Verdict::EqualUpToRounding: verdict_ok = r.verdict == Verdict::EqualUpToRounding; break;
    case instance::Verdict::NotEquivalent:
      // A race makes the outputs schedule-dependent: any answer but "equivalent" is right.
      verdict_ok = r.verdict == Verdict::Inequivalent || r.verdict == Verdict::Unknown;
      break;
  }
  std::vector<std::string> want, got;
  for (const auto& d : e.diagnostics) want.push_back(std::string(1, d.program) + ":" + d.kind);
  for (const auto& d : r.defects) got.push_back(std::string(1, d.program) + ":" + std::string(exec::defect_kind_name(d.kind)));
  for (auto* v : {&want, &got}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  std::string why;
  if (!verdict_ok) why = "verdict " + std::string(verdict_name(r.verdict)) + (r.reason.empty() ? "" : ": " + r.reason);
  if (want != got) why += (why.empty() ? "" : "; ") + std::string("defects ") + join(got) + ", expected " + join(want);
  return why;
}

}  // namespace racer::check
