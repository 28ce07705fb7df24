#include "ptx/modifiers.hpp"

#include <charconv>
#include <initializer_list>
#include <vector>

#include "ptx/name_map.hpp"
#include "ptx/vocabulary.hpp"

namespace racer::ptx {
namespace {

struct Group {
  std::string_view name;
  std::vector<std::string_view> values;
};

const std::array<Group, kModCount>& groups() {
  static const std::array<Group, kModCount> g = {{
      {"rounding", {"rn", "rz", "rm", "rp", "rna", "rs", "rni", "rzi", "rmi", "rpi", "approx", "full"}},
      {"ftz", {"ftz"}},
      {"saturation", {"sat", "satfinite"}},
      {"relu", {"relu"}},
      {"NaN", {"NaN"}},
      {"xorsign", {"xorsign"}},
      {"abs", {"abs"}},
      {"carry", {"cc"}},
      {"mode", {"lo", "hi", "wide"}},
      {"comparison", {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu",
                      "geu", "num", "nan"}},
      {"boolean operation", {"and", "or", "xor"}},
      {"memory semantics", {"weak", "volatile", "relaxed", "acquire", "release", "acq_rel", "sc", "mmio"}},
      {"scope", {"cta", "cluster", "gpu", "sys", "gl"}},
      {"state space", {"global", "shared", "shared::cta", "shared::cluster", "local", "param", "param::entry",
                       "param::func", "const", "generic", "tex"}},
      {"second state space", {"global", "shared", "shared::cta", "shared::cluster", "local", "param", "const"}},
      {"to", {"to"}},
      {"nc", {"nc"}},
      {"cache operator", {"ca", "cg", "cs", "lu", "cv", "wb", "wt"}},
      {"L1 eviction", {"L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
                       "L1::no_allocate"}},
      {"L2 eviction", {"L2::evict_first", "L2::evict_last", "L2::evict_normal"}},
      {"cache hint", {"L2::cache_hint"}},
      {"prefetch size", {"L2::64B", "L2::128B", "L2::256B"}},
      {"vector", {"v2", "v4", "v8"}},
      {"atomic operation", {"and", "or", "xor", "cas", "exch", "add", "inc", "dec", "min", "max"}},
      {"uni", {"uni"}},
      {"sync", {"sync"}},
      {"aligned", {"aligned"}},
      {"shuffle mode", {"up", "down", "bfly", "idx"}},
      {"vote mode", {"all", "any", "uni", "ballot"}},
      {"reduction", {"popc", "and", "or"}},
      {"layout", {"row", "col"}},
      {"second layout", {"row", "col"}},
      {"matrix", {"a", "b", "c", "d"}},
      {"count", {"x1", "x2", "x4"}},
      {"trans", {"trans"}},
      {"proxy kind", {"alias", "async", "tensormap::generic"}},
      {"inc/dec", {"inc", "dec"}},
      {"permute mode", {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}},
      {"shift direction", {"l", "r"}},
      {"shift mode", {"clamp", "wrap"}},
      {"shiftamt", {"shiftamt"}},
      {"test", {"finite", "infinite", "number", "notanumber", "normal", "subnormal"}},
      {"match mode", {"any", "all"}},
      {"expect_tx", {"expect_tx"}},
      {"parity", {"parity"}},
      {"noinc", {"noinc"}},
      {"noComplete", {"noComplete"}},
      {"dimension", {"1d", "2d", "3d", "4d", "5d"}},
      {"load mode", {"tile", "im2col"}},
      {"completion", {"mbarrier::complete_tx::bytes", "bulk_group"}},
      {"multicast", {"multicast::cluster"}},
      {"read", {"read"}},
      {"level", {"L1", "L2"}},
      {"arrive", {"arrive"}},
      {"cache policy", {"fractional", "range", "cvt"}},
      {"secondary L2 eviction", {"L2::evict_unchanged"}},
      {"noftz", {"noftz"}},
      {"shape", {}},
  }};
  return g;
}

bool parse_dim(std::string_view& s, char letter, uint16_t& out) {
  if (s.empty() || s[0] != letter) return false;
  s.remove_prefix(1);
  unsigned v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data() || v == 0 || v > 4096) return false;
  out = static_cast<uint16_t>(v);
  s.remove_prefix(static_cast<size_t>(p - s.data()));
  return true;
}

}  // namespace

std::string_view mod_group_name(Mod g) { return groups()[static_cast<size_t>(g)].name; }

std::span<const std::string_view> mod_values(Mod g) { return groups()[static_cast<size_t>(g)].values; }

std::optional<uint8_t> mod_value_index(Mod g, std::string_view value) {
  const detail::ModWord* w = detail::mod_word(value);
  if (!w || w->value[static_cast<size_t>(g)] == 0) return std::nullopt;
  return static_cast<uint8_t>(w->value[static_cast<size_t>(g)] - 1);
}

namespace detail {

const ModWord* mod_word(std::string_view word) {
  static const NameMap<ModWord> words = [] {
    NameMap<ModWord> m;
    for (size_t t = 1; t < static_cast<size_t>(Type::Count); ++t)
      m.emplace(type_name(static_cast<Type>(t)), ModWord{}).first->type = static_cast<Type>(t);
    for (size_t g = 0; g < kModCount; ++g) {
      const auto& vals = groups()[g].values;
      // The first occurrence wins, as a front-to-back search of the vocabulary would find it.
      for (size_t i = vals.size(); i-- > 0;)
        m.emplace(vals[i], ModWord{}).first->value[g] = static_cast<uint8_t>(i + 1);
    }
    return m;
  }();
  return words.find(word);
}

}  // namespace detail

std::optional<Shape> parse_shape(std::string_view s) {
  Shape sh;
  if (!parse_dim(s, 'm', sh.m) || !parse_dim(s, 'n', sh.n)) return std::nullopt;
  if (!s.empty() && !parse_dim(s, 'k', sh.k)) return std::nullopt;
  if (!s.empty()) return std::nullopt;
  return sh;
}

}  // namespace racer::ptx
