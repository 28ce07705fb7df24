#include "exec/session.hpp"

#include "exec/refusal.hpp"

#include <cstdio>
#include <unistd.h>

namespace racer::exec {
namespace {

// At a few GB/s of allocation at most, 2 ms lets the process grow by a few MiB past a limit
// before the check sees it: far inside the 10% a limit promises.
constexpr std::chrono::milliseconds kResidentReadInterval{2};

}  // namespace

double Session::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Session::check_limits() const {
  if (poll_) poll_();
  if (elapsed_seconds() > limits_.max_seconds)
    throw LimitReached("time limit of " + std::to_string(limits_.max_seconds) + " s reached");
  if (store_.size() > limits_.max_nodes)
    throw LimitReached("expression limit of " + std::to_string(limits_.max_nodes) + " nodes reached");
  const auto now = std::chrono::steady_clock::now();
  if (now - resident_seen_at_ >= kResidentReadInterval) resident_seen_mb_ = resident_mb(), resident_seen_at_ = now;
  if (resident_seen_mb_ > limits_.max_memory_mb)
    throw LimitReached("memory limit of " + std::to_string(limits_.max_memory_mb) + " MiB reached");
}

void Session::reserve_mb(uint64_t mb, const std::string& what) const {
  if (mb + resident_mb() > limits_.max_memory_mb)
    throw LimitReached(what + " would need about " + std::to_string(mb) + " MiB, more than the memory limit of " +
                       std::to_string(limits_.max_memory_mb) + " MiB leaves");
}

size_t Session::resident_mb() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return static_cast<size_t>(resident) * static_cast<size_t>(sysconf(_SC_PAGESIZE)) / (1024 * 1024);
}

expr::ExprId Session::symbol(const SymbolOrigin& origin, const std::string& name, std::optional<expr::Range> range,
                             bool integer) {
  expr::ExprId id = store_.symbol(name, std::move(range), integer);
  origins_.emplace(id.index, origin);
  return id;
}

const SymbolOrigin* Session::origin(expr::ExprId symbol) const {
  auto it = origins_.find(symbol.index);
  return it == origins_.end() ? nullptr : &it->second;
}

}  // namespace racer::exec
