#include "check/reference_build.hpp"

#include "support/error.hpp"

namespace racer::check {

std::vector<std::vector<expr::ExprId>> build_reference(const instance::Reference& ref, expr::Store& st,
                                                       const InitialCell& input) {
  using instance::RefOp;
  std::vector<expr::ExprId> ids(ref.nodes.size());
  std::vector<expr::ExprId> ops;
  for (size_t n = 0; n < ref.nodes.size(); ++n) {
    const instance::RefNode& node = ref.nodes[n];
    ops.clear();
    for (uint32_t a : node.args) ops.push_back(ids[a]);
    auto cmp = [&](expr::CmpOp op) { return st.cmp(op, ops[0], ops[1]); };
    if (node.op != RefOp::Select)
      for (expr::ExprId a : ops)
        if (st.is_condition(a))
          throw Error(ExitCode::BadInput, "reference " + ref.function + ": node " + std::to_string(n) + " (" +
                                              std::string(instance::ref_op_name(node.op)) + ") takes a condition as a number");
    expr::ExprId& out = ids[n];
    switch (node.op) {
      case RefOp::Input: out = input(static_cast<size_t>(node.tensor), node.cell); break;
      case RefOp::Const: {
        mpq_class q(node.value);
        q.canonicalize();
        out = st.constant(q);
        break;
      }
      case RefOp::PosInf: out = st.pos_inf(); break;
      case RefOp::NegInf: out = st.neg_inf(); break;
      case RefOp::Add: out = st.add(ops); break;
      case RefOp::Mul: out = st.mul(ops); break;
      case RefOp::Neg: out = st.neg(ops[0]); break;
      case RefOp::Div: out = st.div(ops[0], ops[1]); break;
      case RefOp::PowInt: out = st.pow_int(ops[0], mpz_class(node.value)); break;
      case RefOp::Exp: out = st.exp(ops[0]); break;
      case RefOp::Log: out = st.log(ops[0]); break;
      case RefOp::Sqrt: out = st.sqrt(ops[0]); break;
      case RefOp::Tanh: out = st.tanh(ops[0]); break;
      case RefOp::Erf: out = st.erf(ops[0]); break;
      case RefOp::Sin: out = st.sin(ops[0]); break;
      case RefOp::Cos: out = st.cos(ops[0]); break;
      case RefOp::Abs: out = st.abs(ops[0]); break;
      case RefOp::Max: out = st.max(ops); break;
      case RefOp::Min: out = st.min(ops); break;
      case RefOp::Lt: out = cmp(expr::CmpOp::Lt); break;
      case RefOp::Le: out = cmp(expr::CmpOp::Le); break;
      case RefOp::Eq: out = cmp(expr::CmpOp::Eq); break;
      case RefOp::Ne: out = cmp(expr::CmpOp::Ne); break;
      case RefOp::Select:
        // The tracer keeps conditions and numbers apart; a graph that mixes them is bad input,
        // not an internal error of the store.
        if (!st.is_condition(ops[0]) || st.is_condition(ops[1]) != st.is_condition(ops[2]))
          throw Error(ExitCode::BadInput, "reference " + ref.function + ": node " + std::to_string(n) +
                                              " selects with a number as condition, or between a number and a condition");
        out = st.select(ops[0], ops[1], ops[2]);
        break;
    }
  }
  std::vector<std::vector<expr::ExprId>> outs;
  for (const auto& cells : ref.outputs) {
    outs.emplace_back();
    for (uint32_t c : cells) {
      if (st.is_condition(ids[c]))
        throw Error(ExitCode::BadInput, "reference " + ref.function + ": an output cell is a condition; convert it to 0/1 first");
      outs.back().push_back(ids[c]);
    }
  }
  return outs;
}

}  // namespace racer::check
