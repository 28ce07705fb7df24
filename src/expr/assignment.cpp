#include "expr/assignment.hpp"

#include <bit>
#include <cmath>

#include "expr/rational_ops.hpp"

namespace racer::expr {
namespace {

// Whether q is exactly the double d = q.get_d() (which rounds toward zero).
bool is_exact_double(const mpq_class& q, double d) {
  if (!std::isfinite(d)) return false;
  if (mpz_cmp_ui(q.get_den_mpz_t(), 1) == 0 && mpz_sizeinbase(q.get_num_mpz_t(), 2) <= 53) return true;
  return mpq_class(d) == q;
}

}  // namespace

Assignment::Assignment(std::initializer_list<std::pair<ExprId, mpq_class>> values) {
  for (const auto& [x, v] : values) set(x, v);
}

uint64_t Assignment::slot(ExprId x) const {
  if (pages_.empty()) {
    for (const auto& [index, s] : small_)
      if (index == x.index) return s;
    return 0;
  }
  size_t p = x.index >> kPageBits;
  if (p >= pages_.size() || pages_[p].empty()) return 0;
  return pages_[p][x.index & ((1u << kPageBits) - 1)];
}

void Assignment::put(ExprId x, uint64_t s) {
  if (pages_.empty()) {
    for (auto& [index, old] : small_)
      if (index == x.index) return void(old = s);
    if (small_.size() < kListed) {
      small_.emplace_back(x.index, s);
      ++size_;
      return;
    }
    // Many values: by node index from now on.
    std::vector<std::pair<uint32_t, uint64_t>> listed;
    listed.swap(small_);
    pages_.resize(1);
    for (const auto& [index, v] : listed) --size_, put(ExprId{index}, v);
  }
  size_t p = x.index >> kPageBits;
  if (p >= pages_.size()) pages_.resize(p + 1);
  if (pages_[p].empty()) pages_[p].assign(size_t{1} << kPageBits, 0);
  uint64_t& at = pages_[p][x.index & ((1u << kPageBits) - 1)];
  if (!at) ++size_;
  at = s;
}

void Assignment::set(ExprId x, double v) {
  if (v == 0) v = 0;  // (no -0: the value is a rational)
  put(x, std::bit_cast<uint64_t>(v) ^ kEmpty);
}

void Assignment::set(ExprId x, const mpq_class& v) {
  if (mpz_cmp_ui(v.get_den_mpz_t(), 1) != 0 && !detail::is_canonical_rational(v)) {
    mpq_class canonical = v;  // (callers may write mpq_class(2, 4), which GMP does not reduce)
    canonical.canonicalize();
    return set(x, canonical);
  }
  double d = v.get_d();
  if (is_exact_double(v, d)) return set(x, d);
  uint64_t old = slot(x);
  if (old && is_rational_slot(old)) {  // (a value replaced again and again keeps one rational)
    rationals_[(old ^ kEmpty) & kIndexMask] = v;
    return;
  }
  rationals_.push_back(v);
  put(x, (kRationalTag | (rationals_.size() - 1)) ^ kEmpty);
}

std::optional<double> Assignment::exact_double(ExprId x) const {
  uint64_t s = slot(x);
  if (!s || is_rational_slot(s)) return std::nullopt;
  return std::bit_cast<double>(s ^ kEmpty);
}

const mpq_class* Assignment::rational(ExprId x) const {
  uint64_t s = slot(x);
  if (!s || !is_rational_slot(s)) return nullptr;
  return &rationals_[(s ^ kEmpty) & kIndexMask];
}

std::optional<mpq_class> Assignment::value(ExprId x) const {
  uint64_t s = slot(x);
  if (!s) return std::nullopt;
  if (is_rational_slot(s)) return rationals_[(s ^ kEmpty) & kIndexMask];
  return mpq_class(std::bit_cast<double>(s ^ kEmpty));
}

}  // namespace racer::expr
