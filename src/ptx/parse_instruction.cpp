// One instruction: guard, opcode and modifiers (in any order), operands.
#include <algorithm>
#include <cstring>

#include "ptx/parser_impl.hpp"
#include "ptx/vocabulary.hpp"

namespace racer::ptx::detail {
namespace {

constexpr size_t kMaxOpcodeWords = 4;  // "cp.async.bulk.tensor", "barrier.cluster.arrive"

}  // namespace

void Parser::parse_instruction(Function& f) {
  // Built in place; a statement that fails is taken back out.
  const auto index = static_cast<uint32_t>(f.instrs.size());
  Instr& ins = f.instrs.emplace_back();
  struct Undo {
    std::vector<Instr>* instrs;
    ~Undo() {
      if (instrs) instrs->pop_back();
    }
  } undo{&f.instrs};
  const Token& start = peek();
  if (accept(Tok::At)) {
    ins.has_guard = true;
    ins.guard_negated = accept(Tok::Bang);
    const Token& g = expect(Tok::Ident, "a predicate register after '@'");
    auto r = find_reg(g.text);
    if (!r) fail(g, "undeclared register '" + std::string(g.text) + "'");
    if (f.regs[*r].type != Type::Pred) fail(g, "guard '" + std::string(g.text) + "' is not a .pred register");
    ins.guard = *r;
  }
  const Token& first = peek();
  if (first.kind != Tok::Ident) {
    if (first.kind == Tok::Error) fail(first, std::string(lex_error_reason(first)) + " '" + std::string(first.text) + "'");
    fail(first, "expected an instruction, found '" + std::string(first.text) + "'");
  }
  parse_opcode_and_modifiers(ins, first);

  std::vector<const Token*>& operand_tokens = operand_tokens_;
  operand_tokens.clear();
  if (!at(Tok::Semi)) {
    ins.operands.reserve(operand_capacity(ins.op));
    do {
      operand_tokens.push_back(&peek());
      parse_operand(f, ins, ins.operands.emplace_back());
      if (accept(Tok::Pipe)) {
        Operand pair;
        pair.kind = Operand::Kind::Pair;
        pair.elems.reserve(2);
        pair.elems.push_back(std::move(ins.operands.back()));
        parse_operand(f, ins, pair.elems.emplace_back());
        ins.operands.back() = std::move(pair);
      }
    } while (accept(Tok::Comma));
  }
  if (!at(Tok::Semi)) {
    const Token& t = peek();
    fail(t, t.kind == Tok::End ? "missing ';' at end of file" : "expected ',' or ';' after an operand, found '" + std::string(t.text) + "'");
  }
  take();

  if (ins.op == Op::Bra) {
    if (ins.operands.size() == 1 && ins.operands[0].kind == Operand::Kind::Symbol &&
        ins.operands[0].symbol_kind == SymbolKind::Label)
      pending_labels_.push_back({index, 0, scope_, operand_tokens[0]});
  }
  check_operands(f, ins, operand_tokens);

  ins.debug_loc = current_loc_index_;
  LineCol lc = locate(start.offset);
  map_.instr_pos.back().emplace_back(lc.line, lc.col);
  f.items.push_back({BodyItem::Kind::Instr, index});
  undo.instrs = nullptr;
}

void Parser::parse_opcode_and_modifiers(Instr& ins, const Token& first) {
  // Modifiers are the dotted words glued to the opcode: consecutive tokens from `first` on.
  const Token* words = &take();
  size_t nwords = 1;
  while (at(Tok::DotWord) && peek().offset == words[nwords - 1].offset + words[nwords - 1].text.size()) {
    take();
    ++nwords;
  }

  // The words are glued, so they are one span of the source text.
  const Token& last_word = words[nwords - 1];
  const std::string_view all_words(first.text.data(), last_word.offset + last_word.text.size() - first.offset);
  const uint32_t hash = name_hash(all_words);
  if (const OpcodeWords* known = opcode_cache_.find(all_words, hash)) {
    ins.op = known->op;
    ins.mods = known->mods;
    ins.types = known->types;
    ins.num_types = known->num_types;
    ins.shape = known->shape;
    return;
  }

  // The opcode is the longest run of leading words that names one.
  std::optional<Op> op;
  size_t used = 0;
  if (const OpcodeHead* head = opcode_head(first.text)) {
    if (head->op) op = head->op, used = 1;
    size_t longest = std::min({nwords, kMaxOpcodeWords, static_cast<size_t>(head->max_words)});
    for (size_t n = 2; n <= longest; ++n) {
      const Token& last = words[n - 1];
      std::string_view candidate(first.text.data(), last.offset + last.text.size() - first.offset);
      if (auto o = op_from_name(candidate)) op = o, used = n;
    }
  }
  if (!op) fail(first, "unknown instruction '" + std::string(first.text) + "'");
  ins.op = *op;
  const OpInfo& info = op_info(*op);
  auto name = [&] { return std::string(info.name); };
  const bool takes_shape = op_accepts(info, Mod::Shape);

  for (size_t i = used; i < nwords; ++i) {
    const Token& w = words[i];
    std::string_view v = w.text.substr(1);
    const ModWord* mw = mod_word(v);
    if (info.max_types > 0 && mw && mw->type != Type::None) {
      if (ins.num_types >= info.max_types) fail(w, "too many types for '" + name() + "'");
      ins.types[ins.num_types++] = mw->type;
      continue;
    }
    if (takes_shape) {
      if (auto sh = parse_shape(v)) {
        if (ins.has(Mod::Shape)) fail(w, "'" + name() + "' has two shapes");
        ins.shape = *sh;
        ins.set(Mod::Shape, 0);
        continue;
      }
    }
    // The first group of this opcode, in slot order, whose vocabulary has the word and
    // which is still free; groups sharing a vocabulary (two layouts, two spaces) fill in order.
    bool known = false, placed = false;
    if (mw) {
      for (Mod g : info.slots) {
        if (g == kTypesSlot || g == Mod::Shape) continue;
        uint8_t value = mw->value[static_cast<size_t>(g)];  // index + 1, 0 when absent
        if (value == 0) continue;
        known = true;
        if (ins.has(g)) continue;
        ins.mods[static_cast<size_t>(g)] = value;
        placed = true;
        break;
      }
    }
    if (placed) continue;
    if (known) fail(w, "duplicate modifier '" + std::string(w.text) + "' on '" + name() + "'");
    if (mw && mw->type != Type::None) fail(w, "'" + name() + "' takes no type '" + std::string(w.text) + "'");
    fail(w, "unknown modifier '" + std::string(w.text) + "' for '" + name() + "'");
  }
  if (ins.num_types < info.min_types) {
    const Token& last = words[nwords - 1];
    fail(last, "'" + name() + "' needs " + std::to_string(info.min_types) + (info.min_types == 1 ? " type" : " types") +
                   " (e.g. .f32), found " + std::to_string(ins.num_types));
  }
  if (takes_shape && !ins.has(Mod::Shape) && *op != Op::Ldmatrix && *op != Op::Stmatrix)
    fail(words[nwords - 1], "'" + name() + "' needs a shape such as .m16n8k16");
  opcode_cache_.emplace(all_words, hash, {ins.op, ins.mods, ins.types, ins.num_types, ins.shape});
}

// Operands are parsed into their place in the instruction (op is default-constructed); a
// failure abandons the whole instruction, so a half-filled operand is never seen.
void Parser::parse_operand(Function& f, Instr& ins, Operand& op) {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::LBracket:
      parse_address(f, ins, op);
      return;
    case Tok::LBrace:
    case Tok::LParen: {
      // Real PTX nests lists a level or two; bound the recursion so hostile input cannot
      // overflow the stack.
      constexpr int kMaxListNesting = 8;
      static thread_local int nesting = 0;
      if (nesting >= kMaxListNesting) fail(t, "operand lists nested too deeply");
      struct Nest {
        Nest() { ++nesting; }
        ~Nest() { --nesting; }
      } nest;
      Tok close = t.kind == Tok::LBrace ? Tok::RBrace : Tok::RParen;
      take();
      op.kind = t.kind == Tok::LBrace ? Operand::Kind::Vector : Operand::Kind::ParenList;
      if (!at(close)) {
        do {
          const Token& e = peek();
          parse_operand(f, ins, op.elems.emplace_back());
          // Only a top-level branch target may be a label (resolved later); in a list it is unknown.
          if (op.elems.back().kind == Operand::Kind::Symbol && op.elems.back().symbol_kind == SymbolKind::Label)
            fail(e, "unknown symbol '" + std::string(e.text) + "'");
        } while (accept(Tok::Comma));
      }
      expect(close, close == Tok::RBrace ? "'}' closing the vector operand" : "')' closing the list");
      if (op.kind == Operand::Kind::Vector) {
        if (op.elems.empty()) fail(t, "a vector operand needs at least one element");
        for (const Operand& e : op.elems)
          if (e.kind == Operand::Kind::Vector || e.kind == Operand::Kind::Address)
            fail(t, "a vector operand holds registers and constants only");
      }
      return;
    }
    case Tok::Bang: {
      take();
      const Token& r = expect(Tok::Ident, "a predicate register after '!'");
      parse_name_operand(f, r, op);
      if (op.kind != Operand::Kind::Reg || f.regs[op.index].type != Type::Pred)
        fail(r, "'!' applies to predicate registers only");
      op.negated = true;
      return;
    }
    case Tok::Minus: {
      take();
      const Token& n = take();
      if (n.kind == Tok::Int) {
        op.kind = Operand::Kind::Imm;
        op.value = static_cast<int64_t>(-static_cast<uint64_t>(parse_int(n)));  // wraps, like the literal
        return;
      }
      if (n.kind == Tok::Float) {
        op = parse_float_literal(n, true);
        return;
      }
      fail(n, "expected a number after '-'");
    }
    case Tok::Int:
      take();
      op.kind = Operand::Kind::Imm;
      op.value = parse_int(t);
      return;
    case Tok::Float:
      take();
      op = parse_float_literal(t, false);
      return;
    case Tok::Ident:
      take();
      parse_name_operand(f, t, op);
      return;
    case Tok::Error:
      fail(t, std::string(lex_error_reason(t)) + " '" + std::string(t.text) + "'");
    default:
      fail(t, "expected an operand, found " + (t.kind == Tok::End ? std::string("end of file") : "'" + std::string(t.text) + "'"));
  }
}

// Into op, default-constructed.
void Parser::parse_name_operand(Function& f, const Token& t, Operand& op) {
  if (t.text == "_") {
    op.kind = Operand::Kind::Sink;
    return;
  }
  if (t.text[0] == '%') {
    if (auto r = find_reg(t.text)) {
      op.kind = Operand::Kind::Reg;
      op.index = *r;
      return;
    }
    if (auto s = special_reg_from_name(t.text)) {
      op.kind = Operand::Kind::Special;
      op.index = static_cast<uint32_t>(*s);
      if (special_reg_has_components(*s)) {
        if (!at(Tok::DotWord) || peek().offset != t.offset + t.text.size())
          fail(t, "special register '" + std::string(t.text) + "' needs a component (.x, .y or .z)");
        const Token& c = take();
        if (c.text == ".x") op.component = 1;
        else if (c.text == ".y") op.component = 2;
        else if (c.text == ".z") op.component = 3;
        else fail(c, "bad component '" + std::string(c.text) + "' (expected .x, .y or .z)");
      }
      return;
    }
    fail(t, "undeclared register '" + std::string(t.text) + "'");
  }
  // A register name need not start with '%' (inline asm declares `.reg .pred p;`).
  if (auto r = find_reg(t.text)) {
    op.kind = Operand::Kind::Reg;
    op.index = *r;
    return;
  }
  if (auto sym = find_symbol(f, t.text)) {
    op = *sym;
    return;
  }
  // Otherwise a label, possibly defined later; resolved at the end of the function.
  op.kind = Operand::Kind::Symbol;
  op.symbol_kind = SymbolKind::Label;
}

Operand Parser::parse_float_literal(const Token& t, bool negative) {
  Operand op;
  op.kind = Operand::Kind::FloatImm;
  std::string_view s = t.text;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
    bool is32 = s[1] == 'f' || s[1] == 'F';
    op.float_bits = is32 ? 32 : 64;
    uint64_t bits = std::stoull(std::string(s.substr(2)), nullptr, 16);
    if (negative) bits ^= is32 ? 0x80000000ull : 0x8000000000000000ull;
    op.value = static_cast<int64_t>(bits);
    return op;
  }
  // A decimal literal is a double in PTX.
  double d = std::strtod(std::string(s).c_str(), nullptr);
  if (negative) d = -d;
  std::memcpy(&op.value, &d, sizeof d);
  op.float_bits = 64;
  return op;
}

// Into addr, default-constructed.
void Parser::parse_address(Function& f, Instr& ins, Operand& addr) {
  const Token& open = take();
  addr.kind = Operand::Kind::Address;
  const Token& b = peek();
  Operand& base = addr.elems.emplace_back();
  if (b.kind == Tok::Ident) {
    take();
    parse_name_operand(f, b, base);
    if (base.kind == Operand::Kind::Special || base.kind == Operand::Kind::Sink)
      fail(b, "'" + std::string(b.text) + "' cannot be an address");
    if (base.kind == Operand::Kind::Symbol && base.symbol_kind == SymbolKind::Label)
      fail(b, "unknown symbol '" + std::string(b.text) + "' in address");
    if (base.kind == Operand::Kind::Reg) {
      Type rt = f.regs[base.index].type;
      if (rt == Type::Pred || (type_bits(rt) != 32 && type_bits(rt) != 64))
        fail(b, "address register '" + std::string(b.text) + "' must be 32 or 64 bits wide");
    }
  } else if (b.kind == Tok::Int) {
    take();
    base.kind = Operand::Kind::Imm;
    base.value = parse_int(b);
  } else {
    fail(b, "expected a register, a variable or an address in '[ ]'");
  }
  if (at(Tok::Plus) || at(Tok::Minus)) {
    bool neg = take().kind == Tok::Minus;
    if (accept(Tok::Minus)) neg = !neg;  // "+-4" as nvcc writes it
    const Token& off = expect(Tok::Int, "an integer offset");
    uint64_t v = static_cast<uint64_t>(parse_int(off));
    addr.value = static_cast<int64_t>(neg ? -v : v);  // wraps, like the literal
  }
  if (accept(Tok::Comma)) {
    // Tensor-map coordinates: [tmap, {c0, c1}]
    if (!at(Tok::LBrace)) fail(peek(), "expected '{' with tensor coordinates");
    parse_operand(f, ins, addr.elems.emplace_back());
  }
  if (!at(Tok::RBracket)) fail(peek(), "expected ']' closing the address opened here at column " +
                                           std::to_string(src_.locate(open.offset).col));
  take();
}

}  // namespace racer::ptx::detail
