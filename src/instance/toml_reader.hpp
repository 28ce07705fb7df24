#pragma once
// Typed, located access to a parsed TOML document. Every getter that finds the wrong thing
// records an error at the offending node and returns nothing, so the loader can keep going
// and report every problem of a file in one pass. Internal to the instance layer.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <toml++/toml.h>
#include <utility>
#include <vector>

#include "instance/instance.hpp"
#include "support/diagnostics.hpp"
#include "support/source_text.hpp"

namespace racer::instance {

class TomlReader {
 public:
  TomlReader(const SourceText& src, Diagnostics& diags) : src_(src), diags_(diags) {}

  const SourceText& source() const { return src_; }
  Diagnostics& diagnostics() { return diags_; }

  SourceLoc loc(const toml::source_region& r) const;
  SourceLoc loc(const toml::node& n) const { return loc(n.source()); }
  SourceLoc loc(const toml::key& k) const { return loc(k.source()); }
  size_t offset(const toml::source_position& p) const;

  void error(const SourceLoc& at, std::string message);
  void error(const toml::node& at, std::string message) { error(loc(at), std::move(message)); }
  void error(const toml::key& at, std::string message) { error(loc(at), std::move(message)); }

  // Entries in the order they were written (toml++ iterates tables sorted by key).
  std::vector<std::pair<const toml::key*, const toml::node*>> entries(const toml::table& t) const;

  // Reports every key of `t` not in `allowed` as "unknown key 'k' in <where>".
  void check_keys(const toml::table& t, std::initializer_list<std::string_view> allowed, std::string_view where);
  // The value of a key that must be present; reports "<where> is missing required key 'k'".
  const toml::node* require(const toml::table& t, std::string_view key, std::string_view where);

  // `what` names the value in messages, e.g. "'shape'" -> "'shape' must be an array, not a string".
  const toml::table* table(const toml::node& n, std::string_view what);
  const toml::array* array(const toml::node& n, std::string_view what);
  std::optional<std::string> string(const toml::node& n, std::string_view what);
  std::optional<int64_t> integer(const toml::node& n, std::string_view what);
  std::optional<bool> boolean(const toml::node& n, std::string_view what);
  // An integer or float (or, if allow_bool, a boolean as 0/1), with its exact written text.
  std::optional<Number> number(const toml::node& n, std::string_view what, bool allow_bool = false);

  static std::string_view type_name(const toml::node& n);  // "a string", "an array", ...

 private:
  std::string_view raw_text(const toml::source_region& r) const;

  const SourceText& src_;
  Diagnostics& diags_;
};

}  // namespace racer::instance
