#include "check/points.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "check/float_model.hpp"
#include "expr/hash.hpp"
#include "exec/refusal.hpp"

namespace racer::check {
namespace {

std::string kind_name(exec::SymbolOrigin::Kind k) {
  switch (k) {
    case exec::SymbolOrigin::Kind::InputCell: return "input";
    case exec::SymbolOrigin::Kind::OutOfBounds: return "out_of_bounds";
    case exec::SymbolOrigin::Kind::Unmapped: return "unmapped";
    default: return "uninitialized";
  }
}

// The value of the format nearest x that lies in [lo, hi] (x itself when it is one).
double in_format(ptx::Type t, double x, double lo, double hi) {
  auto f = float_format(t);
  if (!f) return x;
  double v = ieee::to_double(*f, ieee::from_double(*f, x));
  if (v < lo || v > hi || !std::isfinite(v)) v = ieee::to_double(*f, ieee::from_double(*f, x, v < lo ? ieee::Rounding::RP : ieee::Rounding::RM));
  return std::isfinite(v) && v >= lo && v <= hi ? v : std::clamp(x, lo, hi);
}

// The end of a range with the larger magnitude (the upper one when they tie).
double largest_end(double lo, double hi) { return std::fabs(lo) > std::fabs(hi) ? lo : hi; }

// Keyed draws: a number in [0, 1) that is a function of the seed and a key alone (splitmix64).
uint64_t mix(uint64_t x) { return expr::detail::hash_finish(x + 0x9e3779b97f4a7c15ULL); }

// A box's narrowing about its middle, as every draw takes it.
double narrowing_scale(double scale) { return std::clamp(scale, 0x1p-30, 1.0); }
double keyed_unit(uint64_t seed, uint64_t key) { return static_cast<double>(mix(mix(seed) ^ key) >> 11) * 0x1p-53; }
uint64_t cell_key(int tensor, int64_t cell) { return mix(static_cast<uint64_t>(tensor) << 40 ^ static_cast<uint64_t>(cell)); }
uint64_t name_key(const std::string& name) { return mix(std::hash<std::string>{}(name) ^ 0x5bd1e995ULL); }

// An input cell's Spread value from the draw u in [0, 1): integers within [-8, 8] of their
// range, floats anywhere in it, narrowed about its middle by `narrowing`, in the cell's format.
double spread_value(ptx::Type elem, std::pair<double, double> range, double u, double narrowing) {
  auto [lo, hi] = range;
  if (!float_format(elem)) {
    double lo_i = std::ceil(std::max(lo, -8.0)), hi_i = std::floor(std::min(hi, 8.0));
    if (hi_i < lo_i) lo_i = hi_i = std::ceil(lo);
    return std::floor(lo_i + u * (hi_i - lo_i + 1 - 1e-9));
  }
  double x = lo + u * (hi - lo);
  x = (lo + hi) / 2 + (x - (lo + hi) / 2) * narrowing;
  return in_format(elem, std::clamp(x, lo, hi), lo, hi);
}

// Unknown memory: a small integer, which every format holds exactly.
double unknown_value(double u) { return static_cast<double>(static_cast<long>(std::floor(u * 9)) - 4); }

// Small values of either sign; an unsigned type's own (its cells hold no negative value: -3
// would load as 253).
std::pair<double, double> default_range(ptx::Type elem) {
  if (float_format(elem)) return {-2.0, 2.0};
  return ptx::type_class(elem) == ptx::TypeClass::Unsigned ? std::pair{0.0, 8.0} : std::pair{-4.0, 4.0};
}

}  // namespace

namespace {

// Every input cell's bits from its spec, its range as doubles and its keyed draw in [0, 1).
template <class CellValue>
ConcreteInputs keyed_cells(const Prepared& prep, uint64_t seed, const std::atomic<bool>* cancelled, CellValue value_of) {
  ConcreteInputs in;
  const std::vector<exec::TensorSpec>& tensors = prep.tensors();
  in.cells.resize(tensors.size());
  for (size_t t = 0; t < tensors.size(); ++t) {
    const exec::TensorSpec& spec = tensors[t];
    if (spec.init != exec::TensorInit::Input) continue;
    std::pair<double, double> range = spec.range ? std::pair{spec.range->lo.get_d(), spec.range->hi.get_d()} : default_range(spec.elem);
    std::vector<uint64_t>& cells = in.cells[t];
    cells.resize(spec.cell_count());
    for (uint64_t c = 0; c < cells.size(); ++c) {
      if (c % (64 * kCellsBetweenLimitChecks) == 0 && cancelled && cancelled->load(std::memory_order_relaxed))
        throw exec::LimitReached("cancelled: the check it served ended");
      double u = keyed_unit(seed, cell_key(static_cast<int>(t), static_cast<int64_t>(c)));
      cells[c] = cell_bits(spec.elem, value_of(spec.elem, range, u));
    }
  }
  in.unknown_value = [seed](const std::string& name) { return mpq_class(unknown_value(keyed_unit(seed, name_key(name)))); };
  return in;
}

// The Largest style's float value: the range's end of largest magnitude, in the cell's format.
double largest_value(ptx::Type elem, std::pair<double, double> range) {
  auto [lo, hi] = range;
  return in_format(elem, std::clamp(largest_end(lo, hi), lo, hi), lo, hi);
}

}  // namespace

ConcreteInputs keyed_inputs(const Prepared& prep, uint64_t seed, const std::atomic<bool>* cancelled, double narrowing) {
  narrowing = narrowing_scale(narrowing);
  return keyed_cells(prep, seed, cancelled, [narrowing](ptx::Type elem, std::pair<double, double> range, double u) {
    return spread_value(elem, range, u, narrowing);
  });
}

ConcreteInputs keyed_largest_inputs(const Prepared& prep, uint64_t seed, const std::atomic<bool>* cancelled) {
  return keyed_cells(prep, seed, cancelled, [](ptx::Type elem, std::pair<double, double> range, double u) {
    return float_format(elem) ? largest_value(elem, range) : spread_value(elem, range, u, 1);
  });
}

PointSampler::PointSampler(Execution& ex, uint64_t seed) : ex_(ex), rng_(seed), seed_(seed) {
  std::vector<uint32_t> symbols;
  for (expr::ExprId s : ex.session().symbols()) symbols.push_back(s.index);
  if (!std::is_sorted(symbols.begin(), symbols.end())) std::sort(symbols.begin(), symbols.end());
  symbols_ = std::make_shared<const std::vector<uint32_t>>(std::move(symbols));
}

std::pair<double, double> PointSampler::ends(const expr::Range* range) {
  // (The symbols of a tensor share one interned range: converting it once per run of them
  // saves two rational-to-double divisions per symbol.)
  if (range != ends_of_) ends_of_ = range, ends_ = {range->lo.get_d(), range->hi.get_d()};
  return ends_;
}

Point PointSampler::draw(PointStyle style) { return make(style, nullptr); }

Point PointSampler::draw_keyed(double narrowing, uint64_t key_offset) {
  return make(PointStyle::Spread, nullptr, std::numeric_limits<double>::quiet_NaN(), false,
              {.narrowing = narrowing_scale(narrowing), .keyed = true, .key_offset = key_offset});
}

Point PointSampler::draw_keyed_largest() {
  return make(PointStyle::Largest, nullptr, std::numeric_limits<double>::quiet_NaN(), false, {.keyed = true});
}

Point PointSampler::draw_narrowed(double scale) {
  return make(PointStyle::Spread, nullptr, std::numeric_limits<double>::quiet_NaN(), false, {.narrowing = narrowing_scale(scale)});
}

Point PointSampler::around(const std::vector<WitnessValue>& fixed) { return make(PointStyle::Spread, &fixed); }

Point PointSampler::uniform(double t) { return make(PointStyle::Spread, nullptr, std::clamp(t, 0.0, 1.0)); }

Point PointSampler::crossed(double t) { return make(PointStyle::Spread, nullptr, std::clamp(t, 0.0, 1.0), true); }

double PointSampler::input_value(expr::ExprId sym, const exec::SymbolOrigin& o, PointStyle style, double common, double fraction,
                                 const SpreadDraw& how) {
  const exec::TensorSpec& t = ex_.prep().tensors()[static_cast<size_t>(o.tensor)];
  const expr::Range* range = ex_.store().symbol_info(sym).range;
  bool is_float = float_format(t.elem).has_value();
  auto [lo, hi] = range ? ends(range) : default_range(t.elem);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double u = how.keyed ? keyed_unit(seed_ + how.key_offset, cell_key(o.tensor, o.cell)) : unit(rng_);  // (one draw either way)
  if (!is_float || (style == PointStyle::Spread && std::isnan(fraction))) return spread_value(t.elem, {lo, hi}, u, how.narrowing);
  double x = lo + u * (hi - lo);
  if (!std::isnan(fraction)) return in_format(t.elem, lo + fraction * (hi - lo), lo, hi);
  switch (style) {
    case PointStyle::Spread: break;
    case PointStyle::Ends: x = unit(rng_) < 0.5 ? lo : hi; break;
    case PointStyle::Small: {
      // The smallest magnitudes the range holds: near 0 if it contains 0, else near its
      // end closest to 0, within 1/1000 of its width.
      double anchor = (lo <= 0 && hi >= 0) ? 0.0 : (std::fabs(lo) < std::fabs(hi) ? lo : hi);
      x = anchor + (unit(rng_) - 0.5) * (hi - lo) * 1e-3;
      break;
    }
    case PointStyle::NearlyEqual: case PointStyle::NearlyEqualLargest: x = common + (unit(rng_) - 0.5) * (hi - lo) * 1e-4; break;
    case PointStyle::Largest: return largest_value(t.elem, {lo, hi});
  }
  return in_format(t.elem, std::clamp(x, lo, hi), lo, hi);
}

Point PointSampler::make(PointStyle style, const std::vector<WitnessValue>* fixed, double fraction, bool alternate, SpreadDraw how) {
  std::map<std::pair<int, int64_t>, mpq_class> given;
  if (fixed)
    for (const WitnessValue& w : *fixed) given[{w.tensor, w.cell}] = w.value;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::map<int, double> common;  // per tensor, for NearlyEqual
  Point p;
  p.ex = &ex_;
  p.symbols = symbols_;
  uint64_t made = 0;
  for (uint32_t index : *symbols_) {
    if (++made % kCellsBetweenLimitChecks == 0) ex_.session().check_limits();  // (millions of symbols)
    expr::ExprId sym{index};
    const exec::SymbolOrigin o = *ex_.session().origin(sym);
    if (o.kind == exec::SymbolOrigin::Kind::InputCell && o.tensor >= 0) {
      auto g = given.empty() ? given.end() : given.find({o.tensor, o.cell});
      if (g != given.end()) {
        // The witness's value as its cell holds it, so the emulation runs at this very point.
        const exec::TensorSpec& t = ex_.prep().tensors()[static_cast<size_t>(o.tensor)];
        if (float_format(t.elem)) p.at.set(sym, in_format(t.elem, g->second.get_d(), -INFINITY, INFINITY));
        else p.at.set(sym, g->second);
      } else {
        const expr::Range* range = ex_.store().symbol_info(sym).range;
        auto [lo, hi] = range ? ends(range) : std::pair{-2.0, 2.0};
        auto c = common.find(o.tensor);
        if (c == common.end()) {
          double centre = lo + unit(rng_) * (hi - lo);
          // Nearly equal at the largest magnitude: centred just inside that end, so that the
          // spread stays within the range.
          double end = largest_end(lo, hi), inset = (hi - lo) * 1e-4;
          if (style == PointStyle::NearlyEqualLargest) centre = end == hi ? hi - inset : lo + inset;
          c = common.emplace(o.tensor, centre).first;
        }
        bool reversed = alternate && (o.tensor + o.cell) % 2 != 0;
        p.at.set(sym, input_value(sym, o, style, c->second, reversed ? 1 - fraction : fraction, how));
      }
    } else {
      const double u = how.keyed ? keyed_unit(seed_ + how.key_offset, name_key(ex_.store().symbol_name(sym))) : unit(rng_);
      p.at.set(sym, unknown_value(u));
    }
  }
  return p;
}

std::vector<WitnessValue> Point::first_values(size_t count) const {
  std::vector<WitnessValue> out;
  if (!symbols) return out;
  for (uint32_t index : *symbols) {
    if (out.size() == count) break;
    expr::ExprId sym{index};
    const exec::SymbolOrigin o = *ex->session().origin(sym);
    WitnessValue w;
    w.name = ex->store().symbol_name(sym);
    w.tensor = o.tensor;
    w.cell = o.cell;
    w.kind = kind_name(o.kind);
    w.value = *at.value(sym);
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<WitnessValue> Point::values() const { return first_values(size()); }

ConcreteInputs Point::concrete() const {
  ConcreteInputs in;
  if (!symbols) return in;
  const std::vector<exec::TensorSpec>& tensors = ex->prep().tensors();
  in.cells.resize(tensors.size());
  uint64_t made = 0;
  for (uint32_t index : *symbols) {
    if (++made % kCellsBetweenLimitChecks == 0) ex->session().check_limits();
    expr::ExprId sym{index};
    const exec::SymbolOrigin o = *ex->session().origin(sym);
    if (o.kind == exec::SymbolOrigin::Kind::InputCell && o.tensor >= 0 && static_cast<size_t>(o.tensor) < tensors.size() && o.cell >= 0) {
      // (As concrete_inputs reads the same point's values(): only input tensors' cells count.)
      const exec::TensorSpec& t = tensors[static_cast<size_t>(o.tensor)];
      if (t.init != exec::TensorInit::Input || static_cast<uint64_t>(o.cell) >= t.cell_count()) continue;
      std::vector<uint64_t>& cells = in.cells[static_cast<size_t>(o.tensor)];
      if (cells.empty()) cells.assign(t.cell_count(), 0);
      std::optional<double> d = at.exact_double(sym);
      cells[static_cast<size_t>(o.cell)] = d ? cell_bits(t.elem, *d) : cell_bits(t.elem, *at.value(sym));
    } else {
      in.unknowns[ex->store().symbol_name(sym)] = *at.value(sym);
    }
  }
  return in;
}

}  // namespace racer::check
