# The one style: every C++ file under src/ and tests/ is as clang-format (Debian's clang-format 14, the
# repository's .clang-format) writes it. `cmake -DROOT=<repo> -DCLANG_FORMAT=<exe> -P code_format.cmake`
# lists each file that differs and fails; `clang-format -i FILE` mends one.
if(NOT ROOT OR NOT CLANG_FORMAT)
  message(FATAL_ERROR "usage: cmake -DROOT=<repo> -DCLANG_FORMAT=<clang-format> -P code_format.cmake")
endif()
file(GLOB_RECURSE _files LIST_DIRECTORIES false RELATIVE "${ROOT}"
     "${ROOT}/src/*.cpp" "${ROOT}/src/*.h" "${ROOT}/tests/*.cpp" "${ROOT}/tests/*.h")
list(SORT _files)
# One clang-format for all files (one per file takes 25 s here, one for all 4 s); its errors name the files.
execute_process(COMMAND "${CLANG_FORMAT}" --dry-run -Werror --style=file ${_files}
                WORKING_DIRECTORY "${ROOT}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
string(REGEX MATCHALL "[^\n]+: error: code should be clang-formatted" _hits "${_err}")
set(_bad "")
foreach(_h IN LISTS _hits)
  string(REGEX REPLACE ":[0-9]+:[0-9]+: error: .*" "" _f "${_h}")
  list(APPEND _bad "${_f}")
endforeach()
list(REMOVE_DUPLICATES _bad)
list(LENGTH _files _n)
list(LENGTH _bad _nbad)
if(NOT _rc EQUAL 0 AND _nbad EQUAL 0)
  message(FATAL_ERROR "code_format: clang-format failed (${_rc}): ${_err}")
endif()
if(_nbad GREATER 0)
  foreach(_f IN LISTS _bad)
    message("${_f}: not as clang-format writes it")
  endforeach()
  message(FATAL_ERROR "code_format: ${_nbad} of ${_n} files differ from clang-format (mend: clang-format -i FILE)")
endif()
message("code_format: ${_n} files as clang-format writes them")
