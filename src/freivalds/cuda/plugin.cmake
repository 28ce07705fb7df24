# The CUDA backend of `racer freivalds --gpu`, a plugin loaded at run time (the racer binary
# never links libcudart/libcublas). Built with nvcc directly, outside CMake's CUDA language
# support, so that the project's C++ warning flags don't reach nvcc; only where nvcc exists.
find_program(RACER_NVCC nvcc PATHS /usr/local/cuda/bin)
option(RACER_CUDA_PLUGIN "Build libracer_freivalds_cuda.so when nvcc is found" ON)
if(RACER_NVCC AND RACER_CUDA_PLUGIN)
  set(fv_cuda_srcs ${CMAKE_SOURCE_DIR}/src/freivalds/cuda/plugin.cu ${CMAKE_SOURCE_DIR}/src/freivalds/cuda/device_check.cu
      ${CMAKE_SOURCE_DIR}/src/freivalds/cuda/device_data.cu ${CMAKE_SOURCE_DIR}/src/freivalds/cuda/device_int_data.cu
      ${CMAKE_SOURCE_DIR}/src/freivalds/cuda/modular_check.cu)
  file(GLOB fv_cuda_headers ${CMAKE_SOURCE_DIR}/src/freivalds/cuda/*.cuh ${CMAKE_SOURCE_DIR}/src/freivalds/*.hpp)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/libracer_freivalds_cuda.so
    COMMAND ${RACER_NVCC} -std=c++20 -O3 -shared -Xcompiler -fPIC -gencode=arch=compute_90,code=sm_90
            -I${CMAKE_SOURCE_DIR}/src ${fv_cuda_srcs} -lcublas -o ${CMAKE_BINARY_DIR}/libracer_freivalds_cuda.so
    DEPENDS ${fv_cuda_srcs} ${fv_cuda_headers}
    COMMENT "nvcc: libracer_freivalds_cuda.so (racer freivalds --gpu)")
  add_custom_target(racer_freivalds_cuda ALL DEPENDS ${CMAKE_BINARY_DIR}/libracer_freivalds_cuda.so)
endif()
