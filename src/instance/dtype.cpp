#include "instance/dtype.hpp"

#include <array>
#include <limits>

namespace racer::instance {
namespace {

constexpr std::array<std::string_view, 12> kDTypeNames = {
    "f64", "f32", "f16", "bf16", "fp8e4m3", "fp8e5m2", "i64", "i32", "i16", "i8", "u8", "bool"};
constexpr std::array<size_t, 12> kDTypeBytes = {8, 4, 2, 2, 1, 1, 8, 4, 2, 1, 1, 1};

constexpr std::array<std::string_view, 12> kScalarNames = {
    "f64", "f32", "f16", "bf16", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8"};
constexpr std::array<size_t, 12> kScalarBytes = {8, 4, 2, 2, 8, 4, 2, 1, 8, 4, 2, 1};

constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();

IntBounds signed_bounds(size_t bytes) {
  if (bytes == 8) return {kMin64, kMax64};
  int64_t half = int64_t{1} << (8 * bytes - 1);
  return {-half, half - 1};
}

}  // namespace

std::string_view dtype_name(DType t) { return kDTypeNames[static_cast<size_t>(t)]; }
size_t dtype_bytes(DType t) { return kDTypeBytes[static_cast<size_t>(t)]; }
bool dtype_is_float(DType t) { return t <= DType::FP8E5M2; }
std::span<const std::string_view> dtype_names() { return kDTypeNames; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (size_t i = 0; i < kDTypeNames.size(); ++i)
    if (kDTypeNames[i] == name) return static_cast<DType>(i);
  return std::nullopt;
}

IntBounds dtype_int_bounds(DType t) {
  switch (t) {
    case DType::U8: return {0, 255};
    case DType::Bool: return {0, 1};
    default: return signed_bounds(dtype_bytes(t));
  }
}

std::string_view scalar_type_name(ScalarType t) { return kScalarNames[static_cast<size_t>(t)]; }
size_t scalar_type_bytes(ScalarType t) { return kScalarBytes[static_cast<size_t>(t)]; }
bool scalar_type_is_float(ScalarType t) { return t <= ScalarType::BF16; }
bool scalar_type_is_signed(ScalarType t) { return t >= ScalarType::I64 && t <= ScalarType::I8; }
std::span<const std::string_view> scalar_type_names() { return kScalarNames; }

std::optional<ScalarType> parse_scalar_type(std::string_view name) {
  for (size_t i = 0; i < kScalarNames.size(); ++i)
    if (kScalarNames[i] == name) return static_cast<ScalarType>(i);
  return std::nullopt;
}

IntBounds scalar_type_int_bounds(ScalarType t) {
  size_t bytes = scalar_type_bytes(t);
  IntBounds b = signed_bounds(bytes);
  // Unsigned: the signed range (two's complement spelling) plus the upper half.
  if (!scalar_type_is_signed(t) && bytes < 8) b.hi = (int64_t{1} << (8 * bytes)) - 1;
  return b;
}

}  // namespace racer::instance
