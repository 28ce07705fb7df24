#pragma once
// PTX texts of .func calls through the .param space, shared by the inliner's tests
// (tests/unit/ptx) and the machine's (tests/unit/check).
#include <string>
#include <string_view>

namespace racer::ptx::testing {

// add_one(a) = a < 0 ? a : a + 1, with an early return on the first path.
inline const std::string kAddOneFunc = R"(.func (.param .b32 func_retval0) add_one(.param .b32 add_one_param_0)
{
  .reg .pred %p<2>;
  .reg .f32 %f<3>;
  ld.param.f32 %f1, [add_one_param_0];
  setp.lt.f32 %p1, %f1, 0f00000000;
  st.param.f32 [func_retval0+0], %f1;
  @%p1 ret;
  add.f32 %f2, %f1, 0f3F800000;
  st.param.f32 [func_retval0+0], %f2;
  ret;
}

)";

// nvcc's call sequence: %f<arg> passed to `callee`, its result loaded into %f<result>.
inline std::string call_sequence(std::string_view callee, int arg, int result) {
  return "  {\n  .param .b32 param0;\n  st.param.f32 [param0+0], %f" + std::to_string(arg) +
         ";\n  .param .b32 retval0;\n  call.uni (retval0), " + std::string(callee) +
         ", (param0);\n  ld.param.f32 %f" + std::to_string(result) + ", [retval0+0];\n  }\n";
}

// A .func `name`(a) returning `callee`(a) + `callee`(a) (a callee of itself: recursion).
inline std::string doubling_func(std::string_view name, std::string_view callee) {
  return ".func (.param .b32 func_retval0) " + std::string(name) + "(.param .b32 " + std::string(name) +
         "_param_0)\n{\n  .reg .f32 %f<4>;\n  ld.param.f32 %f1, [" + std::string(name) + "_param_0];\n" +
         call_sequence(callee, 1, 2) + "  add.f32 %f3, %f2, %f2;\n  st.param.f32 [func_retval0+0], %f3;\n  ret;\n}\n\n";
}

}  // namespace racer::ptx::testing
