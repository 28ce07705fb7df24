#include "check/precision_changes.hpp"

#include <map>
#include <set>

#include "check/float_model.hpp"
#include "ptx/opcodes.hpp"
#include "ptx/printer.hpp"

namespace racer::check {
namespace {

// Significand bits of a float type (fp8 pairs included); 0 for other types.
int significand_bits(ptx::Type t) {
  if (t == ptx::Type::E4M3x2) return 4;
  if (t == ptx::Type::E5M2x2) return 3;
  auto f = float_format(t);
  return f ? ieee::info(*f).precision() : 0;
}

struct Form {
  std::string kind, what;
};

// The form of a precision-lowering instruction, or nullopt for any other.
std::optional<Form> form_of(const ptx::Module& mod, const ptx::Function& fn, const ptx::Instr& I) {
  if (I.op == ptx::Op::Cvt && I.num_types >= 2) {
    int to = significand_bits(I.types[0]), from = significand_bits(I.types[1]);
    if (to && from && to < from)
      return Form{"narrowing", "cvt " + std::string(ptx::type_name(I.types[1])) + " -> " + std::string(ptx::type_name(I.types[0]))};
  }
  bool approximate = I.has(ptx::Mod::Rnd) && (I.mod(ptx::Mod::Rnd) == ptx::rnd::APPROX || I.mod(ptx::Mod::Rnd) == ptx::rnd::FULL);
  bool ftz = I.has(ptx::Mod::Ftz);
  if (!approximate && !ftz) return std::nullopt;
  // The opcode with its modifiers and types: the printed instruction up to its operands.
  std::string text = ptx::print_instruction(mod, fn, I);
  size_t begin = text.find_first_not_of(" \t");
  if (begin != std::string::npos && text[begin] == '@') begin = text.find_first_not_of(" \t", text.find_first_of(" \t", begin));
  std::string opcode = begin == std::string::npos ? text : text.substr(begin, text.find_first_of(" \t", begin) - begin);
  return Form{approximate ? "approximation" : "flush_to_zero", opcode};
}

struct Site {
  PrecisionChange change;
  std::string source_line;  // file:line, to list one site per source line
};

// Every precision-lowering instruction of one program, by form.
std::map<std::string, std::vector<Site>> sites_of(const Prepared& prep, char which) {
  std::map<std::string, std::vector<Site>> by_form;
  std::set<std::pair<const ptx::Module*, uint32_t>> done;  // a kernel launched twice is read once
  const PreparedProgram& p = prep.program(which);
  for (size_t li = 0; li < p.launches.size(); ++li) {
    const exec::LaunchSpec& l = p.launches[li];
    if (!l.module || !done.insert({l.module, l.function}).second) continue;
    const ptx::Module& mod = *l.module;
    for (uint32_t fi = 0; fi < mod.functions.size(); ++fi) {
      const ptx::Function& fn = mod.functions[fi];
      // The launched entry and the device functions it may call.
      if (fi != l.function && (fn.is_entry || !fn.has_body)) continue;
      for (uint32_t ii = 0; ii < fn.instrs.size(); ++ii) {
        const ptx::Instr& I = fn.instrs[ii];
        auto form = form_of(mod, fn, I);
        if (!form) continue;
        Site s;
        s.change.program = which;
        s.change.kind = form->kind;
        s.change.what = form->what;
        s.change.launch = static_cast<uint32_t>(li);
        if (l.source_map && fi < l.source_map->instr_pos.size() && ii < l.source_map->instr_pos[fi].size())
          s.change.ptx_line = l.source_map->instr_pos[fi][ii].first;
        if (I.debug_loc >= 0) {
          // An instruction of an inlined library function (cuda_fp16.hpp's __float2half) is
          // named at the user's line that called it.
          const ptx::DebugLoc& d = fn.debug_locs[static_cast<size_t>(I.debug_loc)];
          bool inlined = d.inlined_line != 0;
          uint32_t file_index = inlined ? d.inlined_file : d.file, line = inlined ? d.inlined_line : d.line;
          const ptx::DebugFile* f = mod.find_file(file_index);
          std::string file = f ? f->name : "file " + std::to_string(file_index);
          s.change.source = file + ":" + std::to_string(line) + ":" + std::to_string(inlined ? d.inlined_col : d.col);
          s.source_line = file + ":" + std::to_string(line);
        }
        s.change.instruction = ptx::print_instruction(mod, fn, I);
        by_form[form->what].push_back(std::move(s));
      }
    }
  }
  return by_form;
}

}  // namespace

std::vector<PrecisionChange> precision_changes(const Prepared& prep) {
  std::map<std::string, std::vector<Site>> sites[2] = {sites_of(prep, 'a'), sites_of(prep, 'b')};
  if (prep.inst().b.reference) sites[1].clear();  // a reference side is exact, rounded once
  std::vector<PrecisionChange> out;
  for (int side = 0; side < 2; ++side) {
    for (const auto& [what, list] : sites[side]) {
      if (sites[1 - side].count(what)) continue;  // the other program lowers precision the same way
      std::set<std::string> lines;
      size_t listed_before = out.size();
      uint64_t rest = 0;
      for (const Site& s : list) {
        bool new_line = s.source_line.empty() || lines.insert(s.source_line).second;
        if (new_line && out.size() - listed_before < kSitesPerForm) out.push_back(s.change);
        else ++rest;
      }
      out.back().more = rest;
    }
  }
  return out;
}

}  // namespace racer::check
