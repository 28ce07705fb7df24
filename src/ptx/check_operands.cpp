// Operand count, form and type checks against the opcode table's operand shapes.
#include <array>
#include <string>

#include "ptx/parser_impl.hpp"

namespace racer::ptx::detail {
namespace {

struct Slot {
  char kind;
  char type;
  bool optional;
};

std::vector<Slot> parse_shape_spec(std::string_view spec) {
  std::vector<Slot> out;
  size_t i = 0;
  while (i < spec.size()) {
    if (spec[i] == ' ') { ++i; continue; }
    Slot s{spec[i], spec[i + 1], false};
    i += 2;
    if (i < spec.size() && spec[i] == '?') s.optional = true, ++i;
    out.push_back(s);
  }
  return out;
}

Type widened(Type t) {
  switch (t) {
    case Type::U16: return Type::U32;
    case Type::U32: return Type::U64;
    case Type::S16: return Type::S32;
    case Type::S32: return Type::S64;
    case Type::B16: return Type::B32;
    case Type::B32: return Type::B64;
    default: return t;
  }
}

constexpr size_t kTypeCount = static_cast<size_t>(Type::Count);

// PTX's relaxed typing: a register may hold an instruction type of the same size when the
// classes are compatible (bit types go with anything); ld/st/cvt may use wider registers.
bool register_fits(Type reg, Type want, bool wider_ok) {
  if (want == Type::None) return true;
  if (want == Type::Pred || reg == Type::Pred) return want == reg;
  unsigned rb = type_bits(reg), wb = type_bits(want);
  if (rb != wb && !(wider_ok && rb > wb)) return false;
  TypeClass rc = type_class(reg), wc = type_class(want);
  if (rc == TypeClass::Bits || wc == TypeClass::Bits) return true;
  if (wc == TypeClass::Float) return rc == TypeClass::Float || rb > wb;
  return rc != TypeClass::Float || rb > wb;
}

// register_fits for every combination, computed once (type_bits and type_class read a
// constant table, so this runs safely during static initialization).
struct FitsTable {
  std::array<std::array<std::array<bool, kTypeCount>, kTypeCount>, 2> fits{};  // [wider_ok][reg][want]
  FitsTable() {
    for (size_t w = 0; w < 2; ++w)
      for (size_t r = 0; r < kTypeCount; ++r)
        for (size_t t = 0; t < kTypeCount; ++t)
          fits[w][r][t] = register_fits(static_cast<Type>(r), static_cast<Type>(t), w != 0);
  }
  bool operator()(Type reg, Type want, bool wider_ok) const {
    return fits[wider_ok][static_cast<size_t>(reg)][static_cast<size_t>(want)];
  }
};
const FitsTable kFits;

std::string type_text(Type t) { return "." + std::string(type_name(t)); }

struct OperandShape {
  std::vector<Slot> slots;
  size_t required = 0;  // slots not optional
};

// Every opcode's operand shape, parsed once.
const OperandShape& shape_of(Op op) {
  static const std::vector<OperandShape> table = [] {
    std::vector<OperandShape> t(static_cast<size_t>(Op::Count));
    for (size_t i = 0; i < t.size(); ++i) {
      t[i].slots = parse_shape_spec(op_info(static_cast<Op>(i)).operands);
      for (const Slot& s : t[i].slots) t[i].required += !s.optional;
    }
    return t;
  }();
  return table[static_cast<size_t>(op)];
}

}  // namespace

// Fails at t with the message make() builds. Out of line, with the message text in the
// lambda, so the checks themselves stay small.
template <class Make>
[[noreturn, gnu::noinline, gnu::cold]] void Parser::fail_lazy(const Token& t, Make&& make) {
  fail(t, make());
}

size_t Parser::operand_capacity(Op op) { return shape_of(op).slots.size(); }

void Parser::check_operands(const Function& f, const Instr& ins, const std::vector<const Token*>& at) {
  const OpInfo& info = op_info(ins.op);
  const OperandShape& shape = shape_of(ins.op);
  const std::vector<Slot>& slots = shape.slots;
  const size_t required = shape.required;
  // Message text is built only on the way to a failure.
  auto name = [&] { return std::string(info.name); };
  if (ins.operands.size() < required || ins.operands.size() > slots.size()) {
    std::string want = required == slots.size() ? std::to_string(required)
                                                 : std::to_string(required) + " to " + std::to_string(slots.size());
    // Too many: point at the first surplus operand; too few: at the last one given.
    const Token& where = at.empty() ? peek() : ins.operands.size() > slots.size() ? *at[slots.size()] : *at.back();
    fail_lazy(where, [&] {
      return "'" + name() + "' takes " + want + " operand" + (slots.size() == 1 ? "" : "s") + ", found " +
             std::to_string(ins.operands.size());
    });
  }

  // Per operand; the checks below read them, and message text is built only on failure.
  size_t i = 0;
  const Slot* s = nullptr;
  Type want = Type::None;
  auto pos = [&] { return "operand " + std::to_string(i + 1) + " of '" + name() + "'"; };
  auto check_reg = [&](const Operand& r, const Token& t) {
    if (r.kind != Operand::Kind::Reg) return;
    Type rt = f.regs[r.index].type;
    if (!kFits(rt, want, info.wide_data))
      fail_lazy(t, [&] {
        return pos() + " must be " + type_text(want) + ", but register '" + f.regs[r.index].name + "' is " + type_text(rt);
      });
  };
  auto check_value = [&](const Operand& v, const Token& t) {
    if (v.kind == Operand::Kind::FloatImm && (type_class(want) == TypeClass::Signed || type_class(want) == TypeClass::Unsigned))
      fail_lazy(t, [&] { return "float literal where " + pos() + " expects " + type_text(want); });
    check_reg(v, t);
  };
  auto check_vector = [&](const Operand& v, const Token& t) {
    if (ins.op == Op::Mov) {
      // mov packs or unpacks: {a, b} of a .b64 is two 32-bit halves.
      unsigned bits = type_bits(want) / static_cast<unsigned>(v.elems.size());
      Type saved = want;
      want = bits == 8 ? Type::B8 : bits == 16 ? Type::B16 : bits == 32 ? Type::B32 : Type::None;
      if (want == Type::None) fail_lazy(t, [&] {
        return pos() + ": a " + type_text(saved) + " cannot be split into " + std::to_string(v.elems.size()) + " parts";
      });
      for (const Operand& e : v.elems) check_value(e, t);
      want = saved;
      return;
    }
    for (const Operand& e : v.elems) check_value(e, t);
    if (s->type == 'v' && ins.has(Mod::Vec)) {
      size_t n = size_t{2} << ins.mod(Mod::Vec);
      if (v.elems.size() != n)
        fail_lazy(t, [&] {
          return pos() + " must be a vector of " + std::to_string(n) + " elements, found " + std::to_string(v.elems.size());
        });
    }
  };
  for (i = 0; i < ins.operands.size(); ++i) {
    const Operand& op = ins.operands[i];
    s = &slots[i];
    const Token& tok = *at[i];

    want = Type::None;
    switch (s->type) {
      case '0': case '1': case '2': case '3': want = ins.type(static_cast<size_t>(s->type - '0')); break;
      case 'v': want = ins.type(0); break;
      case 'w': want = ins.has(Mod::Mode) && ins.mod(Mod::Mode) == mode::WIDE ? widened(ins.type(0)) : ins.type(0); break;
      case 'u': want = Type::B32; break;
      case 'U': want = Type::B64; break;
      case 'P': want = Type::Pred; break;
      default: break;
    }

    if (op.kind == Operand::Kind::Symbol && op.symbol_kind == SymbolKind::Label && s->kind != 'l')
      fail_lazy(tok, [&] { return "unknown symbol '" + std::string(tok.text) + "' in " + pos(); });

    bool is_vec = op.kind == Operand::Kind::Vector;
    if (s->type == 'v' && ins.has(Mod::Vec) && !is_vec)
      fail_lazy(tok, [&] {
        return pos() + " must be a vector {…} of " + std::to_string(size_t{2} << ins.mod(Mod::Vec)) + " elements for ." +
               std::string(mod_values(Mod::Vec)[ins.mod(Mod::Vec)]);
      });
    if (s->type == 'v' && !ins.has(Mod::Vec) && is_vec && op.elems.size() != 1)
      fail_lazy(tok, [&] { return pos() + " is a vector but the instruction has no .v2/.v4 modifier"; });

    switch (s->kind) {
      case 'd':
      case 'e':
      case 'q': {
        const Operand* first = &op;
        if (op.kind == Operand::Kind::Pair) {
          if (s->kind == 'd') fail_lazy(tok, [&] { return pos() + " takes no '|' second destination"; });
          const Operand& second = op.elems[1];
          if (second.kind != Operand::Kind::Sink &&
              (second.kind != Operand::Kind::Reg || f.regs[second.index].type != Type::Pred))
            fail_lazy(tok, [&] { return "the destination after '|' in " + pos() + " must be a predicate register"; });
          first = &op.elems[0];
        }
        if (first->kind == Operand::Kind::Vector) {
          for (const Operand& e : first->elems)
            if (e.kind != Operand::Kind::Reg && e.kind != Operand::Kind::Sink)
              fail_lazy(tok, [&] { return pos() + " is a destination; a vector destination holds registers only"; });
          check_vector(*first, tok);
        } else if (first->kind != Operand::Kind::Reg && first->kind != Operand::Kind::Sink) {
          fail_lazy(tok, [&] { return pos() + " is a destination and must be a register"; });
        } else {
          check_reg(*first, tok);
        }
        break;
      }
      case 's':
      case 'm':
      case 'p':
        if (op.kind == Operand::Kind::Address) fail_lazy(tok, [&] { return pos() + " cannot be an address '[…]'"; });
        if (op.kind == Operand::Kind::Pair || op.kind == Operand::Kind::ParenList || op.kind == Operand::Kind::Sink)
          fail_lazy(tok, [&] { return "unexpected form of " + pos(); });
        if (op.kind == Operand::Kind::Symbol && s->kind != 'm' &&
            !(op.symbol_kind == SymbolKind::ModuleVar || op.symbol_kind == SymbolKind::LocalVar))
          fail_lazy(tok, [&] { return pos() + " cannot be the symbol '" + std::string(tok.text) + "'"; });
        if (s->kind == 'p' && !(op.kind == Operand::Kind::Reg && f.regs[op.index].type == Type::Pred) &&
            !(op.kind == Operand::Kind::Imm))
          fail_lazy(tok, [&] { return pos() + " must be a predicate"; });
        if (op.negated && s->kind != 'p')
          fail_lazy(tok, [&] { return "'!' is allowed only on predicate operands, not " + pos(); });
        if (is_vec) check_vector(op, tok);
        else check_value(op, tok);
        break;
      case 'a':
        if (op.kind != Operand::Kind::Address) fail_lazy(tok, [&] { return pos() + " must be an address in '[ ]'"; });
        break;
      case 'l':
        if (op.kind != Operand::Kind::Symbol || op.symbol_kind != SymbolKind::Label)
          fail_lazy(tok, [&] { return pos() + " must be a label"; });
        break;
      case 'i':
        if (op.kind != Operand::Kind::Imm) fail_lazy(tok, [&] { return pos() + " must be an integer constant"; });
        break;
      default:
        break;
    }
  }
}

}  // namespace racer::ptx::detail
