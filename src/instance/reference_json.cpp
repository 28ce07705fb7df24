#include "instance/reference_json.hpp"

#include "support/error.hpp"

namespace racer::instance {
namespace {

using nlohmann::json;
using instance::RefNode;
using instance::RefOp;

int64_t tensor_index(const instance::Instance& inst, const std::string& name) {
  for (size_t i = 0; i < inst.tensors.size(); ++i)
    if (inst.tensors[i].name == name) return static_cast<int64_t>(i);
  return -1;
}

bool is_rational_text(const std::string& s) {
  size_t i = s[0] == '-' ? 1 : 0, slash = s.find('/');
  if (i >= s.size()) return false;
  for (size_t k = i; k < s.size(); ++k)
    if (!(std::isdigit(static_cast<unsigned char>(s[k])) || (k == slash && k > i && k + 1 < s.size()))) return false;
  return slash == std::string::npos || s.find_first_not_of('0', slash + 1) != std::string::npos;
}

std::string number_text(const json& v) {
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  return v.get<std::string>();
}

}  // namespace

std::shared_ptr<const instance::Reference> reference_from_json(const json& j, const instance::Instance& inst) {
  auto ref = std::make_shared<instance::Reference>();
  ref->function = j.value("function", "the reference");
  auto bad = [&](const std::string& what) {
    throw Error(ExitCode::BadInput, "reference " + ref->function + ": " + what);
  };
  try {
    const json& nodes = j.at("nodes");
    ref->nodes.reserve(nodes.size());
    for (size_t n = 0; n < nodes.size(); ++n) {
      const json& e = nodes[n];
      std::string at = "node " + std::to_string(n);
      if (!e.is_array() || e.empty() || !e[0].is_string()) bad(at + " is not [op, operands...]");
      std::string name = e[0].get<std::string>();
      auto op = instance::parse_ref_op(name);
      if (!op) bad(at + ": unknown operation '" + name + "'");
      RefNode node;
      node.op = *op;
      size_t first = 1, last = e.size();
      if (*op == RefOp::Input) {
        if (e.size() != 3) bad(at + ": \"in\" takes a tensor name and a cell");
        node.tensor = tensor_index(inst, e[1].get<std::string>());
        if (node.tensor < 0) bad(at + " reads undeclared tensor '" + e[1].get<std::string>() + "'");
        node.cell = e[2].get<int64_t>();
        if (node.cell < 0 || node.cell >= inst.tensors[static_cast<size_t>(node.tensor)].cell_count())
          bad(at + " reads cell " + std::to_string(node.cell) + " of '" + e[1].get<std::string>() + "', outside its shape");
        if (std::holds_alternative<instance::InitEmpty>(inst.tensors[static_cast<size_t>(node.tensor)].init))
          bad(at + " reads tensor '" + e[1].get<std::string>() + "', which is empty (never written)");
        ref->nodes.push_back(std::move(node));
        continue;
      }
      if (*op == RefOp::Const || *op == RefOp::PowInt) {
        size_t k = *op == RefOp::Const ? 1 : 2;
        if (e.size() != k + 1) bad(at + ": \"" + name + "\" has the wrong number of operands");
        node.value = number_text(e[k]);
        if (!is_rational_text(node.value) || (*op == RefOp::PowInt && node.value.find('/') != std::string::npos))
          bad(at + ": '" + node.value + "' is not " + (*op == RefOp::Const ? "a rational" : "an integer"));
        last = k;
      }
      for (size_t k = first; k < last; ++k) {
        int64_t a = e[k].get<int64_t>();
        if (a < 0 || static_cast<size_t>(a) >= n) bad(at + ": operand " + std::to_string(a) + " is not an earlier node");
        node.args.push_back(static_cast<uint32_t>(a));
      }
      int arity = instance::ref_op_arity(*op);
      if ((arity >= 0 && node.args.size() != static_cast<size_t>(arity)) || (arity < 0 && node.args.empty()))
        bad(at + ": \"" + name + "\" takes " + (arity < 0 ? std::string("at least one operand") : std::to_string(arity) + " operands"));
      ref->nodes.push_back(std::move(node));
    }
    const json& outs = j.at("outputs");
    const json lines_of = j.value("output_lines", json::object());
    if (j.contains("lines"))
      for (const json& l : j["lines"]) ref->lines.push_back(l.get<std::string>());
    for (const std::string& name : inst.outputs) {
      if (!outs.contains(name)) bad("returns no output '" + name + "'");
      const instance::Tensor& t = *inst.find_tensor(name);
      const json& cells = outs[name];
      if (static_cast<int64_t>(cells.size()) != t.cell_count())
        bad("output '" + name + "' has " + std::to_string(cells.size()) + " cells, the tensor " + std::to_string(t.cell_count()));
      std::vector<uint32_t> ids;
      for (const json& c : cells) {
        int64_t id = c.get<int64_t>();
        if (id < 0 || static_cast<size_t>(id) >= ref->nodes.size()) bad("output '" + name + "' names node " + std::to_string(id) + ", which does not exist");
        ids.push_back(static_cast<uint32_t>(id));
      }
      ref->outputs.push_back(std::move(ids));
      std::vector<uint32_t> lines;
      if (lines_of.contains(name))
        for (const json& l : lines_of[name]) lines.push_back(l.get<uint32_t>());
      ref->output_lines.push_back(std::move(lines));
    }
    for (const auto& [name, _] : outs.items())
      if (!inst.find_tensor(name) || std::find(inst.outputs.begin(), inst.outputs.end(), name) == inst.outputs.end())
        bad("returns '" + name + "', which is not an output of the instance");
  } catch (const json::exception& e) {
    bad(std::string("malformed graph: ") + e.what());
  }
  return ref;
}

json reference_to_json(const instance::Reference& ref, const instance::Instance& inst) {
  json nodes = json::array();
  for (const RefNode& n : ref.nodes) {
    json e = json::array({std::string(instance::ref_op_name(n.op))});
    if (n.op == RefOp::Input) {
      e.push_back(inst.tensors[static_cast<size_t>(n.tensor)].name);
      e.push_back(n.cell);
    } else if (n.op == RefOp::Const) {
      e.push_back(n.value);
    }
    for (uint32_t a : n.args) e.push_back(a);
    if (n.op == RefOp::PowInt) e.push_back(n.value);
    nodes.push_back(std::move(e));
  }
  json outs = json::object(), lines = json::object();
  for (size_t o = 0; o < inst.outputs.size() && o < ref.outputs.size(); ++o) {
    outs[inst.outputs[o]] = ref.outputs[o];
    lines[inst.outputs[o]] = ref.output_lines[o];
  }
  return {{"function", ref.function}, {"nodes", std::move(nodes)}, {"outputs", std::move(outs)},
          {"lines", ref.lines}, {"output_lines", std::move(lines)}};
}

}  // namespace racer::instance
