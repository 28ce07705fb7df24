#include "contract/lang_parser.hpp"

#include <algorithm>

#include "contract/lang_parser_impl.hpp"

namespace racer::contract {

const std::vector<std::string>& part_keywords() {
  static const std::vector<std::string> k = {"scope",   "param",     "tensor",  "pre",     "post",
                                             "tolerance", "derivation", "reference", "measure", "visible",
                                             "violation", "impl"};
  return k;
}

const Impl* Contract::find_impl(const std::string& n) const {
  for (const Impl& i : impls)
    if (i.name.text == n) return &i;
  return nullptr;
}
const TensorDecl* Contract::find_tensor(const std::string& n) const {
  for (const TensorDecl& t : tensors)
    if (t.name.text == n) return &t;
  return nullptr;
}
const Param* Contract::find_param(const std::string& n) const {
  for (const Param& p : params)
    if (p.name.text == n) return &p;
  return nullptr;
}

ContractFile parse_contracts(const SourceText& src, Diagnostics& diags) {
  size_t before = diags.items().size();
  std::vector<Token> toks = lex_contract(src, diags);
  bool unreadable = diags.items().size() > before;
  detail::Parser p(src, diags, std::move(toks));
  ContractFile f = p.file();
  f.unreadable = unreadable;
  return f;
}

namespace detail {

bool Parser::accept_punct(std::string_view p) {
  if (!at_punct(p)) return false;
  next();
  return true;
}
bool Parser::accept_word(std::string_view w) {
  if (!at_word(w)) return false;
  next();
  return true;
}
void Parser::expect_punct(std::string_view p, std::string_view context) {
  if (!accept_punct(p)) fail_expected("'" + std::string(p) + "' " + std::string(context));
}
void Parser::expect_word(std::string_view w, std::string_view context) {
  if (!accept_word(w)) fail_expected("'" + std::string(w) + "' " + std::string(context));
}

void Parser::fail(const Token& t, const std::string& message) {
  diags_.error(src_, t.offset, t.width, message);
  throw Resync{};
}

void Parser::fail_expected(std::string_view what) {
  const Token& t = peek();
  std::string found = t.kind == Tok::End ? "end of file" : t.kind == Tok::String ? "a string" : "'" + t.text + "'";
  fail(t, "expected " + std::string(what) + ", found " + found);
}

Span Parser::span_from(size_t start) const {
  size_t end = pos_ > 0 ? toks_[pos_ - 1].offset + toks_[pos_ - 1].width : start + 1;
  return {start, end > start ? end - start : 1};
}

Name Parser::ident(std::string_view what) {
  if (peek().kind != Tok::Ident) fail_expected(what);
  const Token& t = next();
  return {t.text, {t.offset, t.width}};
}

Name Parser::string(std::string_view what) {
  if (peek().kind != Tok::String) fail_expected(what);
  const Token& t = next();
  return {t.text, {t.offset, t.width}};
}

// C-PRC-01: identifier pieces written without spaces between them form one identifier.
Name Parser::contract_id() {
  if (peek().kind != Tok::Ident) fail_expected("a contract identifier such as C-PRC-01");
  Name n{next().text, {peek().offset, 1}};
  n.at.offset = toks_[pos_ - 1].offset;
  size_t end = n.at.offset + n.text.size();
  while (peek().kind != Tok::End && peek().offset == end && (peek().kind == Tok::Ident || peek().kind == Tok::Number || at_punct("-"))) {
    n.text += peek().text;
    end += peek().width;
    next();
  }
  n.at.width = end - n.at.offset;
  return n;
}

void Parser::skip_to_part() {
  const auto& kw = part_keywords();
  while (peek().kind != Tok::End) {
    if (at_punct("}")) return;
    if (peek().kind == Tok::Ident && std::find(kw.begin(), kw.end(), peek().text) != kw.end()) return;
    if (at_word("contract")) return;
    next();
  }
}

ContractFile Parser::file() {
  ContractFile f;
  while (peek().kind != Tok::End && !diags_.full()) {
    if (!at_word("contract")) {
      diags_.error(src_, peek().offset, peek().width, "expected 'contract', found '" + peek().text + "'");
      next();
      while (peek().kind != Tok::End && !at_word("contract")) next();
      continue;
    }
    f.contracts.push_back(contract());
  }
  if (f.contracts.empty() && diags_.empty()) diags_.error(src_, 0, 1, "the file holds no contract");
  return f;
}

Contract Parser::contract() {
  Contract c;
  size_t start = peek().offset;
  size_t errors_before = diags_.items().size();
  next();  // contract
  try {
    c.id = contract_id();
    expect_punct("{", "to open the contract body");
  } catch (const Resync&) {
    while (peek().kind != Tok::End && !at_punct("{") && !at_word("contract")) next();
    if (!accept_punct("{")) {
      c.incomplete = true;
      return c;
    }
  }
  while (peek().kind != Tok::End && !at_punct("}") && !at_word("contract") && !diags_.full()) {
    try {
      body_item(c);
    } catch (const Resync&) {
      if (peek().kind != Tok::End && !at_punct("}")) next();
      skip_to_part();
    }
  }
  if (!accept_punct("}")) diags_.error(src_, start, 8, "contract '" + c.id.text + "' is not closed with '}'");
  c.at = span_from(start);
  c.incomplete = diags_.items().size() > errors_before;
  return c;
}

void Parser::body_item(Contract& c) {
  const Token& kw = peek();
  if (kw.kind != Tok::Ident) fail_expected("a contract part (" + std::string("scope, pre, post, tolerance, reference, measure, violation, ...") + ")");
  std::string word = kw.text;
  Span at{kw.offset, kw.width};
  static const std::vector<std::string> once = {"scope", "post", "tolerance", "derivation", "reference", "measure", "visible", "violation", "pre"};
  if (std::find(once.begin(), once.end(), word) != once.end()) {
    auto [it, fresh] = c.parts_seen.emplace(word, at);
    if (!fresh) {
      LineCol first = src_.locate(it->second.offset);
      fail(kw, "'" + word + "' given twice in contract '" + c.id.text + "' (first at line " + std::to_string(first.line) + ")");
    }
  }
  if (word == "scope") {
    next();
    do c.scope.push_back(ident("an operator class after 'scope'"));
    while (accept_punct(","));
  } else if (word == "param") {
    next();
    Param p;
    p.name = ident("a parameter name");
    expect_punct("=", "after the parameter name");
    p.value = quantity();
    p.at = span_from(at.offset);
    c.params.push_back(std::move(p));
  } else if (word == "tensor") {
    c.tensors.push_back(tensor());
  } else if (word == "pre") {
    next();
    do c.pre.push_back(predicate());
    while (accept_word("and"));
  } else if (word == "post") {
    next();
    do c.post.push_back(relation());
    while (accept_word("and"));
  } else if (word == "tolerance") {
    next();
    c.tolerance = tolerance();
  } else if (word == "derivation") {
    next();
    c.derivation = string("the derivation as a \"string\"");
  } else if (word == "reference") {
    next();
    c.reference = reference();
  } else if (word == "measure" || word == "visible") {
    next();
    auto& steps = word == "measure" ? c.measure : c.visible;
    do steps.push_back(step());
    while (accept_punct(";"));
  } else if (word == "violation") {
    next();
    c.violation = string("the violation signature as a \"string\"");
  } else if (word == "impl") {
    c.impls.push_back(impl());
  } else {
    fail(kw, "unknown contract part '" + word + "'; expected one of scope, param, tensor, pre, post, tolerance, derivation, reference, measure, visible, violation, impl");
  }
}

TensorDecl Parser::tensor() {
  TensorDecl t;
  size_t start = next().offset;
  t.name = ident("a tensor name");
  expect_punct(":", "after the tensor name");
  t.dtype = ident("an element type (f32, f16, i32, ...)");
  expect_punct("[", "to open the tensor's shape");
  do t.shape.push_back(quantity());
  while (accept_punct(","));
  expect_punct("]", "to close the tensor's shape");
  t.role = ident("the tensor's role (input, output or scratch)");
  if (accept_word("in")) {
    expect_punct("[", "to open the value range");
    Quantity lo = quantity();
    expect_punct(",", "between the range's ends");
    Quantity hi = quantity();
    expect_punct("]", "to close the value range");
    t.range = {std::move(lo), std::move(hi)};
  }
  t.at = span_from(start);
  return t;
}

Impl Parser::impl() {
  Impl im;
  size_t start = next().offset;
  im.name = ident("an implementation name");
  expect_punct("{", "to open the implementation");
  try {
    impl_items(im);
  } catch (const Resync&) {
    im.incomplete = true;
    // Resume after this implementation's closing brace, so the next part parses normally.
    for (int depth = 0; peek().kind != Tok::End; next()) {
      if (at_punct("{")) ++depth;
      if (at_punct("}") && depth-- == 0) break;
    }
  }
  accept_punct("}");
  im.at = span_from(start);
  return im;
}

void Parser::impl_items(Impl& im) {
  while (!at_punct("}")) {
    if (peek().kind == Tok::End) fail_expected("'}' to close implementation '" + im.name.text + "'");
    const Token& kw = peek();
    if (accept_word("role")) im.role = ident("a role (baseline, bad, good or reference)");
    else if (accept_word("ptx")) im.ptx = string("the PTX file as a \"string\"");
    else if (accept_word("source")) im.source = string("the source file as a \"string\"");
    else if (accept_word("cuda")) im.cuda = string("the CUDA C++ file as a \"string\"");
    else if (accept_word("triton")) im.triton = string("the Triton (Python) file as a \"string\"");
    else if (accept_word("warps")) im.warps = quantity();
    else if (accept_word("stages")) im.stages = quantity();
    else if (accept_word("constexpr")) {
      Name k = ident("a constexpr parameter name");
      expect_punct("=", "after the constexpr name");
      im.constexprs.emplace_back(k, quantity());
    }
    else if (accept_word("precision")) im.precision = ident("a precision name");
    else if (at_word("launch")) im.launches.push_back(launch());
    else if (accept_word("declares")) {
      Name k = ident("a policy name (nan, denormal, out_of_bounds, determinism)");
      expect_punct("=", "after the policy name");
      im.declares.emplace_back(k, ident("the declared policy"));
    } else {
      fail(kw, "unknown implementation item '" + kw.text + "'; expected role, ptx, cuda, triton, warps, stages, constexpr, source, precision, launch or declares");
    }
  }
}

LaunchDecl Parser::launch() {
  LaunchDecl l;
  size_t start = next().offset;
  l.entry = ident("the kernel entry name after 'launch'");
  while (true) {
    if (accept_word("grid")) l.grid = quantity_tuple("the grid");
    else if (accept_word("block")) l.block = quantity_tuple("the block");
    else if (accept_word("shared")) l.shared = quantity();
    else if (accept_word("args")) {
      expect_punct("(", "to open the argument list");
      if (!at_punct(")")) do {
          Arg a;
          size_t as = peek().offset;
          if (peek().kind == Tok::Ident && (peek(1).kind == Tok::Punct && (peek(1).text == "," || peek(1).text == ")"))) {
            a.is_tensor = true;  // a bare name: a tensor, or a parameter (resolved by the linter)
            a.tensor = ident("an argument");
          } else {
            a.value = quantity();
          }
          a.at = span_from(as);
          l.args.push_back(std::move(a));
        } while (accept_punct(","));
      expect_punct(")", "to close the argument list");
    } else break;
  }
  l.at = span_from(start);
  return l;
}

}  // namespace detail
}  // namespace racer::contract
