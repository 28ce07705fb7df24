#include "instance/reference.hpp"

#include <array>

namespace racer::instance {
namespace {

struct OpInfo {
  RefOp op;
  std::string_view name;
  int arity;
};

constexpr std::array<OpInfo, 24> kOps = {{
    {RefOp::Input, "in", 0},   {RefOp::Const, "c", 0},      {RefOp::PosInf, "inf", 0},  {RefOp::NegInf, "-inf", 0},
    {RefOp::Add, "add", -1},   {RefOp::Mul, "mul", -1},     {RefOp::Neg, "neg", 1},     {RefOp::Div, "div", 2},
    {RefOp::PowInt, "pow", 1}, {RefOp::Exp, "exp", 1},      {RefOp::Log, "log", 1},     {RefOp::Sqrt, "sqrt", 1},
    {RefOp::Tanh, "tanh", 1},  {RefOp::Erf, "erf", 1},      {RefOp::Sin, "sin", 1},     {RefOp::Cos, "cos", 1},
    {RefOp::Abs, "abs", 1},    {RefOp::Max, "max", -1},     {RefOp::Min, "min", -1},    {RefOp::Lt, "lt", 2},
    {RefOp::Le, "le", 2},      {RefOp::Eq, "eq", 2},        {RefOp::Ne, "ne", 2},       {RefOp::Select, "select", 3},
}};

}  // namespace

std::string_view ref_op_name(RefOp op) { return kOps[static_cast<size_t>(op)].name; }

std::optional<RefOp> parse_ref_op(std::string_view name) {
  for (const OpInfo& o : kOps)
    if (o.name == name) return o.op;
  return std::nullopt;
}

int ref_op_arity(RefOp op) { return kOps[static_cast<size_t>(op)].arity; }

std::string Reference::line_of(size_t output, int64_t cell) const {
  if (output >= output_lines.size() || cell < 0 || static_cast<size_t>(cell) >= output_lines[output].size()) return "";
  uint32_t i = output_lines[output][static_cast<size_t>(cell)];
  return i < lines.size() ? lines[i] : "";
}

}  // namespace racer::instance
