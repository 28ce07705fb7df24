#include "ptx/printer.hpp"

#include <cstdio>

namespace racer::ptx {
namespace {

class Printer {
 public:
  explicit Printer(const Module& m) : m_(m) {}

  std::string module() {
    out_ += ".version " + m_.version + "\n";
    // A module read without .target prints without one (".target" alone would not parse).
    if (!m_.target.empty()) {
      out_ += ".target ";
      for (size_t i = 0; i < m_.target.size(); ++i) out_ += (i ? ", " : "") + m_.target[i];
      out_ += "\n";
    }
    out_ += ".address_size " + std::to_string(m_.address_size) + "\n";
    for (const ModuleItem& it : m_.items) {
      out_ += '\n';
      switch (it.kind) {
        case ModuleItem::Kind::File: {
          const DebugFile& f = m_.files[it.index];
          out_ += ".file " + std::to_string(f.index) + " \"" + f.name + "\"" + f.extra + "\n";
          break;
        }
        case ModuleItem::Kind::Section: {
          const Section& s = m_.sections[it.index];
          out_ += ".section " + s.name + "\n{\n";
          for (const auto& l : s.lines) out_ += l + "\n";
          out_ += "}\n";
          break;
        }
        case ModuleItem::Kind::Var:
          out_ += variable(m_.vars[it.index]) + ";\n";
          break;
        case ModuleItem::Kind::Function:
          function(m_.functions[it.index]);
          break;
      }
    }
    return std::move(out_);
  }

  std::string instruction(const Function& f, const Instr& ins) {
    fn_ = &f;
    std::string s;
    if (ins.has_guard) s += std::string("@") + (ins.guard_negated ? "!" : "") + f.regs[ins.guard].name + " ";
    const OpInfo& info = op_info(ins.op);
    s += info.name;
    for (Mod g : info.slots) {
      if (g == kTypesSlot) {
        for (size_t i = 0; i < ins.num_types; ++i) s += "." + std::string(type_name(ins.types[i]));
      } else if (g == Mod::Shape) {
        if (ins.has(Mod::Shape)) {
          s += ".m" + std::to_string(ins.shape.m) + "n" + std::to_string(ins.shape.n);
          if (ins.shape.k) s += "k" + std::to_string(ins.shape.k);
        }
      } else if (ins.has(g)) {
        s += "." + std::string(mod_values(g)[ins.mod(g)]);
      }
    }
    for (size_t i = 0; i < ins.operands.size(); ++i) s += (i ? ", " : " ") + operand(ins.operands[i]);
    return s + ";";
  }

 private:
  std::string variable(const Variable& v) {
    std::string s;
    if (!v.linkage.empty()) s += "." + v.linkage + " ";
    s += "." + std::string(space_name(v.space));
    // Before the type even for a .ptr param: after ".ptr" an .align is the pointee's (ptr_align).
    if (v.align) s += " .align " + std::to_string(v.align);
    if (v.vec) s += " .v" + std::to_string(v.vec);
    s += " ." + std::string(type_name(v.type));
    if (v.ptr) {
      s += " .ptr";
      if (v.ptr_space != Space::None) s += " ." + std::string(space_name(v.ptr_space));
      if (v.ptr_align) s += " .align " + std::to_string(v.ptr_align);
    }
    s += " " + v.name;
    for (uint64_t d : v.dims) s += d ? "[" + std::to_string(d) + "]" : "[]";
    if (v.init) {
      s += " = ";
      if (v.init->braced) s += "{";
      for (size_t i = 0; i < v.init->values.size(); ++i) s += (i ? ", " : "") + operand(v.init->values[i]);
      if (v.init->braced) s += "}";
    }
    return s;
  }

  void params(const std::vector<Variable>& ps) {
    out_ += "(";
    for (size_t i = 0; i < ps.size(); ++i) out_ += (i ? ",\n\t" : "\n\t") + variable(ps[i]);
    out_ += ps.empty() ? ")" : "\n)";
  }

  void function(const Function& f) {
    fn_ = &f;
    if (!f.linkage.empty()) out_ += "." + f.linkage + " ";
    out_ += f.is_entry ? ".entry " : ".func ";
    if (!f.is_entry && !f.returns.empty()) {
      params(f.returns);
      out_ += " ";
    }
    out_ += f.name;
    params(f.params);
    out_ += "\n";
    auto dims = [&](const char* name, const std::array<uint32_t, 3>& d) {
      if (!d[0]) return;
      out_ += std::string(name) + " " + std::to_string(d[0]);
      for (int i = 1; i < 3 && d[i]; ++i) out_ += ", " + std::to_string(d[i]);
      out_ += "\n";
    };
    dims(".reqntid", f.reqntid);
    dims(".maxntid", f.maxntid);
    dims(".reqnctapercluster", f.reqnctapercluster);
    if (f.minnctapersm) out_ += ".minnctapersm " + std::to_string(f.minnctapersm) + "\n";
    if (f.maxnreg) out_ += ".maxnreg " + std::to_string(f.maxnreg) + "\n";
    if (f.explicitcluster) out_ += ".explicitcluster\n";
    if (f.noreturn) out_ += ".noreturn\n";
    for (const auto& p : f.directive_pragmas) out_ += ".pragma " + p + ";\n";
    if (!f.has_body) {
      out_ += ";\n";
      return;
    }
    out_ += "{\n";
    int depth = 1;
    auto indent = [&] { out_ += std::string(static_cast<size_t>(depth), '\t'); };
    for (const BodyItem& it : f.items) {
      switch (it.kind) {
        case BodyItem::Kind::Instr: {
          indent();
          out_ += instruction(f, f.instrs[it.index]) + "\n";
          break;
        }
        case BodyItem::Kind::Loc:
          indent();
          out_ += loc(f.debug_locs[it.index]) + "\n";
          break;
        case BodyItem::Kind::Label:
          out_ += f.labels[it.index].name + ":\n";
          break;
        case BodyItem::Kind::RegDecl: {
          const RegDecl& d = f.reg_decls[it.index];
          indent();
          out_ += ".reg ." + std::string(type_name(d.type)) + " " + d.base;
          if (d.is_range) out_ += "<" + std::to_string(d.count) + ">";
          out_ += ";\n";
          break;
        }
        case BodyItem::Kind::Var:
          indent();
          out_ += variable(f.vars[it.index]) + ";\n";
          break;
        case BodyItem::Kind::Open:
          indent();
          out_ += "{\n";
          ++depth;
          break;
        case BodyItem::Kind::Close:
          --depth;
          indent();
          out_ += "}\n";
          break;
        case BodyItem::Kind::Pragma:
          indent();
          out_ += ".pragma " + f.pragmas[it.index] + ";\n";
          break;
      }
    }
    out_ += "}\n";
  }

  static std::string loc(const DebugLoc& l) {
    std::string s = ".loc " + std::to_string(l.file) + " " + std::to_string(l.line) + " " + std::to_string(l.col);
    if (!l.function_name.empty())
      s += ", function_name " + l.function_name + ", inlined_at " + std::to_string(l.inlined_file) + " " +
           std::to_string(l.inlined_line) + " " + std::to_string(l.inlined_col);
    return s;
  }

  std::string symbol(const Operand& op) {
    switch (op.symbol_kind) {
      case SymbolKind::Label: return fn_->labels[op.index].name;
      case SymbolKind::ModuleVar: return m_.vars[op.index].name;
      case SymbolKind::LocalVar: return fn_->vars[op.index].name;
      case SymbolKind::Param:
        return op.index < fn_->params.size() ? fn_->params[op.index].name
                                             : fn_->returns[op.index - fn_->params.size()].name;
      case SymbolKind::Function: return m_.functions[op.index].name;
    }
    return "?";
  }

  std::string operand(const Operand& op) {
    std::string neg = op.negated ? "!" : "";
    switch (op.kind) {
      case Operand::Kind::Reg: return neg + fn_->regs[op.index].name;
      case Operand::Kind::Special: {
        std::string s(special_reg_name(static_cast<SpecialReg>(op.index)));
        if (op.component) s += std::string(".") + "xyz"[op.component - 1];
        return s;
      }
      case Operand::Kind::Imm: return std::to_string(op.value);
      case Operand::Kind::FloatImm: {
        char buf[24];
        if (op.float_bits == 32) std::snprintf(buf, sizeof buf, "0f%08X", static_cast<unsigned>(op.value));
        else std::snprintf(buf, sizeof buf, "0d%016llX", static_cast<unsigned long long>(op.value));
        return buf;
      }
      case Operand::Kind::Symbol: return symbol(op);
      case Operand::Kind::Sink: return "_";
      case Operand::Kind::Pair: return operand(op.elems[0]) + "|" + operand(op.elems[1]);
      case Operand::Kind::Vector:
      case Operand::Kind::ParenList: {
        bool v = op.kind == Operand::Kind::Vector;
        std::string s = v ? "{" : "(";
        for (size_t i = 0; i < op.elems.size(); ++i) s += (i ? ", " : "") + operand(op.elems[i]);
        return s + (v ? "}" : ")");
      }
      case Operand::Kind::Address: {
        // An immediate address is unsigned: "[-1]" would not parse.
        const Operand& base = op.elems[0];
        std::string s = "[" + (base.kind == Operand::Kind::Imm ? std::to_string(static_cast<uint64_t>(base.value))
                                                                : operand(base));
        if (op.value) s += "+" + std::to_string(op.value);
        if (op.elems.size() > 1) s += ", " + operand(op.elems[1]);
        return s + "]";
      }
    }
    return "?";
  }

  const Module& m_;
  const Function* fn_ = nullptr;
  std::string out_;
};

}  // namespace

std::string print_module(const Module& m) { return Printer(m).module(); }

std::string print_instruction(const Module& m, const Function& f, const Instr& ins) {
  return Printer(m).instruction(f, ins);
}

}  // namespace racer::ptx
