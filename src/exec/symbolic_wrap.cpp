// Integer data as the hardware's two's complement (issue 19). Symbolic integer data is an exact
// integer expression congruent to the register's bits; read as an integer type t it is the
// member of t's range with those bits: the expression itself where its bounds prove it lies in
// that range (most index and sum arithmetic), else its wrap-around to t's width (expr/node.hpp,
// wrap_kind), which the Store simplifies by the identities of arithmetic mod 2^w. Comparisons,
// conversions, shifts and outputs then use the exact wrapped value.
#include "exec/refusal.hpp"
#include "exec/symbolic_domain.hpp"
#include "expr/walk.hpp"

namespace racer::exec {

using expr::ExprId;

ExprId SymbolicDomain::wrapped(ExprId e, ptx::Type t) {
  const unsigned bits = ptx::type_bits(t);
  if (bits == 0 || bits > 64)
    throw Refusal("symbolic integer data read as ." + std::string(ptx::type_name(t)) + " (wider than 64 bits)");
  const bool is_signed = ptx::type_class(t) == ptx::TypeClass::Signed;
  const mpz_class half = mpz_class(1) << (bits - 1);
  const mpz_class lo = is_signed ? mpz_class(-half) : mpz_class(0);
  const mpz_class hi = is_signed ? mpz_class(half - 1) : mpz_class((mpz_class(1) << bits) - 1);
  auto fits = [&](const std::optional<Interval>& b) {
    if (!b) return false;
    if (b->lo >= lo && b->hi <= hi) return true;
    // Bit types hold either signedness: the value fits if it fits the signed or unsigned range.
    return ptx::type_class(t) == ptx::TypeClass::Bits && b->lo >= -half && b->hi <= hi;
  };
  if (fits(bounds_.of(e)) || fits(bounds_.enumerate(e))) return e;
  // Wrapping is exact for integers only: data from integer inputs is (their symbols are marked),
  // data from uninitialized or unknown memory is not known to be (its witnesses are replayed as
  // floats).
  if (!from_integer_inputs(e))
    throw Refusal("symbolic integer arithmetic whose result may not fit ." + std::string(ptx::type_name(t)) +
                  " on data not known to be integers (uninitialized or unknown memory): its wrap-around is not modelled");
  // A bit type with no proof reads as unsigned (any member of the residue class would do:
  // every reader wraps again to its own type).
  ExprId w = store_.wrap(e, bits, is_signed);
  if (store_.kind(w) == expr::Kind::Func && expr::is_wrap(store_.func_kind(w))) {
    // The identities may have left an operand that fits (wrap(wrap(a + b) - b) is wrap(a)).
    ExprId inner = store_.operand(w, 0);
    if (inner != e && (fits(bounds_.of(inner)) || fits(bounds_.enumerate(inner)))) return inner;
  }
  return w;
}

// Integer data computed by the machine from integer inputs alone is integer-valued whatever its
// form ((x - wrap_u1(x)) / 2 is floor(x / 2)), and a witness gives those inputs integers. So is
// what it computes from a float converted to an integer (the conversion rounds exactly).
bool SymbolicDomain::from_integer_inputs(ExprId e) {
  auto leaf = [&](ExprId x) -> std::optional<bool> {
    if (converted_integers_.contains(x.index)) return true;
    if (store_.kind(x) == expr::Kind::Symbol) return store_.symbol_info(x).integer;
    if (store_.arity(x) == 0) return true;
    return std::nullopt;
  };
  expr::fold_post_order(e, integer_inputs_, leaf, expr::AllOperands{store_}, [&](ExprId x) {
    // A selection between integers is one, whatever its condition compares (the index an
    // argmax keeps is chosen by comparing floats).
    const bool numeric_select = store_.kind(x) == expr::Kind::Select && !store_.is_condition(x);
    for (uint32_t i = numeric_select ? 1 : 0; i < store_.arity(x); ++i)
      if (!integer_inputs_.at(store_.operand(x, i).index)) return false;
    return true;
  });
  return integer_inputs_.at(e.index);
}

// An unknown memory value read as integer data (an uninitialized cell) stands for what the
// cell holds as read; anything computed must fit t or be wrapped exactly (else refused): a
// 16-bit -148 stored with st.b8 is 108 in the byte.
Value SymbolicDomain::as_stored_integer(Value v, ptx::Type t) {
  if (!v.is_symbolic() || !v.integer) return v;
  const ExprId e = v.expr();
  if (store_.kind(e) == expr::Kind::Symbol && !from_integer_inputs(e)) return v;
  return Value::of_int_expr(wrapped(e, t));
}

}  // namespace racer::exec
