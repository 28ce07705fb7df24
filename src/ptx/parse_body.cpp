// Function bodies: scopes, register and variable declarations, labels, .loc and pragmas.
#include <algorithm>
#include <cstring>

#include "ptx/parser_impl.hpp"

namespace racer::ptx::detail {

void Parser::parse_body(Function& f) {
  f.has_body = true;
  scopes_.clear();
  pending_labels_.clear();
  current_loc_index_ = -1;
  const Token& open = expect(Tok::LBrace, "'{' opening the function body");
  scopes_.emplace_back();
  scope_ = 0;
  regs_ = &f.regs;
  int depth = 1;
  while (depth > 0) {
    const Token& t = peek();
    if (t.kind == Tok::End) {
      error(open, "unterminated body of '" + f.name + "': missing '}'");
      break;
    }
    try {
      if (t.kind == Tok::LBrace) {
        take();
        scopes_.emplace_back().parent = scope_;
        scope_ = static_cast<int>(scopes_.size()) - 1;
        f.items.push_back({BodyItem::Kind::Open, 0});
        ++depth;
      } else if (t.kind == Tok::RBrace) {
        take();
        if (--depth > 0) {
          f.items.push_back({BodyItem::Kind::Close, 0});
          scope_ = scopes_[scope_].parent;
        }
      } else if (t.kind == Tok::DotWord) {
        std::string_view w = t.text;
        if (w == ".reg") {
          parse_reg_decl(f);
        } else if (w == ".loc") {
          parse_loc(f);
        } else if (w == ".pragma") {
          take();
          const Token& s = expect(Tok::String, "a quoted pragma");
          expect(Tok::Semi, "';' after .pragma");
          f.items.push_back({BodyItem::Kind::Pragma, static_cast<uint32_t>(f.pragmas.size())});
          f.pragmas.emplace_back(s.text);
        } else if (auto sp = space_from_name(w.substr(1));
                   sp && (*sp == Space::Local || *sp == Space::Shared || *sp == Space::Param)) {
          take();
          Variable v = parse_variable(*sp, false);
          expect(Tok::Semi, "';' after the declaration");
          uint32_t index = static_cast<uint32_t>(f.vars.size());
          if (!scopes_[scope_].vars.emplace(intern(v.name), index).second) error(t, "redefinition of '" + v.name + "'");
          f.items.push_back({BodyItem::Kind::Var, index});
          f.vars.push_back(std::move(v));
        } else {
          fail(t, "unexpected directive '" + std::string(w) + "' in a function body");
        }
      } else if (t.kind == Tok::Ident && peek(1).kind == Tok::Colon) {
        parse_label(f);
      } else {
        parse_instruction(f);
      }
    } catch (Recover&) {
      if (diags_.full()) return;
      skip_statement();
    }
  }
  resolve_labels(f);
  scope_ = -1;
}

void Parser::parse_reg_decl(Function& f) {
  take();
  const Token& ty = expect(Tok::DotWord, "a register type such as .b32");
  if (ty.text == ".v2" || ty.text == ".v4") fail(ty, "vector registers are not supported; declare scalar registers");
  auto type = type_from_name(ty.text.substr(1));
  if (!type) fail(ty, "unknown register type '" + std::string(ty.text) + "'");
  do {
    const Token& name = expect(Tok::Ident, "a register name");
    RegDecl d;
    d.type = *type;
    d.base = std::string(name.text);
    d.first = static_cast<uint32_t>(f.regs.size());
    if (accept(Tok::Lt)) {
      const Token& n = expect(Tok::Int, "a register count");
      int64_t count = parse_int(n);
      // Far beyond any real kernel; bounds the memory a hostile file can make us spend.
      constexpr int64_t kMaxRegisters = 1 << 20;
      if (count <= 0 || count > kMaxRegisters) fail(n, "register count must be between 1 and 1048576");
      if (f.regs.size() + static_cast<uint64_t>(count) > kMaxRegisters)
        fail(n, "more than 1048576 registers in one function");
      expect(Tok::Gt, "'>' closing the register range");
      d.is_range = true;
      d.count = static_cast<uint32_t>(count);
    }
    auto& regs = scopes_[scope_].regs;
    if (f.regs.capacity() < f.regs.size() + d.count) f.regs.reserve(std::max(f.regs.size() + d.count, 2 * f.regs.capacity()));
    regs.reserve_more(d.count);
    std::string_view base = name.text;
    const size_t first = f.regs.size();
    f.regs.resize(first + d.count);
    if (!d.is_range) {
      f.regs[first] = {std::string(base), *type};
    } else {
      // base0 .. base(N-1): the decimal suffix is counted up in place, not converted each time.
      std::string rname(base);
      rname.push_back('0');
      for (uint32_t i = 0; i < d.count; ++i) {
        if (i > 0) {
          size_t k = rname.size();
          while (k > base.size() && rname[k - 1] == '9') rname[--k] = '0';
          if (k > base.size()) ++rname[k - 1];
          else rname.insert(rname.begin() + static_cast<ptrdiff_t>(base.size()), '1');
        }
        Register& r = f.regs[first + i];
        r.name.append(rname);
        r.type = *type;
      }
    }
    for (uint32_t i = 0; i < d.count; ++i) {
      auto index = static_cast<uint32_t>(first + i);
      const std::string& rname = f.regs[index].name;
      if (!regs.insert(name_hash(rname), index, f.regs)) error(name, "redeclaration of register '" + rname + "'");
    }
    f.items.push_back({BodyItem::Kind::RegDecl, static_cast<uint32_t>(f.reg_decls.size())});
    f.reg_decls.push_back(std::move(d));
  } while (accept(Tok::Comma));
  expect(Tok::Semi, "';' after the register declaration");
}

void Parser::parse_loc(Function& f) {
  take();
  // Built in place; a directive that fails is taken back out.
  const auto index = static_cast<uint32_t>(f.debug_locs.size());
  DebugLoc& loc = f.debug_locs.emplace_back();
  struct Undo {
    std::vector<DebugLoc>* locs;
    ~Undo() {
      if (locs) locs->pop_back();
    }
  } undo{&f.debug_locs};
  const Token& file = expect(Tok::Int, "a file number after .loc");
  loc.file = static_cast<uint32_t>(parse_int(file));
  loc.line = static_cast<uint32_t>(parse_uint_token("a line number"));
  loc.col = static_cast<uint32_t>(parse_uint_token("a column number"));
  if (accept(Tok::Comma)) {
    const Token& kw = expect(Tok::Ident, "function_name");
    if (kw.text != "function_name") fail(kw, "expected function_name in .loc");
    loc.function_name = std::string(expect(Tok::Ident, "a label").text);
    expect(Tok::Comma, "','");
    const Token& kw2 = expect(Tok::Ident, "inlined_at");
    if (kw2.text != "inlined_at") fail(kw2, "expected inlined_at in .loc");
    loc.inlined_file = static_cast<uint32_t>(parse_uint_token("a file number"));
    loc.inlined_line = static_cast<uint32_t>(parse_uint_token("a line number"));
    loc.inlined_col = static_cast<uint32_t>(parse_uint_token("a column number"));
  }
  // Every .loc is kept, even one no instruction follows: inlined_at may refer back to it.
  current_loc_index_ = static_cast<int32_t>(index);
  f.items.push_back({BodyItem::Kind::Loc, index});
  undo.locs = nullptr;
}

void Parser::parse_label(Function& f) {
  const Token& name = take();
  take();  // ':'
  uint32_t index = static_cast<uint32_t>(f.labels.size());
  if (!scopes_[scope_].labels.emplace(name.text, index).second)
    fail(name, "duplicate label '" + std::string(name.text) + "'");
  f.labels.push_back({std::string(name.text), static_cast<uint32_t>(f.instrs.size())});
  f.items.push_back({BodyItem::Kind::Label, index});
}

void Parser::resolve_labels(Function& f) {
  for (const PendingLabel& p : pending_labels_) {
    Operand& op = f.instrs[p.instr].operands[p.operand_path];
    std::string_view name = p.tok->text;
    uint32_t hash = name_hash(name);
    bool found = false;
    for (int s = p.scope; s >= 0 && !found; s = scopes_[s].parent) {
      if (const uint32_t* target = scopes_[s].labels.find(name, hash)) {
        op.index = *target;
        found = true;
      }
    }
    if (!found) error(*p.tok, "undefined label '" + std::string(name) + "'");
  }
}

}  // namespace racer::ptx::detail
