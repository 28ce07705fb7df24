#pragma once
// Element types of tensors and explicit types of scalar arguments, as instance files spell them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace racer::instance {

// Tensor element types. Order and spelling follow FORMAT.md.
enum class DType : uint8_t { F64, F32, F16, BF16, FP8E4M3, FP8E5M2, I64, I32, I16, I8, U8, Bool };

std::string_view dtype_name(DType t);
size_t dtype_bytes(DType t);
bool dtype_is_float(DType t);
std::optional<DType> parse_dtype(std::string_view name);
std::span<const std::string_view> dtype_names();

// Types a scalar argument may name explicitly ({ f32 = 1e-5 }). Unlike DType these include
// the unsigned widths PTX params use, and no fp8/bool (no .param has those types).
enum class ScalarType : uint8_t { F64, F32, F16, BF16, I64, I32, I16, I8, U64, U32, U16, U8 };

std::string_view scalar_type_name(ScalarType t);
size_t scalar_type_bytes(ScalarType t);
bool scalar_type_is_float(ScalarType t);
bool scalar_type_is_signed(ScalarType t);  // false for floats
std::optional<ScalarType> parse_scalar_type(std::string_view name);
std::span<const std::string_view> scalar_type_names();

// Inclusive bounds of the integers a value of an integer type may be written as. For
// unsigned types the negative half is accepted too: it denotes two's complement, the way
// Triton passes i32 through .u32 params. Only meaningful when the type is not a float.
struct IntBounds {
  int64_t lo;
  int64_t hi;
};
IntBounds dtype_int_bounds(DType t);
IntBounds scalar_type_int_bounds(ScalarType t);

}  // namespace racer::instance
