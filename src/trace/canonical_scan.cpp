#include "trace/canonical_scan.hpp"

namespace racer::trace {
namespace {

enum Outcome { Ok, Bad, Unsure };

// Bytes that stand for themselves inside a canonical string: printable ASCII but '"' and '\\'.
struct PlainTable {
  bool t[256] = {};
  constexpr PlainTable() {
    for (int c = 0x20; c < 0x7f; ++c) t[c] = c != '"' && c != '\\';
  }
  constexpr bool operator[](unsigned char c) const { return t[c]; }
};
constexpr PlainTable kPlain;

struct Scanner {
  std::string_view s;
  size_t i = 0;

  bool at(char c) const { return i < s.size() && s[i] == c; }
  static bool lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

  // A string as nlohmann dumps it; `escaped` tells whether it used any escape.
  Outcome string(bool& escaped) {
    escaped = false;
    if (!at('"')) return Bad;
    for (++i; i < s.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (kPlain[c]) continue;  // the common case: one table lookup a byte
      if (c == '"') {
        ++i;
        return Ok;
      }
      if (c < 0x20) return Bad;     // raw control characters are not JSON
      if (c >= 0x80) return Unsure;  // UTF-8: leave to the full parser
      if (c != '\\') continue;
      escaped = true;
      if (++i >= s.size()) return Bad;
      char e = s[i];
      if (e == '"' || e == '\\' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') continue;
      if (e != 'u' || i + 4 >= s.size() || s[i + 1] != '0' || s[i + 2] != '0' || !lower_hex(s[i + 3]) || !lower_hex(s[i + 4]))
        return Unsure;
      int v = (s[i + 3] - '0') * 16 + (s[i + 4] <= '9' ? s[i + 4] - '0' : s[i + 4] - 'a' + 10);
      if (v >= 0x20 || v == 8 || v == 9 || v == 10 || v == 12 || v == 13) return Unsure;
      i += 4;
    }
    return Bad;
  }

  Outcome number() {
    size_t start = i;
    if (at('-')) ++i;
    size_t digits = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    size_t count = i - digits;
    if (count == 0) return Bad;
    if (i < s.size() && (s[i] == '.' || s[i] == 'e' || s[i] == 'E')) return Unsure;  // a float
    if (count > 18 || (s[digits] == '0' && count > 1) || (s[start] == '-' && s[digits] == '0')) return Unsure;
    return Ok;
  }

  Outcome literal(std::string_view word) {
    if (s.substr(i, word.size()) != word) return Bad;
    i += word.size();
    return Ok;
  }

  Outcome value(int depth, ScanResult* top);

  Outcome array(int depth) {
    ++i;
    if (at(']')) return ++i, Ok;
    for (;;) {
      if (Outcome o = value(depth + 1, nullptr); o != Ok) return o;
      if (at(']')) return ++i, Ok;
      if (!at(',')) return Bad;
      ++i;
    }
  }

  Outcome object(int depth, ScanResult* top) {
    ++i;
    if (at('}')) return ++i, Ok;
    std::string_view previous;
    for (bool first = true;; first = false) {
      size_t member_begin = i;
      bool escaped = false;
      if (Outcome o = string(escaped); o != Ok) return o;
      if (escaped) return Unsure;  // keys are ordered unescaped: leave to the full parser
      std::string_view key = s.substr(member_begin + 1, i - member_begin - 2);
      if (!first && !(previous < key)) return Bad;  // unsorted or duplicated
      previous = key;
      if (!at(':')) return Bad;
      ++i;
      size_t value_begin = i;
      if (Outcome o = value(depth + 1, nullptr); o != Ok) return o;
      if (top) {
        Member* m = key == "seq" ? &top->seq : key == "prev" ? &top->prev : key == "key" ? &top->key : key == "sig" ? &top->sig : nullptr;
        if (m) *m = {s.substr(value_begin, i - value_begin), member_begin, i, true};
      }
      if (at('}')) return ++i, Ok;
      if (!at(',')) return Bad;
      ++i;
    }
  }
};

Outcome Scanner::value(int depth, ScanResult* top) {
  if (depth > 64 || i >= s.size()) return depth > 64 ? Unsure : Bad;
  switch (s[i]) {
    case '{': return object(depth, top);
    case '[': return array(depth);
    case '"': {
      bool escaped;
      return string(escaped);
    }
    case 't': return literal("true");
    case 'f': return literal("false");
    case 'n': return literal("null");
    default: return number();
  }
}

}  // namespace

ScanResult scan_record(std::string_view line) {
  ScanResult r;
  Scanner sc{line};
  if (!sc.at('{')) {
    r.status = ScanResult::NotCanonical;
    return r;
  }
  Outcome o = sc.value(0, &r);
  if (o == Ok && sc.i != line.size()) o = Bad;
  r.status = o == Ok ? ScanResult::Canonical : o == Bad ? ScanResult::NotCanonical : ScanResult::Unsure;
  return r;
}

}  // namespace racer::trace
