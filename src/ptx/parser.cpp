#include <charconv>

#include "ptx/parser_impl.hpp"
#include "support/error.hpp"

namespace racer::ptx {
namespace detail {

Parser::Parser(const SourceText& src) : src_(src), toks_(lex(src.text())) { map_.path = src.path(); }

ParsedModule Parser::run() {
  parse_module();
  diags_.throw_if_any();
  return {std::move(module_), std::move(map_)};
}

bool Parser::accept(Tok k) {
  if (!at(k)) return false;
  take();
  return true;
}

const Token& Parser::expect(Tok k, std::string_view what) {
  if (!at(k)) {
    const Token& t = peek();
    std::string found = t.kind == Tok::End ? "end of file" : "'" + std::string(t.text) + "'";
    if (t.kind == Tok::Error) found = std::string(lex_error_reason(t)) + " '" + std::string(t.text) + "'";
    fail(t, "expected " + std::string(what) + ", found " + found);
  }
  return take();
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

int64_t Parser::parse_int(const Token& t) {
  std::string_view s = t.text;
  if (!s.empty() && s.back() == 'U') s.remove_suffix(1);
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

std::optional<uint32_t> Parser::find_reg(std::string_view name) const {
  std::string key(name);
  for (int s = scope_; s >= 0; s = scopes_[s].parent) {
    auto it = scopes_[s].regs.find(key);
    if (it != scopes_[s].regs.end()) return it->second;
  }
  return std::nullopt;
}

std::optional<Operand> Parser::find_symbol(const Function& f, std::string_view name) const {
  std::string key(name);
  Operand op;
  op.kind = Operand::Kind::Symbol;
  for (int s = scope_; s >= 0; s = scopes_[s].parent) {
    auto it = scopes_[s].vars.find(key);
    if (it != scopes_[s].vars.end()) {
      op.symbol_kind = SymbolKind::LocalVar;
      op.index = it->second;
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
  if (auto it = module_vars_.find(key); it != module_vars_.end()) {
    op.symbol_kind = SymbolKind::ModuleVar;
    op.index = it->second;
    return op;
  }
  if (auto it = functions_.find(key); it != functions_.end()) {
    op.symbol_kind = SymbolKind::Function;
    op.index = it->second;
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
