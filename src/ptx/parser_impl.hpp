#pragma once
// Internal to the parser: the token cursor, diagnostics and scoped name tables shared by
// the module-level, body and instruction parsers.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ptx/ir.hpp"
#include "ptx/lexer.hpp"
#include "ptx/parser.hpp"
#include "support/diagnostics.hpp"

namespace racer::ptx::detail {

// Thrown to abandon the current statement after an error has been recorded.
struct Recover {};

class Parser {
 public:
  explicit Parser(const SourceText& src);
  ParsedModule run();

  // --- cursor ---
  const Token& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Token& take() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool at(Tok k) const { return peek().kind == k; }
  bool at_word(std::string_view w) const { return peek().kind == Tok::DotWord && peek().text == w; }
  bool accept(Tok k);
  const Token& expect(Tok k, std::string_view what);
  // True when token i+1 starts right where token i ends (modifiers glue to their opcode).
  bool adjacent_next() const;

  // --- errors ---
  [[noreturn]] void fail(const Token& at, const std::string& message);
  void error(const Token& at, const std::string& message);
  void skip_statement();  // to just after the next ';' at this brace depth, or before a '}'

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
  Operand parse_operand(Function& f, Instr& ins);
  Operand parse_address(Function& f, Instr& ins);
  Operand parse_name_operand(Function& f, const Token& t);
  Operand parse_float_literal(const Token& t, bool negative);

  // --- operand checks (check_operands.cpp) ---
  void check_operands(const Function& f, const Instr& ins, const std::vector<const Token*>& at);

  // --- scopes ---
  struct Scope {
    int parent = -1;
    std::unordered_map<std::string, uint32_t> regs;
    std::unordered_map<std::string, uint32_t> vars;
    std::unordered_map<std::string, uint32_t> labels;
  };
  std::optional<uint32_t> find_reg(std::string_view name) const;
  std::optional<Operand> find_symbol(const Function& f, std::string_view name) const;

  const SourceText& src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  Diagnostics diags_;
  Module module_;
  SourceMap map_;
  std::unordered_map<std::string, uint32_t> module_vars_, functions_;

  // Per function being parsed.
  std::vector<Scope> scopes_;
  int scope_ = -1;
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
