#include "expr/print.hpp"

#include <vector>

namespace racer::expr {

namespace {

// Binding strength: a node whose own level is below its context's is parenthesized.
enum Prec : int { kTop = 0, kSum = 1, kProduct = 2, kPower = 3, kAtom = 4 };

struct Task {
  bool is_text;
  std::string text;
  ExprId id;
  int ctx;
};

bool plain_name(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '[' || c == ']' || c == ',';
    if (!ok) return false;
  }
  return true;
}

class Printer {
 public:
  explicit Printer(const Store& s) : s_(s) {}

  std::string run(ExprId root, size_t max_chars) {
    std::string out;
    std::vector<Task> stack{node(root, kTop)};
    std::vector<Task> items;
    while (!stack.empty()) {
      Task t = std::move(stack.back());
      stack.pop_back();
      if (t.is_text) {
        out += t.text;
        if (out.size() > max_chars) {
          out.resize(max_chars);
          return out + "...";
        }
        continue;
      }
      items.clear();
      expand(t.id, t.ctx, items);
      for (auto it = items.rbegin(); it != items.rend(); ++it) stack.push_back(std::move(*it));
    }
    return out;
  }

 private:
  static Task text(std::string s) { return Task{true, std::move(s), ExprId{}, 0}; }
  static Task node(ExprId x, int ctx) { return Task{false, {}, x, ctx}; }

  int level(ExprId x) const {
    switch (s_.kind(x)) {
      case Kind::Const:
        if (x == s_.neg_inf()) return kSum;
        if (!s_.is_rational(x)) return kAtom;
        if (s_.rational(x) < 0) return kSum;
        return s_.rational(x).get_den() == 1 ? kAtom : kProduct;
      case Kind::Add: return kSum;
      case Kind::Mul: return kProduct;
      case Kind::Cmp: return kTop;
      default: return kAtom;
    }
  }

  void expand(ExprId x, int ctx, std::vector<Task>& items) {
    bool parens = level(x) < ctx;
    if (parens) items.push_back(text("("));
    switch (s_.kind(x)) {
      case Kind::Const: items.push_back(text(const_text(x))); break;
      case Kind::Bool: items.push_back(text(s_.bool_value(x) ? "true" : "false")); break;
      case Kind::Symbol: {
        const std::string o = s_.symbol_name(x);
        items.push_back(text(plain_name(o) ? o : "{" + o + "}"));
        break;
      }
      case Kind::Add: expand_add(x, items); break;
      case Kind::Mul: expand_mul(x, items); break;
      case Kind::Func:
        items.push_back(text(std::string(func_name(s_.func_kind(x))) + "("));
        items.push_back(node(s_.operand(x, 0), kTop));
        items.push_back(text(")"));
        break;
      case Kind::Min:
      case Kind::Max:
      case Kind::Select:
        items.push_back(text(s_.kind(x) == Kind::Min ? "min(" : s_.kind(x) == Kind::Max ? "max(" : "select("));
        for (uint32_t i = 0; i < s_.arity(x); ++i) {
          if (i > 0) items.push_back(text(", "));
          items.push_back(node(s_.operand(x, i), kTop));
        }
        items.push_back(text(")"));
        break;
      case Kind::Cmp:
        items.push_back(node(s_.operand(x, 0), kSum));
        items.push_back(text(" " + std::string(cmp_symbol(s_.cmp_op(x))) + " "));
        items.push_back(node(s_.operand(x, 1), kSum));
        break;
    }
    if (parens) items.push_back(text(")"));
  }

  std::string const_text(ExprId x) const {
    switch (s_.const_kind(x)) {
      case ConstKind::Rational: return s_.rational(x).get_str();
      case ConstKind::PosInf: return "inf";
      case ConstKind::NegInf: return "-inf";
      case ConstKind::Undefined: return "undefined";
    }
    return "?";
  }

  // Terms in canonical order, the constant last: x[0] - 2*y + 1/2.
  void expand_add(ExprId x, std::vector<Task>& items) {
    for (uint32_t i = 0; i < s_.arity(x); ++i) {
      ExprId t = s_.operand(x, i);
      const mpq_class& w = s_.weight(x, i);
      bool negative = w < 0 || t == s_.neg_inf();
      if (i == 0) {
        if (negative) items.push_back(text("-"));
      } else {
        items.push_back(text(negative ? " - " : " + "));
      }
      if (s_.is_inf(t)) {
        items.push_back(text("inf"));
        continue;
      }
      mpq_class aw = abs(w);
      if (aw != 1) items.push_back(text(aw.get_str() + "*"));
      items.push_back(node(t, kProduct));
    }
    const mpq_class& c = s_.coef(x);
    if (c != 0) items.push_back(text((c < 0 ? " - " : " + ") + mpq_class(abs(c)).get_str()));
  }

  // c*x*y^2/(z*w): numerator factors, then a denominator group.
  void expand_mul(ExprId x, std::vector<Task>& items) {
    const mpq_class& c = s_.coef(x);
    mpq_class ac = abs(c);
    if (c < 0) items.push_back(text("-"));
    std::vector<uint32_t> num, den;
    for (uint32_t i = 0; i < s_.arity(x); ++i) (s_.weight(x, i) > 0 ? num : den).push_back(i);

    auto factor = [&](uint32_t i, int ctx_if_linear) {
      ExprId b = s_.operand(x, i);
      mpz_class e = abs(s_.weight(x, i).get_num());
      if (e == 1) {
        items.push_back(node(b, ctx_if_linear));
      } else {
        items.push_back(node(b, kAtom));
        items.push_back(text("^" + e.get_str()));
      }
    };

    size_t den_items = den.size();
    if (!num.empty()) {
      if (ac != 1) items.push_back(text(ac.get_str() + "*"));
      for (size_t k = 0; k < num.size(); ++k) {
        if (k > 0) items.push_back(text("*"));
        factor(num[k], kProduct);
      }
    } else {
      items.push_back(text(ac.get_num().get_str()));
      if (ac.get_den() != 1) ++den_items;
    }
    if (den_items == 0) return;
    items.push_back(text(den_items > 1 ? "/(" : "/"));
    bool first = true;
    if (num.empty() && ac.get_den() != 1) {
      items.push_back(text(ac.get_den().get_str()));
      first = false;
    }
    for (uint32_t i : den) {
      if (!first) items.push_back(text("*"));
      first = false;
      factor(i, den_items > 1 ? kProduct : kPower);
    }
    if (den_items > 1) items.push_back(text(")"));
  }

  const Store& s_;
};

}  // namespace

std::string to_string(const Store& s, ExprId x, size_t max_chars) { return Printer(s).run(x, max_chars); }

}  // namespace racer::expr
