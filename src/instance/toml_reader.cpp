#include "instance/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "instance/spelling.hpp"

namespace racer::instance {
namespace {

bool is_decimal_literal(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (!digits()) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && s[i] == '-') ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

}  // namespace

size_t TomlReader::offset(const toml::source_position& p) const {
  const std::string& text = src_.text();
  if (p.line == 0) return 0;
  std::string_view line = src_.line(p.line);
  if (line.data() == nullptr) return text.size();
  // toml++ counts columns in code points; the diagnostics want bytes.
  size_t at = static_cast<size_t>(line.data() - text.data());
  for (uint32_t c = 1; c < p.column && at < text.size(); ++c) {
    ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
  }
  return at;
}

SourceLoc TomlReader::loc(const toml::source_region& r) const {
  SourceLoc l;
  l.file = src_.path();
  l.offset = offset(r.begin);
  LineCol lc = src_.locate(std::min(l.offset, src_.text().size()));
  l.line = lc.line;
  l.col = lc.col;
  // Underline a value that sits on one line; a multi-line one gets a plain caret at its start.
  if (r.end.line == r.begin.line && r.end.column > r.begin.column) l.width = offset(r.end) - l.offset;
  return l;
}

void TomlReader::error(const SourceLoc& at, std::string message) {
  diags_.error(src_, at.offset, at.width, std::move(message));
}

std::vector<std::pair<const toml::key*, const toml::node*>> TomlReader::entries(const toml::table& t) const {
  std::vector<std::pair<const toml::key*, const toml::node*>> out;
  for (const auto& [k, v] : t) out.emplace_back(&k, &v);
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    const auto& a = x.first->source().begin;
    const auto& b = y.first->source().begin;
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  return out;
}

void TomlReader::check_keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                            std::string_view where) {
  std::span<const std::string_view> names(allowed.begin(), allowed.size());
  for (const auto& [k, v] : entries(t)) {
    if (std::find(names.begin(), names.end(), k->str()) != names.end()) continue;
    error(*k, "unknown key '" + std::string(k->str()) + "' in " + std::string(where) + suggestion(k->str(), names));
  }
}

const toml::node* TomlReader::require(const toml::table& t, std::string_view key, std::string_view where) {
  if (const toml::node* n = t.get(key)) return n;
  error(t, std::string(where) + " is missing required key '" + std::string(key) + "'");
  return nullptr;
}

std::string_view TomlReader::type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "nothing";
  }
}

const toml::table* TomlReader::table(const toml::node& n, std::string_view what) {
  if (const toml::table* t = n.as_table()) return t;
  error(n, std::string(what) + " must be a table, not " + std::string(type_name(n)));
  return nullptr;
}

const toml::array* TomlReader::array(const toml::node& n, std::string_view what) {
  if (const toml::array* a = n.as_array()) return a;
  error(n, std::string(what) + " must be an array, not " + std::string(type_name(n)));
  return nullptr;
}

std::optional<std::string> TomlReader::string(const toml::node& n, std::string_view what) {
  if (const auto* s = n.as_string()) return s->get();
  error(n, std::string(what) + " must be a string, not " + std::string(type_name(n)));
  return std::nullopt;
}

std::optional<int64_t> TomlReader::integer(const toml::node& n, std::string_view what) {
  if (const auto* i = n.as_integer()) return i->get();
  error(n, std::string(what) + " must be an integer, not " + std::string(type_name(n)));
  return std::nullopt;
}

std::optional<bool> TomlReader::boolean(const toml::node& n, std::string_view what) {
  if (const auto* b = n.as_boolean()) return b->get();
  error(n, std::string(what) + " must be a boolean, not " + std::string(type_name(n)));
  return std::nullopt;
}

std::string_view TomlReader::raw_text(const toml::source_region& r) const {
  if (r.begin.line != r.end.line) return {};
  size_t b = offset(r.begin), e = offset(r.end);
  if (e <= b || e > src_.text().size()) return {};
  return std::string_view(src_.text()).substr(b, e - b);
}

std::optional<Number> TomlReader::number(const toml::node& n, std::string_view what, bool allow_bool) {
  if (const auto* i = n.as_integer()) return Number::from_int(i->get());
  if (allow_bool) {
    if (const auto* b = n.as_boolean()) return Number::from_int(b->get() ? 1 : 0);
  }
  const auto* f = n.as_floating_point();
  if (!f) {
    error(n, std::string(what) + " must be a number, not " + std::string(type_name(n)));
    return std::nullopt;
  }
  double d = f->get();
  if (std::isnan(d)) {
    error(n, std::string(what) + " must be a number, not nan");
    return std::nullopt;
  }
  Number num;
  num.value = d;
  if (std::isinf(d)) {
    num.text = d < 0 ? "-inf" : "inf";
    return num;
  }
  // The written digits are the exact value; the double is only an approximation of it.
  for (char c : raw_text(n.source()))
    if (c != '_' && c != '+') num.text += c;
  if (!is_decimal_literal(num.text)) {
    char buf[32];  // unreachable for parsed files; keeps a value built some other way usable
    std::snprintf(buf, sizeof buf, "%.17g", d);
    num.text = buf;
  }
  return num;
}

}  // namespace racer::instance
