#include "idiom/functions.hpp"

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <unordered_map>

namespace racer::idiom {
namespace {

constexpr Fn kFamily[] = {Fn::Exp, Fn::Exp2, Fn::Log, Fn::Log2, Fn::Log1p, Fn::Sqrt,
                          Fn::Rsqrt, Fn::Tanh, Fn::Erf, Fn::Sigmoid, Fn::Sin, Fn::Cos};
const long double kScales[] = {1, -1, 2, -2, 0.5L, -0.5L};

long double value(Fn f, long double x, long double e = 1) {
  switch (f) {
    case Fn::Pow: return std::floor(e) != e && x < 0 ? NAN : std::pow(x, e);
    case Fn::Exp: return std::exp(x);
    case Fn::Exp2: return std::exp2(x);
    case Fn::Log: return x < 0 ? NAN : std::log(x);
    case Fn::Log2: return x < 0 ? NAN : std::log2(x);
    case Fn::Log1p: return x < -1 ? NAN : std::log1p(x);
    case Fn::Sqrt: return x < 0 ? NAN : std::sqrt(x);
    case Fn::Rsqrt: return x < 0 ? NAN : 1 / std::sqrt(x);
    case Fn::Tanh: return std::tanh(x);
    case Fn::Erf: return std::erf(x);
    case Fn::Sigmoid: return 1 / (1 + std::exp(-x));
    case Fn::Sin: return std::sin(x);
    case Fn::Cos: return std::cos(x);
  }
  return NAN;
}

// value(f, kScales[scale] * t), remembered: a plan search fits every register at every visit
// against the same few dozen probe points, so the same transcendentals come back thousands of
// times (sinl's range reduction at 1e10 among them).
long double scaled_value(Fn f, size_t scale, long double t) {
  struct Key {
    uint64_t mantissa;
    uint16_t exponent;
    uint8_t fn, scale;
    bool operator==(const Key&) const = default;
  };
  struct Hash {
    size_t operator()(const Key& k) const {
      return std::hash<uint64_t>()(k.mantissa ^ (uint64_t{k.exponent} << 48) ^ (uint64_t{k.fn} << 40) ^ (uint64_t{k.scale} << 32));
    }
  };
  static_assert(std::numeric_limits<long double>::digits == 64, "the key holds an x87 long double");
  thread_local std::unordered_map<Key, long double, Hash> memo;
  Key k{0, 0, static_cast<uint8_t>(f), static_cast<uint8_t>(scale)};
  std::memcpy(&k.mantissa, &t, 8);
  std::memcpy(&k.exponent, reinterpret_cast<const char*>(&t) + 8, 2);
  if (auto it = memo.find(k); it != memo.end()) return it->second;
  if (memo.size() > (size_t{1} << 16)) memo.clear();
  return memo[k] = value(f, kScales[scale] * t);
}

const char* name(Fn f) {
  switch (f) {
    case Fn::Exp: return "exp";
    case Fn::Exp2: return "exp2";
    case Fn::Log: return "log";
    case Fn::Log2: return "log2";
    case Fn::Log1p: return "log1p";
    case Fn::Sqrt: return "sqrt";
    case Fn::Rsqrt: return "rsqrt";
    case Fn::Tanh: return "tanh";
    case Fn::Erf: return "erf";
    case Fn::Sigmoid: return "sigmoid";
    case Fn::Sin: return "sin";
    case Fn::Cos: return "cos";
    case Fn::Pow: return "pow";
  }
  return "?";
}

// Functions computed through tanh.approx or sin/cos range reduction carry an absolute
// error bound; the others a relative one of a few ulp of f32.
bool absolute_bound(Fn f, Tolerance tol) {
  return (f == Fn::Tanh && tol == Tolerance::Loose) || f == Fn::Sin || f == Fn::Cos;
}

constexpr long double kFloatMax = 3.4028234663852886e38L;
constexpr long double kFloatMinNormal = 1.1754943508222875e-38L;

bool close(Fn f, long double want, long double got, long double scale, Tolerance tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isnan(got)) return false;
  if (std::isinf(want) || std::fabs(want) > kFloatMax) return std::isinf(got) && (got > 0) == (want > 0);
  if (std::isinf(got)) return false;
  long double err = std::fabs(want - got);
  if (std::fabs(want) < kFloatMinNormal * 4 * scale && std::fabs(got) < kFloatMinNormal * 4 * scale) return true;
  if (absolute_bound(f, tol)) return err <= std::ldexp(1.0L, -15) * scale;
  return err <= std::ldexp(1.0L, -19) * std::fabs(want) + std::ldexp(1.0L, -23) * scale;
}

// A small exact rational near x (denominator up to 8, within `rel` of x), if there is one.
std::optional<mpq_class> simple(long double x, long double rel = 1e-6L) {
  if (!std::isfinite(x) || std::fabs(x) > 1024) return std::nullopt;
  for (long den = 1; den <= 8; den *= 2) {
    long double num = std::round(x * den);
    if (std::fabs(num - x * den) <= rel * std::max<long double>(1, std::fabs(x * den))) {
      mpq_class q(static_cast<long>(num), den);
      q.canonicalize();
      return q;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string Fit::describe() const {
  std::string inner = b == 1 ? "t" : b == -1 ? "-t" : b.get_str() + "*t";
  std::string s = fn == Fn::Pow ? "(" + inner + ")^" + e.get_str() : std::string(name(fn)) + "(" + inner + ")";
  if (a != 1) s = a.get_str() + "*" + s;
  if (d != 0) s = d.get_str() + " + " + s;
  return s;
}

bool agrees(const Fit& f, const std::vector<Sample>& samples, Tolerance tol) {
  long double a = f.a.get_d(), b = f.b.get_d(), d = f.d.get_d();
  long double scale = std::max<long double>({1, std::fabs(a), std::fabs(d)});
  for (const Sample& s : samples) {
    long double want = a * value(f.fn, b * s.t, f.e.get_d()) + d;
    if (!close(f.fn, want, s.nan ? NAN : s.y, scale, tol)) return false;
  }
  return true;
}

// t^e for a constant exponent (powf(x, 2.0f), powf(x, 0.5f)): e read off a sample with
// t > 1, then every sample checked.
std::optional<Fit> fit_power(const std::vector<Sample>& samples, Tolerance tol) {
  for (const Sample& s : samples) {
    if (s.nan || !(s.t > 1.5L) || !(s.y > 0) || !std::isfinite(s.y)) continue;
    long double e = std::log(s.y) / std::log(s.t);
    long double twice = std::round(2 * e);
    if (std::fabs(2 * e - twice) > 1e-4L || twice == 0 || twice == 2 || std::fabs(twice) > 16) return std::nullopt;
    Fit f{Fn::Pow, 1, 1, 0, mpq_class(static_cast<long>(twice), 2)};
    f.e.canonicalize();
    if (agrees(f, samples, tol)) return f;
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {

// d as a small rational, else as one of the offsets it is near (a float constant's exact value).
std::optional<mpq_class> offset_of(long double d, const std::vector<mpq_class>& offsets, long double rel = 1e-6L) {
  if (auto q = simple(std::fabs(d) < rel ? 0 : d, rel)) return q;
  for (const mpq_class& h : offsets)
    if (std::fabs(h.get_d() - d) <= 1e-4L * std::max<long double>(1, std::fabs(d))) return h;
  return std::nullopt;
}

// a and d from two samples where f differs: the first two more than 1e-3 apart, else the two
// where f is least and greatest, a and d then snapped to small rationals 1e-4 away at most (a
// close pair magnifies the samples' rounding: erf at 2 and 3, both near 1, gives a 2.5e-5 off).
// Either fit must then agree with every sample, within the function's own tolerance.
std::optional<Fit> fit_scaled(Fn fn, size_t si, const std::vector<Sample>& samples, Tolerance tol,
                              const std::vector<mpq_class>& offsets) {
  const Sample *s1 = nullptr, *s2 = nullptr, *lo = nullptr, *hi = nullptr;
  long double g1 = 0, g2 = 0, glo = 0, ghi = 0;
  for (const Sample& s : samples) {
    long double g = scaled_value(fn, si, s.t);
    if (s.nan || !std::isfinite(s.y) || !std::isfinite(g) || std::fabs(g) > 1e6L || std::fabs(s.y) > 1e6L) continue;
    if (!s1) s1 = &s, g1 = g;
    else if (!s2 && std::fabs(g - g1) > 1e-3L) s2 = &s, g2 = g;
    if (!lo || g < glo) lo = &s, glo = g;
    if (!hi || g > ghi) hi = &s, ghi = g;
  }
  if (!s1 || !s2) return std::nullopt;
  auto from = [&](const Sample& x, long double gx, const Sample& y, long double gy, long double rel) -> std::optional<Fit> {
    auto qa = simple((x.y - y.y) / (gx - gy), rel), qb = simple(kScales[si]);
    if (!qa || !qb || *qa == 0) return std::nullopt;
    auto qd = offset_of(x.y - qa->get_d() * gx, offsets, rel);
    if (!qd) return std::nullopt;
    Fit f{fn, *qa, *qb, *qd};
    if (!agrees(f, samples, tol)) return std::nullopt;
    return f;
  };
  if (auto f = from(*s1, g1, *s2, g2, 1e-6L)) return f;
  return from(*lo, glo, *hi, ghi, 1e-4L);
}

std::optional<Fit> fit_anew(const std::vector<Sample>& samples, Tolerance tol, const std::vector<mpq_class>& offsets) {
  if (auto f = fit_power(samples, tol)) return f;
  for (Fn fn : kFamily)
    for (size_t si = 0; si < std::size(kScales); ++si)
      if (auto f = fit_scaled(fn, si, samples, tol, offsets)) return f;
  return std::nullopt;
}

}  // namespace

std::optional<Fit> fit_routine(const std::vector<Sample>& samples, Tolerance tol, const std::vector<mpq_class>& offsets) {
  // A plan search asks for the same samples again and again (a register that keeps its value
  // over many visits, a candidate input that the code never reads): the answer depends on
  // nothing else, so it is remembered, keyed by the samples' significant bytes.
  static_assert(std::numeric_limits<long double>::digits == 64, "the key holds x87 long doubles");
  std::string key(1, static_cast<char>(tol));
  key.reserve(1 + 21 * samples.size());
  for (const Sample& s : samples) {
    key.append(reinterpret_cast<const char*>(&s.t), 10);
    key.append(reinterpret_cast<const char*>(&s.y), 10);
    key.push_back(s.nan ? 1 : 0);
  }
  for (const mpq_class& h : offsets) key += h.get_str() + ";";
  thread_local std::unordered_map<std::string, std::optional<Fit>> memo;
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  if (memo.size() > 4096) memo.clear();
  return memo[std::move(key)] = fit_anew(samples, tol, offsets);
}

expr::ExprId build(expr::Store& st, const Fit& f, expr::ExprId t) {
  using expr::ExprId;
  ExprId x = st.mul(st.constant(f.b), t);
  ExprId ln2 = st.log(st.constant(2));
  ExprId g;
  switch (f.fn) {
    case Fn::Exp: g = st.exp(x); break;
    case Fn::Exp2: g = st.exp(st.mul(x, ln2)); break;
    case Fn::Log: g = st.log(x); break;
    case Fn::Log2: g = st.div(st.log(x), ln2); break;
    case Fn::Log1p: g = st.log(st.add(st.one(), x)); break;
    case Fn::Sqrt: g = st.sqrt(x); break;
    case Fn::Rsqrt: g = st.recip(st.sqrt(x)); break;
    case Fn::Tanh: g = st.tanh(x); break;
    case Fn::Erf: g = st.erf(x); break;
    case Fn::Sigmoid: g = st.recip(st.add(st.one(), st.exp(st.neg(x)))); break;
    case Fn::Sin: g = st.sin(x); break;
    case Fn::Cos: g = st.cos(x); break;
    case Fn::Pow: {
      // An integer power, or an odd power of the square root (undefined below zero, as
      // powf is NaN there).
      mpz_class twice = f.e.get_num() * (2 / f.e.get_den());
      g = f.e.get_den() == 1 ? st.pow_int(x, f.e.get_num()) : st.pow_int(st.sqrt(x), twice);
      break;
    }
  }
  return st.add(st.mul(st.constant(f.a), g), st.constant(f.d));
}

const std::vector<long double>& probe_points() {
  static const std::vector<long double> pts = [] {
    std::vector<long double> v = {0.0L, 1.0L, -1.0L, 0.5L, -0.5L, 2.0L, -2.0L, 0.75L, -0.75L, 1.5L, -1.5L,
                                  3.0L, -3.0L, 0.125L, -0.125L, 0.0078125L, -0.0078125L, 0.3125L, -0.3125L,
                                  5.0L, -5.0L, 7.25L, -7.25L, 10.0L, -10.0L, 0.9375L, -0.9375L, 1.0625L,
                                  0.6931471805599453L, -0.6931471805599453L, 20.0L, -20.0L, 40.5L, -40.5L,
                                  87.5L, -87.5L, 100.0L, -100.0L, 1e-5L, -1e-5L, 1234.5L, 0.0001220703125L,
                                  // Far out: where range reductions switch to their slow paths.
                                  131072.5L, -262144.75L, 1.0e10L, -3.0e20L, 1.5e38L};
    return v;
  }();
  return pts;
}

}  // namespace racer::idiom
