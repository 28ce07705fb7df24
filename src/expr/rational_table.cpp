#include "expr/rational_table.hpp"

#include "expr/hash.hpp"

namespace racer::expr::detail {

RationalTable::RationalTable() : slots_(64, 0) {
  find_or_add(mpq_class(0));
  find_or_add(mpq_class(1));
  find_or_add(mpq_class(-1));
}

uint64_t RationalTable::hash(const mpq_class& q) {
  uint64_t h = 0;
  for (const mpz_srcptr z : {q.get_num_mpz_t(), q.get_den_mpz_t()}) {
    h = hash_mix(h, static_cast<uint64_t>(static_cast<int64_t>(z->_mp_size)));
    size_t limbs = mpz_size(z);
    for (size_t i = 0; i < limbs; ++i) h = hash_mix(h, mpz_getlimbn(z, i));
  }
  return hash_finish(h);
}

uint32_t RationalTable::intern(const mpq_class& q) {
  // (Most coefficients and weights are 0 or 1, interned first: no hash for them.)
  if (mpz_cmp_ui(q.get_den_mpz_t(), 1) == 0 && mpz_size(q.get_num_mpz_t()) <= 1) {
    const int sign = mpz_sgn(q.get_num_mpz_t());
    if (sign == 0) return kZero;
    if (mpz_getlimbn(q.get_num_mpz_t(), 0) == 1) return sign > 0 ? kOne : kMinusOne;
  }
  return find_or_add(q);
}

uint32_t RationalTable::find_or_add(const mpq_class& q) {
  uint32_t h = static_cast<uint32_t>(hash(q));
  size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    uint32_t s = slots_[i];
    if (s == 0) {
      uint32_t index = static_cast<uint32_t>(values_.size());
      values_.push_back(q);
      hashes_.push_back(h);
      slots_[i] = index + 1;
      if (values_.size() * 2 > slots_.size()) grow();
      return index;
    }
    if (hashes_[s - 1] == h && values_[s - 1] == q) return s - 1;
  }
}

void RationalTable::grow() {
  std::vector<uint32_t> slots(slots_.size() * 2, 0);
  size_t mask = slots.size() - 1;
  for (uint32_t index = 0; index < values_.size(); ++index) {
    size_t i = hashes_[index] & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = index + 1;
  }
  slots_ = std::move(slots);
}

}  // namespace racer::expr::detail
