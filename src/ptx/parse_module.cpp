// Module-level PTX: header directives, debug files and sections, variables, functions.
#include "ptx/parser_impl.hpp"

namespace racer::ptx::detail {
namespace {

bool is_linkage(std::string_view w) { return w == ".visible" || w == ".extern" || w == ".weak" || w == ".common"; }

}  // namespace

void Parser::parse_module() {
  bool saw_version = false;
  while (!at(Tok::End)) {
    const Token& t = peek();
    try {
      if (t.kind != Tok::DotWord) {
        if (t.kind == Tok::Error) fail(t, std::string(lex_error_reason(t)) + " '" + std::string(t.text) + "'");
        fail(t, "expected a directive at module level, found '" + std::string(t.text) + "'");
      }
      std::string_view w = t.text;
      if (w == ".version" || w == ".target" || w == ".address_size") {
        saw_version |= w == ".version";
        parse_version_target();
      } else if (w == ".file") {
        parse_file_directive();
      } else if (w == ".section") {
        parse_section();
      } else {
        parse_linked_declaration();
      }
    } catch (Recover&) {
      if (diags_.full()) return;
      skip_statement();
      accept(Tok::RBrace);
    }
  }
  if (!saw_version) {
    Token start{Tok::End, 0, std::string_view(src_.text()).substr(0, 0)};
    error(start, "missing .version directive (every PTX module starts with one)");
  }
}

void Parser::parse_version_target() {
  const Token& d = take();
  if (d.text == ".version") {
    const Token& v = take();
    if (v.kind != Tok::Float && v.kind != Tok::Int) fail(v, "expected a version number such as 8.7 after .version");
    module_.version = std::string(v.text);
  } else if (d.text == ".target") {
    module_.target.clear();
    do {
      const Token& t = expect(Tok::Ident, "a target such as sm_90");
      module_.target.emplace_back(t.text);
    } while (accept(Tok::Comma));
  } else {
    const Token& n = expect(Tok::Int, "32 or 64 after .address_size");
    int64_t v = parse_int(n);
    if (v != 32 && v != 64) fail(n, ".address_size must be 32 or 64");
    module_.address_size = static_cast<uint32_t>(v);
  }
}

void Parser::parse_file_directive() {
  take();
  DebugFile f;
  f.index = static_cast<uint32_t>(parse_uint_token("a file number after .file"));
  const Token& name = expect(Tok::String, "a quoted file name");
  f.name = std::string(name.text.substr(1, name.text.size() - 2));
  while (accept(Tok::Comma)) {
    const Token& x = expect(Tok::Int, "a timestamp or size");
    f.extra += ", " + std::string(x.text);
  }
  module_.items.push_back({ModuleItem::Kind::File, static_cast<uint32_t>(module_.files.size())});
  module_.files.push_back(std::move(f));
}

void Parser::parse_section() {
  take();
  const Token& name = expect(Tok::DotWord, "a section name such as .debug_info");
  Section s;
  s.name = std::string(name.text);
  expect(Tok::LBrace, "'{' opening the section");
  // Sections are kept as data: a line of tokens per source line, comments already dropped.
  uint32_t last_line = 0;
  while (!at(Tok::RBrace)) {
    const Token& t = take();
    if (t.kind == Tok::End) fail(t, "unterminated .section " + s.name + ": missing '}'");
    if (t.kind == Tok::Error) fail(t, std::string(lex_error_reason(t)) + " '" + std::string(t.text) + "'");
    uint32_t line = locate(t.offset).line;
    if (line != last_line || s.lines.empty()) {
      s.lines.emplace_back();
      last_line = line;
    } else if (t.kind != Tok::Comma && t.kind != Tok::Colon) {
      s.lines.back() += ' ';
    }
    s.lines.back() += t.text;
  }
  take();
  module_.items.push_back({ModuleItem::Kind::Section, static_cast<uint32_t>(module_.sections.size())});
  module_.sections.push_back(std::move(s));
}

void Parser::parse_linked_declaration() {
  std::string linkage;
  if (is_linkage(peek().text)) linkage = std::string(take().text.substr(1));
  const Token& t = peek();
  if (t.text == ".entry" || t.text == ".func") {
    take();
    parse_function(t.text == ".entry", linkage);
    return;
  }
  if (t.kind != Tok::DotWord)
    fail(t, t.kind == Tok::End ? "expected .entry, .func or a variable after ." + linkage : "expected a directive, found '" + std::string(t.text) + "'");
  auto space = space_from_name(t.text.substr(1));
  if (!space || *space == Space::Reg || *space == Space::Param)
    fail(t, "unknown module-level directive '" + std::string(t.text) + "'");
  take();
  Variable v = parse_variable(*space, false);
  v.linkage = linkage;
  expect(Tok::Semi, "';' after the variable declaration");
  if (module_vars_.find(v.name)) error(t, "redefinition of '" + v.name + "'");
  module_vars_.assign(intern(v.name), static_cast<uint32_t>(module_.vars.size()));
  module_.items.push_back({ModuleItem::Kind::Var, static_cast<uint32_t>(module_.vars.size())});
  module_.vars.push_back(std::move(v));
}

// After the state space: [.ptr .space .align N] [.align N] [.vN] .type name [dims] [= init]
Variable Parser::parse_variable(Space space, bool is_param) {
  Variable v;
  v.space = space;
  while (at(Tok::DotWord)) {
    const Token& t = take();
    std::string_view w = t.text.substr(1);
    if (w == "align") {
      v.align = static_cast<uint32_t>(parse_uint_token("an alignment after .align"));
      if (v.align == 0 || (v.align & (v.align - 1))) fail(t, ".align must be a power of two");
    } else if (w == "ptr" && is_param) {
      v.ptr = true;
      while (at(Tok::DotWord)) {
        std::string_view a = peek().text.substr(1);
        if (a == "align") {
          take();
          v.ptr_align = static_cast<uint32_t>(parse_uint_token("an alignment after .ptr .align"));
        } else if (auto s = space_from_name(a); s && *s != Space::Reg) {
          take();
          v.ptr_space = *s;
        } else {
          break;
        }
      }
    } else if (w == "v2" || w == "v4" || w == "v8") {
      v.vec = static_cast<uint8_t>(w[1] - '0');
    } else if (auto ty = type_from_name(w)) {
      if (v.type != Type::None) fail(t, "variable has two types");
      v.type = *ty;
    } else {
      fail(t, "unexpected '" + std::string(t.text) + "' in a variable declaration");
    }
  }
  if (v.type == Type::None) fail(peek(), "expected a type such as .b32 in the declaration");
  const Token& name = expect(Tok::Ident, "a variable name");
  v.name = std::string(name.text);
  while (accept(Tok::LBracket)) {
    v.has_dims = true;
    if (accept(Tok::RBracket)) {
      v.dims.push_back(0);
      continue;
    }
    v.dims.push_back(parse_uint_token("an array size"));
    expect(Tok::RBracket, "']'");
  }
  if (accept(Tok::Eq)) v.init = parse_initializer();
  return v;
}

Initializer Parser::parse_initializer() {
  Initializer init;
  auto one = [&] {
    bool neg = accept(Tok::Minus);
    const Token& t = take();
    Operand op;
    if (t.kind == Tok::Int) {
      op.kind = Operand::Kind::Imm;
      uint64_t v = static_cast<uint64_t>(parse_int(t));
      op.value = static_cast<int64_t>(neg ? -v : v);  // wraps, like the literal
    } else if (t.kind == Tok::Float) {
      op = parse_float_literal(t, neg);
    } else if (t.kind == Tok::Ident && !neg) {
      const uint32_t* var = module_vars_.find(t.text);
      if (!var) fail(t, "initializer names unknown variable '" + std::string(t.text) + "'");
      op.kind = Operand::Kind::Symbol;
      op.symbol_kind = SymbolKind::ModuleVar;
      op.index = *var;
    } else {
      fail(t, "unsupported initializer value '" + std::string(t.text) + "'");
    }
    init.values.push_back(op);
  };
  if (accept(Tok::LBrace)) {
    init.braced = true;
    if (!at(Tok::RBrace)) do one(); while (accept(Tok::Comma));
    expect(Tok::RBrace, "'}' closing the initializer");
  } else {
    one();
  }
  return init;
}

void Parser::parse_param_list(std::vector<Variable>& out) {
  expect(Tok::LParen, "'('");
  if (accept(Tok::RParen)) return;
  do {
    const Token& t = peek();
    if (!at_word(".param") && !at_word(".reg")) fail(t, "expected .param in the parameter list");
    Space sp = take().text == ".param" ? Space::Param : Space::Reg;
    out.push_back(parse_variable(sp, true));
  } while (accept(Tok::Comma));
  expect(Tok::RParen, "')' closing the parameter list");
}

void Parser::parse_performance_directives(Function& f) {
  auto dims = [&](std::array<uint32_t, 3>& out) {
    for (int i = 0; i < 3; ++i) {
      const Token& n = peek();
      uint64_t v = parse_uint_token("a thread count");
      // A zero dimension would print as a shorter list and read back differently.
      if (v == 0 || v > 0xFFFFFFFFu) fail(n, "a thread count must be between 1 and 4294967295");
      out[i] = static_cast<uint32_t>(v);
      if (!accept(Tok::Comma)) break;
    }
  };
  while (at(Tok::DotWord)) {
    std::string_view w = peek().text;
    if (w == ".reqntid") take(), dims(f.reqntid);
    else if (w == ".maxntid") take(), dims(f.maxntid);
    else if (w == ".reqnctapercluster") take(), dims(f.reqnctapercluster);
    else if (w == ".minnctapersm") take(), f.minnctapersm = static_cast<uint32_t>(parse_uint_token("a count"));
    else if (w == ".maxnreg") take(), f.maxnreg = static_cast<uint32_t>(parse_uint_token("a count"));
    else if (w == ".explicitcluster") take(), f.explicitcluster = true;
    else if (w == ".noreturn") take(), f.noreturn = true;
    else if (w == ".pragma") {
      take();
      const Token& s = expect(Tok::String, "a quoted pragma");
      f.directive_pragmas.emplace_back(s.text);
      expect(Tok::Semi, "';' after .pragma");
    } else {
      fail(peek(), "unknown function directive '" + std::string(w) + "'");
    }
  }
}

void Parser::parse_function(bool is_entry, std::string linkage) {
  Function f;
  f.is_entry = is_entry;
  f.linkage = std::move(linkage);
  if (!is_entry && at(Tok::LParen)) parse_param_list(f.returns);
  const Token& name = expect(Tok::Ident, is_entry ? "a kernel name after .entry" : "a function name after .func");
  f.name = std::string(name.text);
  if (at(Tok::LParen)) parse_param_list(f.params);
  parse_performance_directives(f);

  const uint32_t* existing = functions_.find(f.name);
  uint32_t index = static_cast<uint32_t>(module_.functions.size());
  bool redefining_declaration = false;
  if (existing) {
    if (module_.functions[*existing].has_body || !at(Tok::LBrace)) error(name, "redefinition of '" + f.name + "'");
    else redefining_declaration = true;
  }
  if (!redefining_declaration) functions_.assign(intern(f.name), index);

  if (accept(Tok::Semi)) {
    module_.items.push_back({ModuleItem::Kind::Function, index});
    module_.functions.push_back(std::move(f));
    map_.instr_pos.emplace_back();
    return;
  }
  // Register the function before its body so recursive calls resolve.
  module_.items.push_back({ModuleItem::Kind::Function, index});
  module_.functions.push_back(std::move(f));
  map_.instr_pos.emplace_back();
  if (redefining_declaration) functions_.assign(intern(module_.functions.back().name), index);
  parse_body(module_.functions.back());
}

}  // namespace racer::ptx::detail
