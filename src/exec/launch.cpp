#include "exec/launch.hpp"

namespace racer::exec {

uint64_t TensorSpec::cell_count() const {
  uint64_t n = 1;
  for (int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

std::vector<int64_t> TensorSpec::storage_to_cell() const {
  std::vector<int64_t> map(storage_elements, -1);
  uint64_t cells = cell_count();
  std::vector<int64_t> idx(shape.size(), 0);
  for (uint64_t flat = 0; flat < cells; ++flat) {
    int64_t off = 0;
    for (size_t d = 0; d < shape.size(); ++d) off += idx[d] * strides[d];
    if (off >= 0 && static_cast<uint64_t>(off) < storage_elements && map[off] < 0) map[off] = static_cast<int64_t>(flat);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return map;
}

bool TensorSpec::dense() const {
  int64_t expected = 1;  // (a dimension of extent 1 takes any stride: its index is always 0)
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] > 1 && strides[d] != expected) return false;
    expected *= shape[d];
  }
  return storage_elements == cell_count();
}

int64_t TensorSpec::storage_element(int64_t flat) const {
  int64_t off = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    off += (flat % shape[d]) * strides[d];
    flat /= shape[d];
  }
  return off;
}

std::string TensorSpec::cell_name(int64_t flat) const {
  std::string s = name + "[";
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? "," : "") + std::to_string(idx[d]);
  return s + "]";
}

std::string TensorSpec::unmapped_name(int64_t element) const {
  return name + "[storage " + std::to_string(element) + ", no cell]";
}

}  // namespace racer::exec
