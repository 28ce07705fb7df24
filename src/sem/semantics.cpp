#include "sem/semantics.hpp"

#include "sem/common.hpp"

namespace racer::sem {

void refuse_packed(const Instr& ins) {
  throw exec::Refusal("packed ." + std::string(ptx::type_name(ins.type())) + " arithmetic is not modelled yet");
}

const exec::Semantics& semantics() {
  static const exec::Semantics s = [] {
    exec::Semantics t;
    register_integer(t);
    register_float(t);
    register_logic(t);
    register_compare(t);
    register_move(t);
    register_memory(t);
    register_control(t);
    register_warp(t);
    register_carry(t);
    register_mma(t);
    register_wmma(t);
    register_ldmatrix(t);
    register_wgmma(t);
    register_async_copy(t);
    register_mbarrier(t);
    register_tma(t);
    register_cluster(t);
    register_store_async(t);
    return t;
  }();
  return s;
}

}  // namespace racer::sem
