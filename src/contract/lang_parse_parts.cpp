// The parts of a contract body: quantities, predicates, relations, tolerances, reference
// oracles and protocol steps.
#include "contract/lang_parser_impl.hpp"

namespace racer::contract::detail {

// quantity := term (("+" | "-") term)*; term := unary (("*" | "/") unary)*;
// unary := "-" unary | factor; factor := primary ("^" unary)?;
// primary := number | name | name "(" quantity ("," quantity)* ")" | "(" quantity ")"
Quantity Parser::quantity() {
  DepthGuard guard(*this);
  size_t start = peek().offset;
  Quantity q = term();
  for (int n = 0; at_punct("+") || at_punct("-"); ++n) {
    if (n == 100) fail(peek(), "expression longer than 100 terms");
    Quantity op;
    op.kind = next().text == "+" ? Quantity::Kind::Add : Quantity::Kind::Sub;
    op.args.push_back(std::move(q));
    op.args.push_back(term());
    op.at = span_from(start);
    q = std::move(op);
  }
  return q;
}

Quantity Parser::term() {
  size_t start = peek().offset;
  Quantity q = unary();
  for (int n = 0; at_punct("*") || at_punct("/"); ++n) {
    if (n == 100) fail(peek(), "expression longer than 100 factors");
    Quantity op;
    op.kind = next().text == "*" ? Quantity::Kind::Mul : Quantity::Kind::Div;
    op.args.push_back(std::move(q));
    op.args.push_back(unary());
    op.at = span_from(start);
    q = std::move(op);
  }
  return q;
}

Quantity Parser::unary() {
  size_t start = peek().offset;
  if (accept_punct("-")) {
    Quantity op;
    op.kind = Quantity::Kind::Neg;
    DepthGuard guard(*this);
    op.args.push_back(unary());
    op.at = span_from(start);
    return op;
  }
  return factor();
}

Quantity Parser::factor() {
  size_t start = peek().offset;
  Quantity q = primary();
  if (accept_punct("^")) {
    DepthGuard guard(*this);
    Quantity op;
    op.kind = Quantity::Kind::Pow;
    op.args.push_back(std::move(q));
    op.args.push_back(unary());
    op.at = span_from(start);
    return op;
  }
  return q;
}

Quantity Parser::primary() {
  size_t start = peek().offset;
  Quantity q;
  if (peek().kind == Tok::Number) {
    q.number = next().number;
  } else if (peek().kind == Tok::Ident) {
    q.name = next().text;
    q.kind = Quantity::Kind::Name;
    if (accept_punct("(")) {
      q.kind = Quantity::Kind::Call;
      do q.args.push_back(quantity());
      while (accept_punct(","));
      expect_punct(")", "to close the call of '" + q.name + "'");
    }
  } else if (accept_punct("(")) {
    q = quantity();
    expect_punct(")", "to close the parenthesis");
  } else {
    fail_expected("a number, a parameter or a call such as u(FP32)");
  }
  q.at = span_from(start);
  return q;
}

std::vector<Quantity> Parser::quantity_tuple(std::string_view what) {
  std::vector<Quantity> out;
  if (accept_punct("(")) {
    do out.push_back(quantity());
    while (accept_punct(","));
    expect_punct(")", "to close " + std::string(what));
  } else {
    out.push_back(quantity());
  }
  return out;
}

std::vector<Name> Parser::name_set(std::string_view what) {
  std::vector<Name> out;
  expect_punct("{", "to open " + std::string(what));
  do out.push_back(ident(what));
  while (accept_punct(","));
  expect_punct("}", "to close " + std::string(what));
  return out;
}

std::vector<Name> Parser::name_list(std::string_view what) {
  std::vector<Name> out;
  expect_punct("(", "to open " + std::string(what));
  do out.push_back(ident(what));
  while (accept_punct(","));
  expect_punct(")", "to close " + std::string(what));
  return out;
}

Predicate Parser::predicate() {
  Predicate p;
  size_t start = peek().offset;
  const Token& kw = peek();
  if (accept_word("precision")) {
    p.kind = Predicate::Kind::Precision;
    p.tensors = name_list("the tensor list");
    expect_word("in", "after precision(...)");
    p.names = name_set("a set of precisions");
  } else if (accept_word("special")) {
    p.kind = Predicate::Kind::Special;
    p.tensors = name_list("the tensor list");
    expect_word("in", "after special(...)");
    p.names = name_set("a set of special values (NaN, Inf, Denormal, OutOfBounds)");
  } else if (accept_word("shape")) {
    p.kind = Predicate::Kind::Shape;
    p.tensors = name_list("the tensor");
    expect_punct("=", "after shape(...)");
    p.values = quantity_tuple("the shape");
  } else if (accept_word("value_range")) {
    p.kind = Predicate::Kind::ValueRange;
    p.tensors = name_list("the tensor list");
    if (accept_word("finite")) p.range_form = "finite";
    else if (accept_word("bounded")) {
      p.range_form = "bounded";
      p.values.push_back(quantity());
    } else if (accept_word("in")) {
      p.range_form = "in";
      expect_punct("[", "to open the interval");
      p.values.push_back(quantity());
      expect_punct(",", "between the interval's ends");
      p.values.push_back(quantity());
      expect_punct("]", "to close the interval");
    } else {
      fail_expected("'finite', 'bounded' or 'in' after value_range(...)");
    }
  } else if (accept_word("stack")) {
    p.kind = Predicate::Kind::Stack;
    expect_punct("=", "after 'stack'");
    p.names.push_back(ident("a stack name"));
  } else if (accept_word("flag")) {
    p.kind = Predicate::Kind::Flag;
    p.names = name_list("the flag name");
    expect_punct("=", "after flag(...)");
    p.names.push_back(ident("the flag's value"));
  } else if (accept_word("version")) {
    p.kind = Predicate::Kind::Version;
    if (peek().kind != Tok::Punct) fail_expected("a comparison (<, <=, ==, >=, >) after 'version'");
    p.comparator = next().text;
    if (p.comparator != "<" && p.comparator != "<=" && p.comparator != "==" && p.comparator != ">=" && p.comparator != ">" && p.comparator != "!=")
      fail(toks_at_last(), "'" + p.comparator + "' is not a comparison");
    if (peek().kind != Tok::Number && peek().kind != Tok::Ident) fail_expected("a version such as 12.4");
    p.version = next().text;
  } else {
    fail(kw, "unknown precondition '" + kw.text + "'; expected precision, shape, value_range, special, stack, flag or version");
  }
  p.at = span_from(start);
  return p;
}

const Token& Parser::toks_at_last() const { return toks_[pos_ > 0 ? pos_ - 1 : 0]; }

Relation Parser::relation() {
  Relation r;
  size_t start = peek().offset;
  const Token& kw = peek();
  if (accept_word("output")) {
    r.kind = Relation::Kind::Close;
    r.output = ident("the output tensor");
    expect_word("satisfies", "after the output");
    Name fn = ident("close or elementwise_close");
    if (fn.text != "close" && fn.text != "elementwise_close") fail(toks_at_last(), "expected close or elementwise_close, found '" + fn.text + "'");
    expect_punct("(", "after " + fn.text);
    Name of = ident("the output tensor");
    if (of.text != r.output.text) fail(toks_at_last(), "'" + fn.text + "' must compare '" + r.output.text + "', not '" + of.text + "'");
    expect_punct(",", "between the output and 'ref'");
    expect_word("ref", "as the second argument");
    expect_punct(")", "to close " + fn.text);
  } else if (accept_word("declared_policy")) {
    r.kind = Relation::Kind::DeclaredPolicy;
    r.subject = ident("the policy name");
    expect_word("in", "after the policy name");
    r.choices = name_set("a set of policies");
  } else if (accept_word("bitwise_identical")) {
    r.kind = Relation::Kind::BitwiseIdentical;
    expect_word("across", "after bitwise_identical");
    r.subject = ident("what varies (runs, schedules, atomic_orders)");
  } else if (accept_word("raise")) {
    r.kind = Relation::Kind::Raise;
    r.subject = ident("the exception class");
  } else {
    fail(kw, "unknown postcondition '" + kw.text + "'; expected output, declared_policy, bitwise_identical or raise");
  }
  r.at = span_from(start);
  return r;
}

Tolerance Parser::tolerance() {
  DepthGuard guard(*this);
  Tolerance t;
  size_t start = peek().offset;
  const Token& kw = peek();
  if (accept_word("absolute")) t.kind = Tolerance::Kind::Absolute, t.bound = quantity();
  else if (accept_word("relative")) t.kind = Tolerance::Kind::Relative, t.bound = quantity();
  else if (accept_word("ulp")) t.kind = Tolerance::Kind::Ulp, t.bound = quantity();
  else if (accept_word("exact")) t.kind = Tolerance::Kind::Exact;
  else if (accept_word("none")) t.kind = Tolerance::Kind::None;
  else if (accept_word("elementwise")) {
    t.kind = Tolerance::Kind::Elementwise;
    do t.parts.push_back(tolerance());
    while (accept_word("and"));
  } else if (accept_word("per_precision")) {
    t.kind = Tolerance::Kind::PerPrecision;
    expect_punct("{", "to open the per-precision tolerances");
    do {
      t.precisions.push_back(ident("a precision name"));
      expect_punct(":", "after the precision name");
      t.parts.push_back(tolerance());
    } while (accept_punct(","));
    expect_punct("}", "to close the per-precision tolerances");
  } else {
    fail(kw, "unknown tolerance '" + kw.text + "'; expected absolute, relative, ulp, exact, none, elementwise or per_precision");
  }
  t.at = span_from(start);
  return t;
}

Reference Parser::reference() {
  Reference r;
  size_t start = peek().offset;
  const Token& kw = peek();
  auto opt_impl = [&] {
    if (accept_word("impl")) r.impl = ident("an implementation name");
  };
  if (accept_word("higher_precision")) {
    r.kind = Reference::Kind::HigherPrecision;
    r.what = ident("a precision name");
    opt_impl();
    if (accept_word("with")) do {
        Name k = ident("an option name");
        expect_punct("=", "after the option name");
        r.options.emplace_back(k, ident("the option's value"));
      } while (accept_punct(","));
  } else if (accept_word("alternate")) {
    r.kind = Reference::Kind::Alternate;
    expect_word("impl", "after 'alternate'");
    r.impl = ident("an implementation name");
  } else if (accept_word("alternate_stack")) {
    r.kind = Reference::Kind::AlternateStack;
    r.what = ident("a stack name");
  } else if (accept_word("algebraic")) {
    r.kind = Reference::Kind::Algebraic;
    r.what = ident("a property (determinism, idempotence, permutation_invariance, shift_invariance)");
    if (accept_word("epsilon")) r.epsilon = quantity();
  } else if (accept_word("exact")) {
    r.kind = Reference::Kind::Exact;
    opt_impl();
  } else if (accept_word("stable_algorithm")) {
    r.kind = Reference::Kind::StableAlgorithm;
    r.what = ident("an algorithm name");
    opt_impl();
  } else if (accept_word("spec")) {
    r.kind = Reference::Kind::Spec;
    r.what = ident("a specification id");
  } else {
    fail(kw, "unknown reference oracle '" + kw.text + "'; expected higher_precision, alternate, alternate_stack, algebraic, exact, stable_algorithm or spec");
  }
  r.at = span_from(start);
  return r;
}

Step Parser::step() {
  Step s;
  size_t start = peek().offset;
  const Token& kw = peek();
  if (accept_word("sample")) {
    s.kind = Step::Kind::Sample;
    s.count = quantity();
    expect_word("inputs", "after the sample count");
    while (true) {
      if (accept_word("seed")) s.seed = quantity();
      else if (accept_word("scale")) s.scale = quantity();
      else break;
    }
  } else if (accept_word("sweep")) {
    s.kind = Step::Kind::Sweep;
    s.what = ident("the parameter to sweep");
    expect_word("in", "after the swept parameter");
    expect_punct("{", "to open the swept values");
    do s.values.push_back(quantity());
    while (accept_punct(","));
    expect_punct("}", "to close the swept values");
  } else if (accept_word("inject")) {
    s.kind = Step::Kind::Inject;
    s.what = ident("what to inject (nan, inf, denormal, out_of_bounds)");
    expect_word("count", "after the injected kind");
    s.count = quantity();
    if (accept_word("seed")) s.seed = quantity();
  } else if (accept_word("enumerate")) {
    s.kind = Step::Kind::Enumerate;
    s.what = ident("the space to enumerate (atomic_orders)");
    s.count = quantity();
  } else if (accept_word("repeat")) {
    s.kind = Step::Kind::Repeat;
    s.count = quantity();
  } else if (accept_word("transform")) {
    s.kind = Step::Kind::Transform;
    s.what = ident("a transform (shift or permute)");
    if (s.what.text != "shift" && s.what.text != "permute") fail(toks_at_last(), "unknown transform '" + s.what.text + "'; expected shift or permute");
    s.tensor = ident("the input tensor to transform");
    if (s.what.text == "shift") {
      expect_word("by", "after the shifted tensor");
      s.count = quantity();
    }
  } else if (accept_word("within")) {
    s.kind = Step::Kind::Within;
    s.within = std::make_shared<Tolerance>(tolerance());
  } else if (accept_word("compute")) {
    s.kind = Step::Kind::Compute;
    s.what = ident("an aggregate (max_relative, max_absolute, max_ulp, bitwise)");
  } else {
    fail(kw, "unknown protocol step '" + kw.text + "'; expected sample, sweep, inject, enumerate, repeat, transform, within or compute");
  }
  s.at = span_from(start);
  return s;
}

}  // namespace racer::contract::detail
