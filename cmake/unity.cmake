# posenc_unity(TARGET BATCH): TARGET's own C++ sources compile as batches of BATCH files, each a generated
# file that #includes them. CMake's UNITY_BUILD does the same but writes the sources' absolute paths into
# its batch files, so a batch's text differs between two clones and the compiler cache (scripts/
# compiler-launcher, which relativises paths on the command line only) misses every batch of every fresh
# clone, CI's included. These batches name their sources relative to the batch file: the same text in every
# clone whose build folder sits where the presets put it.
#
# Left out of the batches, as CMake's UNITY_BUILD leaves them out: sources outside the checkout, generated
# ones and those with their own compile properties (model_families.cpp's include folder). A batch sees its
# files' anonymous namespaces as one, so a file's helpers need names no other file of the target uses.
# The target gets POSENC_UNITY (posenc_warnings turns GCC's -Wsubobject-linkage off there: in a batch
# every source is "a header" to it).
function(posenc_unity target batch)
  if(NOT batch GREATER 0)
    return()
  endif()
  get_target_property(_sources ${target} SOURCES)
  get_target_property(_dir ${target} SOURCE_DIR)
  set(_out_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.unity)
  set(_kept "")
  set(_batches "")
  set(_content "")
  set(_n 0)
  foreach(_src IN LISTS _sources)
    if(_src MATCHES "^\\$<")  # a generator expression: not a path yet
      list(APPEND _kept ${_src})
      continue()
    endif()
    cmake_path(ABSOLUTE_PATH _src BASE_DIRECTORY ${_dir} NORMALIZE OUTPUT_VARIABLE _abs)
    get_source_file_property(_generated ${_abs} GENERATED)
    set(_own_props FALSE)
    foreach(_prop COMPILE_OPTIONS COMPILE_DEFINITIONS COMPILE_FLAGS INCLUDE_DIRECTORIES SKIP_UNITY_BUILD_INCLUSION)
      get_source_file_property(_value ${_abs} ${_prop})
      if(_value)
        set(_own_props TRUE)
      endif()
    endforeach()
    cmake_path(IS_PREFIX PROJECT_SOURCE_DIR ${_abs} NORMALIZE _inside)
    if(NOT _abs MATCHES "\\.(cpp|cc|cxx)$" OR _generated OR _own_props OR NOT _inside)
      list(APPEND _kept ${_src})
      continue()
    endif()
    file(RELATIVE_PATH _rel ${_out_dir} ${_abs})
    string(APPEND _content "#include \"${_rel}\"\n")
    math(EXPR _n "${_n} + 1")
    if(_n EQUAL batch)
      list(LENGTH _batches _i)
      file(GENERATE OUTPUT ${_out_dir}/batch_${_i}.cpp CONTENT "${_content}")
      list(APPEND _batches ${_out_dir}/batch_${_i}.cpp)
      set(_content "")
      set(_n 0)
    endif()
  endforeach()
  if(_n GREATER 0)
    list(LENGTH _batches _i)
    file(GENERATE OUTPUT ${_out_dir}/batch_${_i}.cpp CONTENT "${_content}")
    list(APPEND _batches ${_out_dir}/batch_${_i}.cpp)
  endif()
  set_property(TARGET ${target} PROPERTY SOURCES ${_kept} ${_batches})
  set_property(TARGET ${target} PROPERTY POSENC_UNITY ON)
endfunction()
