#include <algorithm>
#include <array>

#include "instance/loaders.hpp"
#include "instance/spelling.hpp"

namespace racer::instance {
namespace {

constexpr std::array<std::string_view, 4> kVerdicts = {"equivalent", "inequivalent", "not_equivalent", "equal_up_to_rounding"};

bool contains(std::span<const std::string_view> names, std::string_view s) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

std::optional<ExpectedDefect> load_defect(TomlReader& r, const toml::node& n) {
  auto s = r.string(n, "a diagnostic");
  if (!s) return std::nullopt;
  size_t colon = s->find(':');
  if (colon != 1 || ((*s)[0] != 'a' && (*s)[0] != 'b')) {
    r.error(n, "diagnostic '" + *s + "' must be program:kind with program a or b, e.g. \"a:race\"");
    return std::nullopt;
  }
  std::string kind = s->substr(2);
  if (!contains(defect_kind_names(), kind)) {
    r.error(n, "unknown diagnostic kind '" + kind + "'" + suggestion(kind, defect_kind_names()));
    return std::nullopt;
  }
  return ExpectedDefect{(*s)[0], kind};
}

}  // namespace

std::optional<Expect> load_expect(TomlReader& r, const toml::node& node) {
  const toml::table* tbl = r.table(node, "'expect'");
  if (!tbl) return std::nullopt;
  Expect e;
  e.loc = r.loc(node);
  r.check_keys(*tbl, {"verdict", "diagnostics", "category"}, "[expect]");
  if (const toml::node* n = r.require(*tbl, "verdict", "[expect]")) {
    if (auto s = r.string(*n, "'verdict'")) {
      auto it = std::find(kVerdicts.begin(), kVerdicts.end(), *s);
      if (it == kVerdicts.end()) r.error(*n, "unknown verdict '" + *s + "'" + suggestion(*s, kVerdicts));
      else e.verdict = static_cast<Verdict>(it - kVerdicts.begin());
    }
  }
  if (const toml::node* n = tbl->get("diagnostics")) {
    if (const toml::array* a = r.array(*n, "'diagnostics'")) {
      for (const toml::node& d : *a) {
        auto defect = load_defect(r, d);
        if (!defect) continue;
        if (std::find(e.diagnostics.begin(), e.diagnostics.end(), *defect) != e.diagnostics.end())
          r.error(d, "diagnostic '" + std::string(1, defect->program) + ":" + defect->kind + "' is listed twice");
        else
          e.diagnostics.push_back(std::move(*defect));
      }
    }
  }
  if (const toml::node* n = tbl->get("category")) {
    if (auto s = r.string(*n, "'category'")) {
      if (!contains(category_names(), *s)) r.error(*n, "unknown category '" + *s + "'" + suggestion(*s, category_names()));
      else e.category = *s;
    }
  }
  return e;
}

}  // namespace racer::instance
