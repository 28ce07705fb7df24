// Thread-block cluster instructions: barrier.cluster.arrive / wait, fence.mbarrier_init, mapa
// and getctarank (the
// model is exec/cluster.cpp). Loads, stores and atomics on .shared::cluster go through the
// ordinary memory instructions; mbarrier arrivals on another CTA through sem/mbarrier.cpp.
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

bool generic(const Instr& i) { return !i.has(Mod::Space); }

void check_space(const Instr& i, const char* what) {
  if (i.has(Mod::Space) && ptx::mod_values(Mod::Space)[i.mod(Mod::Space)] != "shared::cluster")
    throw exec::Refusal(std::string(what) + " on a space other than .shared::cluster or generic");
}

void arrive(ExecContext& c, const Instr& i) {
  std::string_view sem = i.has(Mod::Sem) ? ptx::mod_values(Mod::Sem)[i.mod(Mod::Sem)] : "release";
  if (sem != "release" && sem != "relaxed") throw exec::Refusal("barrier.cluster.arrive." + std::string(sem) + " is not a PTX form");
  c.cluster().cluster_arrive(c, i, sem == "relaxed");
}

void wait(ExecContext& c, const Instr& i) {
  std::string_view sem = i.has(Mod::Sem) ? ptx::mod_values(Mod::Sem)[i.mod(Mod::Sem)] : "acquire";
  if (sem != "acquire") throw exec::Refusal("barrier.cluster.wait." + std::string(sem) + " is not a PTX form");
  c.cluster().cluster_wait(c, i);
}

void init_fence(ExecContext& c, const Instr& i) {
  std::string_view sem = i.has(Mod::Sem) ? ptx::mod_values(Mod::Sem)[i.mod(Mod::Sem)] : "release";
  if (sem != "release") throw exec::Refusal("fence.mbarrier_init." + std::string(sem) + " is not a PTX form");
  c.cluster().mbarrier_init_fence(c);
}

void mapa(ExecContext& c, const Instr& i) {
  check_space(i, "mapa");
  uint64_t a = c.get_bits(i.operands[1], i.type());
  uint32_t rank = static_cast<uint32_t>(int_operand(c, i.operands[2], Type::U32));
  c.set(i.operands[0], Value::of_bits(c.cluster().cluster_map_address(c, a, rank, generic(i)) & IntT(i.type()).mask()));
}

void getctarank(ExecContext& c, const Instr& i) {
  check_space(i, "getctarank");
  uint64_t a = c.get_bits(i.operands[1], i.type());
  c.set(i.operands[0], Value::of_bits(c.cluster().cluster_rank_of(c, a, generic(i))));
}

}  // namespace

void register_cluster(exec::Semantics& s) {
  s.step[size_t(ptx::Op::BarrierClusterArrive)] = arrive;
  s.step[size_t(ptx::Op::BarrierClusterWait)] = wait;
  s.step[size_t(ptx::Op::Mapa)] = mapa;
  s.step[size_t(ptx::Op::Getctarank)] = getctarank;
  s.step[size_t(ptx::Op::FenceMbarrierInit)] = init_fence;
}

}  // namespace racer::sem
