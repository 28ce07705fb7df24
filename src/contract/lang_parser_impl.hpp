#pragma once
// The recursive-descent parser's state and helpers, shared by the files that parse the
// contract body (lang_parser.cpp) and its parts (lang_parse_parts.cpp). Internal.
#include <string>
#include <string_view>
#include <vector>

#include "contract/lang_ast.hpp"
#include "contract/lang_lexer.hpp"
#include "support/diagnostics.hpp"

namespace racer::contract::detail {

// Thrown to abandon the current part after its error was recorded; the body loop
// resynchronizes at the next part keyword.
struct Resync {};

class Parser {
 public:
  Parser(const SourceText& src, Diagnostics& diags, std::vector<Token> toks)
      : src_(src), diags_(diags), toks_(std::move(toks)) {}

  ContractFile file();

  // --- token helpers ---
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  const Token& next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool at_punct(std::string_view p) const { return peek().kind == Tok::Punct && peek().text == p; }
  bool at_word(std::string_view w) const { return peek().kind == Tok::Ident && peek().text == w; }
  bool accept_punct(std::string_view p);
  bool accept_word(std::string_view w);
  void expect_punct(std::string_view p, std::string_view context);
  void expect_word(std::string_view w, std::string_view context);
  Name ident(std::string_view what);
  Name string(std::string_view what);
  [[noreturn]] void fail(const Token& t, const std::string& message);
  [[noreturn]] void fail_expected(std::string_view what);
  Span span_from(size_t start_offset) const;

  // --- parts (lang_parse_parts.cpp) ---
  Quantity quantity();
  std::vector<Quantity> quantity_tuple(std::string_view what);  // (q, q, ...) or a single q
  Predicate predicate();
  Relation relation();
  Tolerance tolerance();
  Reference reference();
  Step step();
  std::vector<Name> name_set(std::string_view what);  // { A, B, ... }
  std::vector<Name> name_list(std::string_view what);  // ( a, b, ... )

 private:
  Contract contract();
  void body_item(Contract& c);
  Impl impl();
  void impl_items(Impl& im);
  LaunchDecl launch();
  TensorDecl tensor();
  void skip_to_part();
  Name contract_id();
  const Token& toks_at_last() const;
  Quantity term();
  Quantity factor();
  Quantity unary();
  Quantity primary();

  const SourceText& src_;
  Diagnostics& diags_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;  // nesting of quantities and tolerances, bounded so no input overflows the stack

 public:
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > 100) p.fail(p.peek(), "nesting deeper than 100 levels");
    }
    ~DepthGuard() { --p.depth_; }
  };
};

}  // namespace racer::contract::detail
