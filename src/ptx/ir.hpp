#pragma once
// The PTX intermediate representation: typed, resolved and ready to execute. Registers are
// dense indices per function, labels are instruction indices, modifiers are small enums.
// Everything needed to print the module back is kept; where the text was (line/column) is
// kept beside it in SourceMap, which takes no part in IR equality.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ptx/modifiers.hpp"
#include "ptx/opcodes.hpp"
#include "ptx/types.hpp"

namespace racer::ptx {

enum class SpecialReg : uint8_t {
  Tid, Ntid, Ctaid, Nctaid, Laneid, Warpid, Nwarpid, Smid, Nsmid, Gridid, LanemaskEq, LanemaskLe,
  LanemaskLt, LanemaskGe, LanemaskGt, Clock, Clock64, Globaltimer, DynamicSmemSize, TotalSmemSize,
  ClusterCtaid, ClusterNctaid, ClusterCtarank, ClusterNctarank, Clusterid, Nclusterid, IsExplicitCluster,
  Count
};
std::string_view special_reg_name(SpecialReg r);  // with the %, e.g. "%tid"
std::optional<SpecialReg> special_reg_from_name(std::string_view name);
bool special_reg_has_components(SpecialReg r);     // %tid.x vs %laneid

enum class SymbolKind : uint8_t { Label, ModuleVar, LocalVar, Param, Function };

struct Operand {
  enum class Kind : uint8_t { Reg, Special, Imm, FloatImm, Symbol, Address, Vector, Sink, ParenList, Pair };
  Kind kind = Kind::Imm;
  bool negated = false;        // !%p
  uint8_t component = 0;       // special registers: 0 none, 1..3 = .x .y .z
  uint8_t float_bits = 0;      // FloatImm: 32 (0f...) or 64 (0d...); 0 for a decimal literal
  SymbolKind symbol_kind = SymbolKind::Label;
  uint32_t index = 0;          // register, special register, or symbol index
  int64_t value = 0;           // Imm value; FloatImm bits; Address offset
  // Vector/ParenList elements; Pair: {first, second} of "d|p"; Address: {base} or {base, coords vector}
  std::vector<Operand> elems;
  bool operator==(const Operand&) const = default;
};

struct DebugLoc {
  uint32_t file = 0, line = 0, col = 0;
  // .loc ..., function_name LABEL, inlined_at FILE LINE COL
  std::string function_name;
  uint32_t inlined_file = 0, inlined_line = 0, inlined_col = 0;
  bool operator==(const DebugLoc&) const = default;
};

struct Instr {
  Op op = Op::Exit;
  std::array<uint8_t, kModCount> mods{};  // per group: 0 absent, else value index + 1
  std::array<Type, 4> types{};            // in order of appearance
  uint8_t num_types = 0;
  Shape shape;
  bool has_guard = false, guard_negated = false;
  uint32_t guard = 0;  // predicate register
  std::vector<Operand> operands;
  int32_t debug_loc = -1;  // the .loc in force: index into Function::debug_locs

  bool has(Mod g) const { return mods[static_cast<size_t>(g)] != 0; }
  // Value index of a present group (callers check has() first, or compare with kAbsent).
  uint8_t mod(Mod g) const { return static_cast<uint8_t>(mods[static_cast<size_t>(g)] - 1); }
  void set(Mod g, uint8_t value_index) { mods[static_cast<size_t>(g)] = static_cast<uint8_t>(value_index + 1); }
  Type type(size_t i = 0) const { return i < num_types ? types[i] : Type::None; }
  bool operator==(const Instr&) const = default;
};

struct Register {
  std::string name;
  Type type = Type::None;
  bool operator==(const Register&) const = default;
};

// A ".reg .b32 %r<49>;" declaration: registers first .. first+count-1 named %r0..%r48.
struct RegDecl {
  Type type = Type::None;
  std::string base;
  uint32_t first = 0, count = 1;
  bool is_range = false;  // %r<N> form
  bool operator==(const RegDecl&) const = default;
};

struct Initializer {
  std::vector<Operand> values;  // Imm / FloatImm / Symbol (address of a variable or function)
  bool braced = false;
  bool operator==(const Initializer&) const = default;
};

struct Variable {
  std::string name;
  Space space = Space::None;
  Type type = Type::None;
  uint32_t align = 0;       // 0: natural
  uint8_t vec = 0;          // .v2/.v4 variables
  std::vector<uint64_t> dims;  // array dimensions; 0 for "[]" (extern, size from launch)
  bool has_dims = false;
  std::string linkage;      // "", "extern", "visible", "weak", "common"
  std::optional<Initializer> init;
  // Param attributes (.ptr .global .align N)
  bool ptr = false;
  Space ptr_space = Space::None;
  uint32_t ptr_align = 0;
  bool operator==(const Variable&) const = default;
  uint64_t element_count() const;
  uint64_t size_bytes() const;  // 0 for an unsized extern array
};

struct Label {
  std::string name;
  uint32_t target = 0;  // index of the next instruction
  bool operator==(const Label&) const = default;
};

// Body items, in text order, for printing and for scopes ({ } blocks of inline asm).
struct BodyItem {
  enum class Kind : uint8_t { Instr, Label, RegDecl, Var, Open, Close, Pragma, Loc };
  Kind kind = Kind::Instr;
  uint32_t index = 0;  // into instrs, labels, reg_decls, vars, pragmas or debug_locs
  bool operator==(const BodyItem&) const = default;
};

struct Function {
  std::string name;
  bool is_entry = false;
  std::string linkage;  // "visible", "extern", "weak", ""
  bool has_body = false;
  std::vector<Variable> params;
  std::vector<Variable> returns;  // .func return parameters
  // Performance directives; 0 = absent.
  std::array<uint32_t, 3> reqntid{}, maxntid{}, reqnctapercluster{};
  uint32_t minnctapersm = 0, maxnreg = 0;
  bool explicitcluster = false, noreturn = false;
  std::vector<std::string> directive_pragmas;  // .pragma before the body

  std::vector<Register> regs;
  std::vector<RegDecl> reg_decls;
  std::vector<Variable> vars;  // .local/.shared/.param declared inside the body
  std::vector<Instr> instrs;
  std::vector<Label> labels;
  std::vector<std::string> pragmas;
  std::vector<DebugLoc> debug_locs;
  std::vector<BodyItem> items;
  bool operator==(const Function&) const = default;

  uint32_t thread_count_required() const;  // product of .reqntid, 0 when absent
};

struct DebugFile {
  uint32_t index = 0;
  std::string name;
  std::string extra;  // ", timestamp, size" if present, verbatim
  bool operator==(const DebugFile&) const = default;
};

struct Section {
  std::string name;                 // e.g. ".debug_info"
  std::vector<std::string> lines;   // contents without comments, whitespace-normalized
  bool operator==(const Section&) const = default;
};

struct ModuleItem {
  enum class Kind : uint8_t { Var, Function, File, Section };
  Kind kind = Kind::Var;
  uint32_t index = 0;
  bool operator==(const ModuleItem&) const = default;
};

struct Module {
  std::string version;               // "8.7"
  std::vector<std::string> target;   // {"sm_90a"} or {"sm_90", "debug"}
  uint32_t address_size = 64;
  std::vector<Variable> vars;
  std::vector<Function> functions;
  std::vector<DebugFile> files;
  std::vector<Section> sections;
  std::vector<ModuleItem> items;
  bool operator==(const Module&) const = default;

  const Function* find_function(std::string_view name) const;
  const Function* find_entry(std::string_view name) const;
  const DebugFile* find_file(uint32_t index) const;
};

// Where each instruction came from in the PTX text (line, column), per function.
struct SourceMap {
  std::string path;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> instr_pos;  // [function][instr] -> line, col
};

}  // namespace racer::ptx
