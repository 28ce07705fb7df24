#pragma once
// The operand formats a checked product can have, and what rounding each one implies.
#include <string>

namespace racer::freivalds {

// tf32 is f32 storage whose multiplies round their inputs to 10 fraction bits (tensor cores).
enum class Format { F32, TF32, F16, BF16 };

Format parse_format(const std::string& name);  // racer::Error (BadInput) on an unknown name
const char* format_name(Format f);

// Unit roundoff (half an ulp of 1) of the stored C elements: f32/tf32 2^-24, f16 2^-11, bf16 2^-8.
double output_unit_roundoff(Format f);
// Unit roundoff of the rounding applied to A and B inside the multiply: 2^-11 for tf32
// (f32 inputs rounded to tf32), 0 for the others (their stored values are multiplied exactly).
double input_unit_roundoff(Format f);
// Unit roundoff of the matmul's f32 accumulation. Tensor-core accumulation (f16, bf16, tf32)
// aligns and truncates rather than rounding to nearest, so a full ulp (2^-23) is assumed there;
// f32 on CUDA cores rounds to nearest (2^-24).
double accumulation_unit_roundoff(Format f);

// Rounds an f32 value to the nearest value of format f (ties to even), kept as a float.
float round_to_format(Format f, float x);
// The value a multiply in format f actually uses for a stored operand: tf32 rounds the
// significand to 10 fraction bits; the other formats use the stored value.
float multiply_input(Format f, float x);

}  // namespace racer::freivalds
