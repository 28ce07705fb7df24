#pragma once
// Prints the IR as canonical PTX: modifiers in the ISA's order, one statement per line.
// Printing is a fixed point: parse(print(m)) == m and print(parse(print(m))) == print(m).
#include <string>

#include "ptx/ir.hpp"

namespace racer::ptx {

std::string print_module(const Module& m);
std::string print_instruction(const Module& m, const Function& f, const Instr& ins);

}  // namespace racer::ptx
