#include "instance/instance.hpp"

#include <array>

namespace racer::instance {

std::string SourceLoc::str() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

Number Number::from_int(int64_t v) {
  return Number{std::to_string(v), true, v, static_cast<double>(v)};
}

std::string_view init_name(const Init& init) {
  static constexpr std::array<std::string_view, 5> kNames = {"input", "empty", "zeros", "full", "values"};
  return kNames[init.index()];
}

int64_t Tensor::cell_count() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t Tensor::storage_elements() const {
  // Strides may overlap or leave gaps, so the span is set by the farthest cell, not the count.
  int64_t last = 0;
  for (size_t i = 0; i < shape.size() && i < strides.size(); ++i) last += (shape[i] - 1) * strides[i];
  return last + 1;
}

std::vector<int64_t> Tensor::row_major_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

std::string_view access_name(Access a) {
  switch (a) {
    case Access::Read: return "read";
    case Access::Write: return "write";
    case Access::ReadWrite: return "readwrite";
  }
  return "?";
}

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Equivalent: return "equivalent";
    case Verdict::Inequivalent: return "inequivalent";
    case Verdict::NotEquivalent: return "not_equivalent";
    case Verdict::EqualUpToRounding: return "equal_up_to_rounding";
  }
  return "?";
}

std::span<const std::string_view> defect_kind_names() {
  static constexpr std::array<std::string_view, 6> kNames = {"oob_write", "oob_read", "uninit_read", "race",
                                                             "access_violation", "unmapped_read"};
  return kNames;
}

std::span<const std::string_view> category_names() {
  static constexpr std::array<std::string_view, 8> kNames = {
      "sampled_input", "implicit_input", "unchecked_output", "below_tolerance", "race", "oob_read", "other", "none"};
  return kNames;
}

const Tensor* Instance::find_tensor(std::string_view name) const {
  for (const auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

void report(Diagnostics& diags, const Instance& inst, const SourceLoc& loc, std::string message) {
  if (inst.source && loc.line != 0) {
    diags.error(*inst.source, loc.offset, loc.width, std::move(message));
    return;
  }
  // Built by code: no text to point into, so the message carries the whole location.
  SourceText none(loc.file.empty() ? inst.source_path : loc.file, "");
  diags.error(none, 0, 1, std::move(message));
}

}  // namespace racer::instance
