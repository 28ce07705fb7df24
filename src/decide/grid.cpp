#include "decide/grid.hpp"

#include <algorithm>

namespace racer::decide {

namespace {

struct Format {
  long p;       // significand bits, the implicit one included
  long emin;    // exponent of the smallest normal value; subnormals are below it
  mpq_class max;
};

mpq_class pow2(long e) {
  mpz_class m = 1;
  if (e >= 0) {
    mpz_mul_2exp(m.get_mpz_t(), m.get_mpz_t(), static_cast<mp_bitcnt_t>(e));
    return mpq_class(m);
  }
  mpz_mul_2exp(m.get_mpz_t(), m.get_mpz_t(), static_cast<mp_bitcnt_t>(-e));
  return mpq_class(mpz_class(1), m);
}

// (2 - 2^(1-p)) * 2^emax: the IEEE largest finite value.
mpq_class ieee_max(long p, long emax) { return (2 - pow2(1 - p)) * pow2(emax); }

const Format* format_of(Grid g) {
  static const Format f64{53, -1022, ieee_max(53, 1023)};
  static const Format f32{24, -126, ieee_max(24, 127)};
  static const Format tf32{11, -126, ieee_max(11, 127)};
  static const Format f16{11, -14, ieee_max(11, 15)};
  static const Format bf16{8, -126, ieee_max(8, 127)};
  // OCP FP8: E4M3 gives its top mantissa pattern to NaN and has no infinity, so its largest
  // value is 1.75 * 2^8 rather than 1.875 * 2^8; E5M2 is IEEE-like.
  static const Format e4m3{4, -6, mpq_class(448)};
  static const Format e5m2{3, -14, ieee_max(3, 15)};
  switch (g) {
    case Grid::F64: return &f64;
    case Grid::F32: return &f32;
    case Grid::TF32: return &tf32;
    case Grid::F16: return &f16;
    case Grid::BF16: return &bf16;
    case Grid::E4M3: return &e4m3;
    case Grid::E5M2: return &e5m2;
    case Grid::Integer:
    case Grid::Real: return nullptr;
  }
  return nullptr;
}

long bit_length(const mpz_class& z) { return static_cast<long>(mpz_sizeinbase(z.get_mpz_t(), 2)); }

// floor(log2(q)) for q > 0.
long floor_log2(const mpq_class& q) {
  long t = bit_length(q.get_num()) - bit_length(q.get_den());
  return q >= pow2(t) ? t : t - 1;
}

mpz_class round_int(const mpq_class& q, Rounding r) {
  mpz_class out;
  switch (r) {
    case Rounding::Down: mpz_fdiv_q(out.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t()); break;
    case Rounding::Up: mpz_cdiv_q(out.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t()); break;
    case Rounding::Nearest: {
      mpq_class half = abs(q) + mpq_class(1, 2);
      mpz_fdiv_q(out.get_mpz_t(), half.get_num_mpz_t(), half.get_den_mpz_t());
      if (q < 0) out = -out;
      break;
    }
  }
  return out;
}

Rounding mirror(Rounding r) {
  return r == Rounding::Down ? Rounding::Up : r == Rounding::Up ? Rounding::Down : r;
}

// The spacing of grid values at q >= 0 (going up from q).
mpq_class ulp_at(const Format& f, const mpq_class& q) {
  long t = q == 0 ? f.emin : std::max(floor_log2(q), f.emin);
  return pow2(t - (f.p - 1));
}

std::optional<mpq_class> round_float(const Format& f, const mpq_class& q, Rounding r) {
  if (q == 0) return mpq_class(0);
  if (q < 0) {
    std::optional<mpq_class> v = round_float(f, -q, mirror(r));
    if (!v) return std::nullopt;
    return mpq_class(-*v);
  }
  mpq_class quantum = ulp_at(f, q);
  mpq_class v = mpq_class(round_int(q / quantum, r)) * quantum;
  if (v > f.max) {
    if (r == Rounding::Up) return std::nullopt;
    return f.max;
  }
  return v;
}

}  // namespace

std::string_view grid_name(Grid g) {
  switch (g) {
    case Grid::F64: return "f64";
    case Grid::F32: return "f32";
    case Grid::TF32: return "tf32";
    case Grid::F16: return "f16";
    case Grid::BF16: return "bf16";
    case Grid::E4M3: return "e4m3";
    case Grid::E5M2: return "e5m2";
    case Grid::Integer: return "integer";
    case Grid::Real: return "real";
  }
  return "?";
}

bool on_grid(const mpq_class& q, Grid g) {
  if (g == Grid::Real) return true;
  if (g == Grid::Integer) return q.get_den() == 1;
  const Format& f = *format_of(g);
  if (q == 0) return true;
  const mpz_class& den = q.get_den();
  if (mpz_popcount(den.get_mpz_t()) != 1) return false;  // not dyadic
  mpz_class num = abs(q.get_num());
  long tz = static_cast<long>(mpz_scan1(num.get_mpz_t(), 0));
  long bits = bit_length(num) - tz;
  long low = tz - (bit_length(den) - 1);  // exponent of the lowest set bit
  return bits <= f.p && low >= f.emin - (f.p - 1) && abs(q) <= f.max;
}

std::optional<mpq_class> round_to_grid(const mpq_class& q, Grid g, Rounding r) {
  if (g == Grid::Real) return q;
  if (g == Grid::Integer) return mpq_class(round_int(q, r));
  return round_float(*format_of(g), q, r);
}

std::optional<mpq_class> next_up(const mpq_class& q, Grid g) {
  if (g == Grid::Real) return mpq_class(q + pow2(-10));
  std::optional<mpq_class> v = round_to_grid(q, g, Rounding::Up);
  if (!v) return std::nullopt;
  if (*v > q) return v;
  if (g == Grid::Integer) return mpq_class(q + 1);
  const Format& f = *format_of(g);
  if (q < 0) {
    std::optional<mpq_class> d = next_down(-q, g);
    if (!d) return std::nullopt;
    return mpq_class(-*d);
  }
  mpq_class r = q + ulp_at(f, q);
  if (r > f.max) return std::nullopt;
  return r;
}

std::optional<mpq_class> next_down(const mpq_class& q, Grid g) {
  if (g == Grid::Real) return mpq_class(q - pow2(-10));
  std::optional<mpq_class> v = round_to_grid(q, g, Rounding::Down);
  if (!v) return std::nullopt;
  if (*v < q) return v;
  if (g == Grid::Integer) return mpq_class(q - 1);
  const Format& f = *format_of(g);
  if (q <= 0) {
    std::optional<mpq_class> u = next_up(mpq_class(-q), g);
    if (!u) return std::nullopt;
    return mpq_class(-*u);
  }
  long t = floor_log2(q);
  // Just below a power of two the spacing halves (unless that is already subnormal).
  if (q == pow2(t) && t > f.emin) return mpq_class(q - pow2(t - f.p));
  return mpq_class(q - ulp_at(f, q));
}

bool admissible(const mpq_class& q, const SymbolDomain& d) {
  if (d.lo && q < *d.lo) return false;
  if (d.hi && q > *d.hi) return false;
  return on_grid(q, d.grid);
}

std::optional<mpq_class> snap(const mpq_class& q, const SymbolDomain& d) {
  mpq_class c = q;
  if (d.lo && c < *d.lo) c = *d.lo;
  if (d.hi && c > *d.hi) c = *d.hi;
  for (Rounding r : {Rounding::Nearest, Rounding::Down, Rounding::Up}) {
    std::optional<mpq_class> v = round_to_grid(c, d.grid, r);
    if (v && admissible(*v, d)) return v;
  }
  return std::nullopt;
}

}  // namespace racer::decide
