#pragma once
// The instruction semantics: one handler per opcode, written once against exec::Domain.
#include "exec/machine.hpp"

namespace racer::sem {

const exec::Semantics& semantics();

// Registration, one function per ISA family (each in its own file).
void register_integer(exec::Semantics& s);
void register_float(exec::Semantics& s);
void register_logic(exec::Semantics& s);
void register_compare(exec::Semantics& s);
void register_move(exec::Semantics& s);
void register_memory(exec::Semantics& s);
void register_control(exec::Semantics& s);
void register_warp(exec::Semantics& s);
// Tensor cores and asynchronous copies.
void register_mma(exec::Semantics& s);
void register_wmma(exec::Semantics& s);
void register_ldmatrix(exec::Semantics& s);
void register_wgmma(exec::Semantics& s);
void register_async_copy(exec::Semantics& s);
void register_mbarrier(exec::Semantics& s);
void register_tma(exec::Semantics& s);
void register_cluster(exec::Semantics& s);
void register_store_async(exec::Semantics& s);  // st.async, red.async
void register_carry(exec::Semantics& s);
// The .cc (carry-out) forms of add, sub and mad (carry.cpp).
void add_cc(exec::ExecContext& c, const ptx::Instr& i);
void sub_cc(exec::ExecContext& c, const ptx::Instr& i);
void mad_cc(exec::ExecContext& c, const ptx::Instr& i);

}  // namespace racer::sem
