# cmake -DWASM=file.wasm -P check_simd.cmake
# Fails the build unless the module really contains SIMD128 (v128 / f32x4 ...) instructions.
find_program(WASM_OBJDUMP wasm-objdump REQUIRED)
execute_process(COMMAND ${WASM_OBJDUMP} -d ${WASM} OUTPUT_VARIABLE dis RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "wasm-objdump failed on ${WASM}")
endif()
string(REGEX MATCHALL "(v128|f32x4|f64x2|i32x4|i16x8|i8x16|i64x2)\\.[a-z_0-9]+" ops "${dis}")
list(LENGTH ops count)
if(count EQUAL 0)
  message(FATAL_ERROR "No SIMD128 instructions in ${WASM}: was it built with -msimd128?")
endif()
message(STATUS "SIMD128 check: ${count} v128 instructions in ${WASM}")
