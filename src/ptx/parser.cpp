#include <algorithm>
#include <charconv>
#include <cstring>

#include "ptx/parser_impl.hpp"
#include "support/error.hpp"

namespace racer::ptx {
namespace detail {

Parser::Parser(const SourceText& src) : src_(src), toks_(lex(src.text(), line_starts_)) { map_.path = src.path(); }

ParsedModule Parser::run() {
  parse_module();
  diags_.throw_if_any();
  return {std::move(module_), std::move(map_)};
}

void Parser::expect_failed(std::string_view what) {
  const Token& t = peek();
  std::string found = t.kind == Tok::End ? "end of file" : "'" + std::string(t.text) + "'";
  if (t.kind == Tok::Error) found = std::string(lex_error_reason(t)) + " '" + std::string(t.text) + "'";
  fail(t, "expected " + std::string(what) + ", found " + found);
}

bool Parser::adjacent_next() const {
  const Token& a = peek();
  const Token& b = peek(1);
  return b.kind != Tok::End && b.offset == a.offset + a.text.size();
}

void Parser::fail(const Token& at, const std::string& message) {
  error(at, message);
  throw Recover{};
}

void Parser::error(const Token& at, const std::string& message) {
  diags_.error(src_, at.offset, std::max<size_t>(1, at.text.size()), message);
}

void Parser::skip_statement() {
  int depth = 0;
  while (!at(Tok::End)) {
    Tok k = peek().kind;
    if (k == Tok::LBrace) ++depth;
    if (k == Tok::RBrace) {
      if (depth == 0) return;
      --depth;
    }
    take();
    if (k == Tok::Semi && depth == 0) return;
  }
}

LineCol Parser::locate(uint32_t offset) {
  const std::vector<uint32_t>& starts = line_starts_;
  if (offset < starts[line_])
    line_ = static_cast<uint32_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin()) - 1;
  while (line_ + 1 < starts.size() && starts[line_ + 1] <= offset) ++line_;
  return {line_ + 1, offset - starts[line_] + 1};
}

void Parser::arena_grow(size_t n) {
  size_t chunk = std::max<size_t>(n, 16 * 1024);
  arena_.push_back(std::make_unique_for_overwrite<char[]>(chunk));
  arena_next_ = arena_.back().get();
  arena_left_ = chunk;
}

std::string_view Parser::intern(std::string_view s) {
  if (s.empty()) return {};
  char* p = arena_alloc(s.size());
  std::memcpy(p, s.data(), s.size());
  return {p, s.size()};
}

int64_t Parser::parse_int(const Token& t) {
  std::string_view s = t.text;
  if (!s.empty() && s.back() == 'U') s.remove_suffix(1);
  // Plain decimal of at most 19 digits (cannot overflow 64 bits): the common case.
  if (!s.empty() && s.size() <= 19 && (s[0] != '0' || s.size() == 1)) {
    uint64_t v = 0;
    bool digits = true;
    for (char c : s) {
      if (c < '0' || c > '9') {
        digits = false;
        break;
      }
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (digits) return static_cast<int64_t>(v);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s.remove_prefix(2);
  else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s.remove_prefix(2);
  else if (s.size() > 1 && s[0] == '0') base = 8, s.remove_prefix(1);
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) fail(t, "integer literal out of range: '" + std::string(t.text) + "'");
  return static_cast<int64_t>(v);  // PTX literals are 64-bit; values above 2^63 wrap as unsigned
}

uint64_t Parser::parse_uint_token(std::string_view what) {
  const Token& t = expect(Tok::Int, what);
  return static_cast<uint64_t>(parse_int(t));
}

std::optional<Operand> Parser::find_symbol(const Function& f, std::string_view name) const {
  uint32_t hash = name_hash(name);
  Operand op;
  op.kind = Operand::Kind::Symbol;
  for (int s = scope_; s >= 0; s = scopes_[s].parent) {
    if (const uint32_t* v = scopes_[s].vars.find(name, hash)) {
      op.symbol_kind = SymbolKind::LocalVar;
      op.index = *v;
      return op;
    }
  }
  for (size_t i = 0; i < f.params.size(); ++i)
    if (f.params[i].name == name) {
      op.symbol_kind = SymbolKind::Param;
      op.index = static_cast<uint32_t>(i);
      return op;
    }
  for (size_t i = 0; i < f.returns.size(); ++i)
    if (f.returns[i].name == name) {
      // Return parameters share the param namespace; they are numbered after the inputs.
      op.symbol_kind = SymbolKind::Param;
      op.index = static_cast<uint32_t>(f.params.size() + i);
      return op;
    }
  if (const uint32_t* v = module_vars_.find(name, hash)) {
    op.symbol_kind = SymbolKind::ModuleVar;
    op.index = *v;
    return op;
  }
  if (const uint32_t* v = functions_.find(name, hash)) {
    op.symbol_kind = SymbolKind::Function;
    op.index = *v;
    return op;
  }
  return std::nullopt;
}

}  // namespace detail

ParsedModule parse_ptx(const SourceText& src) { return detail::Parser(src).run(); }

ParsedModule parse_ptx_file(const std::string& path) {
  SourceText src = SourceText::load(path);
  return parse_ptx(src);
}

}  // namespace racer::ptx
