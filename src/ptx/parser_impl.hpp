#pragma once
// Internal to the parser: the token cursor, diagnostics and scoped name tables shared by
// the module-level, body and instruction parsers.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptx/ir.hpp"
#include "ptx/lexer.hpp"
#include "ptx/name_map.hpp"
#include "ptx/parser.hpp"
#include "support/diagnostics.hpp"

namespace racer::ptx::detail {

// Thrown to abandon the current statement after an error has been recorded.
struct Recover {};

// A scope's registers by name. It keeps indices into the function's register list, whose
// names are the keys: the list's strings move as it grows, so views of them would dangle.
class RegTable {
 public:
  const uint32_t* find(std::string_view name, uint32_t hash, const std::vector<Register>& regs) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.index == kEmpty) return nullptr;
      if (s.hash == hash && same_name(regs[s.index].name, name)) return &s.index;
    }
  }
  // Adds regs[index] under its name unless the name is already here (returns false then).
  bool insert(uint32_t hash, uint32_t index, const std::vector<Register>& regs) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 16 : slots_.size() * 2);
    std::string_view name = regs[index].name;
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.index == kEmpty) {
        s = {hash, index};
        ++size_;
        return true;
      }
      if (s.hash == hash && same_name(regs[s.index].name, name)) return false;
    }
  }
  void reserve_more(size_t n) {
    size_t c = 16;
    while (c < 2 * (size_ + n + 1)) c *= 2;
    if (c > slots_.size()) rehash(c);
  }

 private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  struct Slot {
    uint32_t hash = 0;
    uint32_t index = kEmpty;
  };
  void rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    for (const Slot& s : old) {
      if (s.index == kEmpty) continue;
      size_t i = s.hash & mask_;
      while (slots_[i].index != kEmpty) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
};

class Parser {
 public:
  explicit Parser(const SourceText& src);
  ParsedModule run();

  // --- cursor ---
  const Token& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Token& take() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool at(Tok k) const { return peek().kind == k; }
  bool at_word(std::string_view w) const { return peek().kind == Tok::DotWord && peek().text == w; }
  bool accept(Tok k) {
    if (!at(k)) return false;
    take();
    return true;
  }
  const Token& expect(Tok k, std::string_view what) {
    if (!at(k)) [[unlikely]] expect_failed(what);
    return take();
  }
  [[noreturn]] void expect_failed(std::string_view what);
  // True when token i+1 starts right where token i ends (modifiers glue to their opcode).
  bool adjacent_next() const;

  // --- errors ---
  [[noreturn]] void fail(const Token& at, const std::string& message);
  template <class Make>
  [[noreturn]] void fail_lazy(const Token& at, Make&& make);
  void error(const Token& at, const std::string& message);
  void skip_statement();  // to just after the next ';' at this brace depth, or before a '}'

  // --- positions ---
  // Line and column of a byte offset, as SourceText::locate gives them; a cursor over the
  // lexer's line starts makes the usual forward walk constant time.
  LineCol locate(uint32_t offset);

  // --- literals ---
  int64_t parse_int(const Token& t);
  uint64_t parse_uint_token(std::string_view what);

  // --- module level (parse_module.cpp) ---
  void parse_module();
  void parse_version_target();
  void parse_file_directive();
  void parse_section();
  void parse_linked_declaration();
  Variable parse_variable(Space space, bool is_param);
  void parse_function(bool is_entry, std::string linkage);
  void parse_param_list(std::vector<Variable>& out);
  void parse_performance_directives(Function& f);
  Initializer parse_initializer();

  // --- function bodies (parse_body.cpp) ---
  void parse_body(Function& f);
  void parse_reg_decl(Function& f);
  void parse_loc(Function& f);
  void parse_label(Function& f);
  void resolve_labels(Function& f);

  // --- instructions (parse_instruction.cpp) ---
  void parse_instruction(Function& f);
  void parse_opcode_and_modifiers(Instr& ins, const Token& first);
  void parse_operand(Function& f, Instr& ins, Operand& out);
  void parse_address(Function& f, Instr& ins, Operand& out);
  void parse_name_operand(Function& f, const Token& t, Operand& out);
  Operand parse_float_literal(const Token& t, bool negative);

  // --- operand checks (check_operands.cpp) ---
  void check_operands(const Function& f, const Instr& ins, const std::vector<const Token*>& at);
  // Most operands the opcode's operand shape allows (what parse_instruction reserves).
  static size_t operand_capacity(Op op);

  // --- scopes ---
  // Name keys are views of the source text or of arena_, both alive as long as the parser.
  struct Scope {
    int parent = -1;
    RegTable regs;
    NameMap<uint32_t> vars;
    NameMap<uint32_t> labels;
  };
  std::optional<uint32_t> find_reg(std::string_view name) const {
    uint32_t hash = name_hash(name);
    for (int s = scope_; s >= 0; s = scopes_[s].parent)
      if (const uint32_t* r = scopes_[s].regs.find(name, hash, *regs_)) return *r;
    return std::nullopt;
  }
  std::optional<Operand> find_symbol(const Function& f, std::string_view name) const;
  // A copy of s that lives as long as the parser (for names that are not in the source text).
  std::string_view intern(std::string_view s);
  char* arena_alloc(size_t n) {
    if (n > arena_left_) [[unlikely]] arena_grow(n);
    char* p = arena_next_;
    arena_next_ += n;
    arena_left_ -= n;
    return p;
  }
  void arena_grow(size_t n);

  const SourceText& src_;
  std::vector<uint32_t> line_starts_;  // from the lexer, as SourceText has them
  uint32_t line_ = 0;                  // locate()'s cursor: index into line_starts_
  std::vector<Token> toks_;
  size_t pos_ = 0;
  Diagnostics diags_;
  Module module_;
  SourceMap map_;
  NameMap<uint32_t> module_vars_, functions_;
  std::vector<std::unique_ptr<char[]>> arena_;
  char* arena_next_ = nullptr;
  size_t arena_left_ = 0;
  std::vector<const Token*> operand_tokens_;  // parse_instruction's, kept to reuse its storage
  // What parse_opcode_and_modifiers made of an opcode with its glued modifiers, by their text
  // (the same text always reads the same): instructions repeat, so most are looked up.
  struct OpcodeWords {
    Op op;
    std::array<uint8_t, kModCount> mods;
    std::array<Type, 4> types;
    uint8_t num_types;
    Shape shape;
  };
  NameMap<OpcodeWords> opcode_cache_;

  // Per function being parsed.
  std::vector<Scope> scopes_;
  int scope_ = -1;
  const std::vector<Register>* regs_ = nullptr;  // the registers of the function being parsed
  struct PendingLabel {
    uint32_t instr;
    uint32_t operand_path;  // index in operands (labels only appear as top-level operands)
    int scope;
    const Token* tok;
  };
  std::vector<PendingLabel> pending_labels_;
  int32_t current_loc_index_ = -1;
};

}  // namespace racer::ptx::detail
