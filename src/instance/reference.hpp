#pragma once
// Program B given as a reference: the eager code a kernel replaces (a NumPy or PyTorch
// function), traced once over symbolic arrays into a graph of real operations. Each output
// cell is a node of the graph; the checker builds it into the same expression store the
// kernel's symbolic run uses (check/reference_build), and evaluates it at concrete points for
// replays (check/reference_eval). The graph is plain data here so that the instance layer
// stays below the expression layer.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace racer::instance {

enum class RefOp : uint8_t {
  Input,   // a cell of an instance tensor: tensor index, flat logical cell
  Const,   // an exact rational, "p/q" or an integer
  PosInf,
  NegInf,
  Add,     // n-ary
  Mul,     // n-ary
  Neg,
  Div,
  PowInt,  // operand ^ integer exponent (in `value`)
  Exp,
  Log,
  Sqrt,
  Tanh,
  Erf,
  Sin,
  Cos,
  Abs,
  Max,     // n-ary
  Min,     // n-ary
  Lt,      // comparisons are conditions, used by Select (and And/Or/Not written as selects)
  Le,
  Eq,
  Ne,
  Select,  // cond, then, else
};

// The spelling in the JSON graph ("in", "c", "add", ...), and back.
std::string_view ref_op_name(RefOp op);
std::optional<RefOp> parse_ref_op(std::string_view name);
// Operand count an op takes: a fixed number, or -1 for n-ary (at least one).
int ref_op_arity(RefOp op);

struct RefNode {
  RefOp op = RefOp::Const;
  std::vector<uint32_t> args;  // earlier nodes
  int64_t tensor = -1, cell = -1;  // Input
  std::string value;               // Const: the rational; PowInt: the exponent
};

struct Reference {
  std::string function;  // the traced function, as "file.py:line name", for reports
  std::vector<RefNode> nodes;
  // Per instance output (Instance::outputs order): per flat logical cell, its node.
  std::vector<std::vector<uint32_t>> outputs;
  // Per output, per cell: the user's line that made the cell's node ("file.py:12"), where known.
  std::vector<std::vector<uint32_t>> output_lines;  // indexes into `lines`
  std::vector<std::string> lines;

  std::string line_of(size_t output, int64_t cell) const;  // "" when unknown
};

}  // namespace racer::instance
