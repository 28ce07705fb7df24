// What a tensor map may describe: the rules cuTensorMapEncodeTiled enforces for a tile-mode
// map, checked once for every front end (TOML and the Python API's JSON), so a map the driver
// would reject is an input error here too, not a refusal in the middle of a run.
#include <array>

#include "instance/instance.hpp"

namespace racer::instance {

std::span<const std::string_view> swizzle_names() {
  static constexpr std::array<std::string_view, 4> kNames = {"none", "32B", "64B", "128B"};
  return kNames;
}

std::optional<uint32_t> swizzle_bytes_of(std::string_view name) {
  if (name == "none") return 0u;
  if (name == "32B") return 32u;
  if (name == "64B") return 64u;
  if (name == "128B") return 128u;
  return std::nullopt;
}

std::vector<TensorMapProblem> tensor_map_problems(const TensorMap& m, const Tensor& t) {
  std::vector<TensorMapProblem> out;
  auto problem = [&](const char* field, std::string message) { out.push_back({field, std::move(message)}); };
  if (m.box.empty() || m.box.size() > 5) problem("box", "box must have 1 to 5 dimensions");
  for (int64_t b : m.box)
    if (b < 1 || b > 256) problem("box", "box dimension " + std::to_string(b) + " must be in 1..256 (a TMA limit)");
  if (t.shape.empty() || t.strides.size() != t.shape.size()) return out;  // the tensor's own error stands
  if (m.box.size() != t.shape.size()) {
    problem("box", "box has " + std::to_string(m.box.size()) + " dimensions, tensor '" + t.name + "' has " +
                       std::to_string(t.shape.size()));
    return out;
  }
  const int64_t eb = static_cast<int64_t>(dtype_bytes(t.dtype));
  if (t.strides.back() != 1)
    problem("tensor", "tensor '" + t.name + "' has innermost stride " + std::to_string(t.strides.back()) +
                          "; a tensor map needs its innermost dimension contiguous (stride 1)");
  for (size_t d = 0; d + 1 < t.strides.size(); ++d)
    if (t.strides[d] * eb % 16 != 0)
      problem("tensor", "tensor '" + t.name + "' has a stride of " + std::to_string(t.strides[d] * eb) + " bytes in dimension " +
                            std::to_string(d) + "; a tensor map needs strides that are multiples of 16 bytes");
  const int64_t row = m.box.back() * eb;
  if (row % 16 != 0)
    problem("box", "the box's innermost dimension is " + std::to_string(row) + " bytes; TMA needs a multiple of 16 bytes");
  if (m.swizzle_bytes && row > m.swizzle_bytes)
    problem("box", "the box's innermost dimension is " + std::to_string(row) + " bytes, wider than the " +
                       std::to_string(m.swizzle_bytes) + "-byte swizzle span");
  return out;
}

}  // namespace racer::instance
