#include "exec/session.hpp"

#include "exec/refusal.hpp"

#include <algorithm>
#include <limits>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace racer::exec {
namespace {

// At a few GB/s of allocation at most, 2 ms lets the process grow by a few MiB past a limit
// before the check sees it: far inside the 10% a limit promises.
constexpr std::chrono::milliseconds kResidentReadInterval{2};

}  // namespace

Session::Session(Limits limits) : limits_(limits), start_(std::chrono::steady_clock::now()) {
  store_.set_growth_guard([this](size_t bytes) {
    const size_t mb = (bytes + (size_t{1} << 20) - 1) >> 20;
    if (passes_memory_limit(mb))
      throw LimitReached("memory limit of " + std::to_string(limits_.max_memory_mb) + " MiB reached (growing the expression store needs about " +
                         std::to_string(mb) + " MiB more)");
  });
}

double Session::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::chrono::steady_clock::time_point Session::deadline() const {
  constexpr double kYear = 365.0 * 24 * 3600;
  if (!(limits_.max_seconds < kYear)) return std::chrono::steady_clock::time_point::max();
  return start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(limits_.max_seconds));
}

void Session::check_limits() const {
  if (poll_) poll_();
  const auto now = std::chrono::steady_clock::now();  // (one clock read: deciding checks once per cell)
  if (std::chrono::duration<double>(now - start_).count() > limits_.max_seconds)
    throw LimitReached("time limit of " + std::to_string(limits_.max_seconds) + " s reached");
  if (store_.size() > limits_.max_nodes)
    throw LimitReached("expression limit of " + std::to_string(limits_.max_nodes) + " nodes reached");
  if (now - resident_seen_at_ >= kResidentReadInterval) resident_seen_mb_ = resident_mb(), resident_seen_at_ = now;
  if (resident_seen_mb_ > limits_.max_memory_mb)
    throw LimitReached("memory limit of " + std::to_string(limits_.max_memory_mb) + " MiB reached");
}

bool Session::passes_memory_limit(uint64_t mb) const { return mb + resident_mb() > limits_.max_memory_mb; }

void Session::reserve_mb(uint64_t mb, const std::string& what) const {
  if (passes_memory_limit(mb))
    throw LimitReached(what + " would need about " + std::to_string(mb) + " MiB, more than the memory limit of " +
                       std::to_string(limits_.max_memory_mb) + " MiB leaves");
}

size_t Session::resident_mb() {
  // read(2) into a buffer on the stack: a stdio stream would allocate and free its own buffer
  // at every read (the limits are checked every few milliseconds).
  static const size_t page_bytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  char text[128];
  ssize_t n = -1;
  if (int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC); fd >= 0) {
    n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
  }
  if (n <= 0) return 0;
  text[n] = '\0';
  char* rest = nullptr;
  std::strtoull(text, &rest, 10);  // (the first field is the whole size; the second, resident)
  const unsigned long long resident = std::strtoull(rest, nullptr, 10);
  return static_cast<size_t>(resident) * page_bytes / (1024 * 1024);
}

expr::ExprId Session::symbol(const SymbolOrigin& origin, const std::string& name, const std::optional<expr::Range>& range,
                             bool integer) {
  expr::ExprId id = store_.symbol(name, range, integer);
  uint32_t number = store_.symbol_number(id);
  if (origin_of_number_.size() <= number) origin_of_number_.resize(std::max<size_t>(number + 1, origin_of_number_.size() * 2), 0);
  uint32_t& place = origin_of_number_[number];
  if (!place) {  // (the first origin given for a symbol stays)
    origins_.push_back(origin);
    place = static_cast<uint32_t>(origins_.size());
  }
  return id;
}

expr::ExprId Session::input_cell(size_t tensor, int64_t cell, const TensorSpec& t) {
  if (input_cells_.size() <= tensor) input_cells_.resize(tensor + 1), input_family_.resize(tensor + 1, 0);
  std::vector<uint32_t>& cache = input_cells_[tensor];
  if (cache.empty()) {
    if (t.cell_count() > std::numeric_limits<uint32_t>::max())
      throw LimitReached("input tensor " + t.name + " has " + std::to_string(t.cell_count()) + " cells, more than a symbol each can be made for");
    cache.assign(t.cell_count(), 0);
  }
  uint32_t& slot = cache[static_cast<size_t>(cell)];
  if (!slot) {
    uint16_t& family = input_family_[tensor];
    if (!family) {
      family = store_.add_symbol_family([spec = t](uint32_t key) { return spec.cell_name(key); }, t.range, ptx::is_integer(t.elem));
      tensor_of_family_.resize(family, -1);
      tensor_of_family_[family - 1] = static_cast<int>(tensor);
    }
    slot = store_.family_symbol(family, static_cast<uint32_t>(cell)).index + 1;
  }
  return expr::ExprId{slot - 1};
}

std::optional<SymbolOrigin> Session::origin(expr::ExprId symbol) const {
  if (store_.kind(symbol) != expr::Kind::Symbol) return std::nullopt;
  if (std::optional<expr::FamilyKey> k = store_.family_key(symbol)) {
    if (k->family > tensor_of_family_.size() || tensor_of_family_[k->family - 1] < 0) return std::nullopt;
    return SymbolOrigin{SymbolOrigin::Kind::InputCell, tensor_of_family_[k->family - 1], static_cast<int64_t>(k->key), 0};
  }
  uint32_t number = store_.symbol_number(symbol);
  if (number >= origin_of_number_.size() || !origin_of_number_[number]) return std::nullopt;
  return origins_[origin_of_number_[number] - 1];
}

std::vector<expr::ExprId> Session::symbols() const {
  std::vector<expr::ExprId> out;
  out.reserve(store_.symbol_count());
  for (uint32_t n = 0; n < store_.symbol_count(); ++n) {
    expr::ExprId s = store_.symbol_at(n);
    if (origin(s)) out.push_back(s);
  }
  return out;
}

}  // namespace racer::exec
