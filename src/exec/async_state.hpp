#pragma once
// State of a CTA's asynchronous operations: cp.async copies in flight (their destination
// bytes are not to be touched until the issuing thread's wait retires them), and wgmma
// accumulator registers pending until wgmma.wait_group. Kept apart from Machine so the
// synchronous core stays as it was.
#include <cstdint>
#include <map>
#include <vector>

#include "exec/value.hpp"

namespace racer::exec {

// One cp.async: the source read when it was issued, landing in shared memory at its wait.
struct AsyncCopy {
  struct Part {
    uint32_t offset;  // from dst
    uint8_t size;
    Value value;
  };
  uint32_t instr = 0;   // the cp.async, where defects of its landing are reported
  uint64_t dst = 0;     // shared-space address
  unsigned size = 0;
  std::vector<Part> parts;
  uint32_t group = kUncommitted;
  static constexpr uint32_t kUncommitted = UINT32_MAX;
};

struct PendingRegister {
  uint32_t reg = 0;
  uint32_t instr = 0;   // the wgmma.mma_async that writes it
  uint32_t group = AsyncCopy::kUncommitted;
};

struct ThreadAsync {
  std::vector<AsyncCopy> copies;
  uint32_t copy_groups = 0;       // cp.async.commit_group count
  std::vector<PendingRegister> regs;
  uint32_t wgmma_groups = 0;      // wgmma.commit_group count
};

struct CtaAsync {
  std::map<uint32_t, ThreadAsync> threads;  // by thread (linear index in the CTA)
  ThreadAsync& of(uint32_t thread) { return threads[thread]; }
};

}  // namespace racer::exec
