#pragma once
// What both programs of a check share: the expression store (so equal expressions are the
// same node across programs), the symbols' origins (for witnesses), and the limits.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "exec/launch.hpp"
#include "exec/packed.hpp"
#include "expr/store.hpp"

namespace racer::exec {

struct SymbolOrigin {
  enum class Kind : uint8_t { InputCell, UninitTensor, UninitShared, UninitLocal, OutOfBounds, RacingRead, Unmapped } kind;
  int tensor = -1;        // InputCell, UninitTensor, Unmapped
  int64_t cell = -1;      // flat logical index, or storage element for storage no cell maps to
  char program = 0;       // for memory private to one program
  // (No description: the symbol's name in the store says where it came from, and an input
  // tensor of millions of cells is millions of origins.)
};

class Session {
 public:
  explicit Session(Limits limits = {});
  // (The store's growth guard refers to this session.)
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  expr::Store& store() { return store_; }
  const expr::Store& store() const { return store_; }
  // Registers' byte lanes that a Value cannot hold (exec/packed.hpp), for the session's runs.
  LaneTable& lanes() { return lanes_; }
  const Limits& limits() const { return limits_; }
  double elapsed_seconds() const;
  // When the time limit is reached (steady clock); time_point::max() for a limit beyond reach.
  std::chrono::steady_clock::time_point deadline() const;
  // Throws LimitReached when time or memory is exhausted. Runs the poll hook first.
  void check_limits() const;
  // Called at every limits check (every 65536 thread-instructions, every decided cell), so a
  // caller can report progress from the thread doing the work; empty: nothing to call.
  void set_poll(std::function<void()> poll) { poll_ = std::move(poll); }
  static size_t resident_mb();  // this process's resident memory
  // Before allocating `mb` MiB for `what`: throws LimitReached when that, on top of what is
  // resident now, would pass the memory limit.
  void reserve_mb(uint64_t mb, const std::string& what) const;
  // Whether `mb` MiB more than is resident now would pass the memory limit.
  bool passes_memory_limit(uint64_t mb) const;

  expr::ExprId symbol(const SymbolOrigin& origin, const std::string& name, const std::optional<expr::Range>& range = {},
                      bool integer = false);
  // The origin of a symbol made here; nullopt for any other node.
  std::optional<SymbolOrigin> origin(expr::ExprId symbol) const;
  // The symbol of cell `cell` of input tensor `tensor` (whose spec is t), made on first use:
  // both programs' machines read the same one. Input cells are a symbol family of their
  // tensor's: no name is built, looked up or kept per cell, and no origin is stored.
  expr::ExprId input_cell(size_t tensor, int64_t cell, const TensorSpec& t);
  // Every symbol made here, in the order they were made.
  std::vector<expr::ExprId> symbols() const;

 private:
  expr::Store store_;
  LaneTable lanes_;
  Limits limits_;
  std::chrono::steady_clock::time_point start_;
  // Symbols made by symbol(), with their origins: the few that are not input cells.
  std::vector<SymbolOrigin> origins_;
  // By the store's symbol number: 1 + the symbol's place in origins_ (0: not made by symbol()).
  std::vector<uint32_t> origin_of_number_;
  std::vector<std::vector<uint32_t>> input_cells_;  // by tensor, by cell: symbol index + 1 (0: not made yet)
  std::vector<uint16_t> input_family_;  // by tensor: the store's symbol family of its cells (0: none yet)
  std::vector<int> tensor_of_family_;   // by family - 1: the tensor, or -1 for a family made elsewhere
  std::function<void()> poll_;
  // The resident memory as last read, and when: reading it costs a file open (microseconds),
  // and checks come every few cells, so it is read again only after kResidentReadInterval.
  mutable size_t resident_seen_mb_ = 0;
  mutable std::chrono::steady_clock::time_point resident_seen_at_{};
};

}  // namespace racer::exec
