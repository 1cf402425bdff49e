# The layer rule, checked on the sources: every #include in src/ (conditional ones too) must be one its
# layer may see. Layers only reach down: platform -> app -> core; cli -> app -> core; model_io sits between
# JSON and core. `cmake -DSRC=<repo>/src -P layer_rules.cmake` prints each forbidden include and fails.
#
#   layer     "quoted" (written from src/)       <angle>
#   core      core/                             the C++ standard library, Eigen, <wasm_simd128.h>
#   model_io  core/ model_io/                   + nlohmann/
#   app       core/ model_io/ app/              + nlohmann/, Dear ImGui, the GL headers (no emscripten, no SDL)
#   cli       core/ model_io/ app/ cli/         + nlohmann/, CLI11, <sys/stat.h> (a request's size before reading it)
#   platform  core/ model_io/ app/ platform/    + Dear ImGui, SDL, GL, EGL, emscripten, stb
# Everywhere: no "../"; a bare "name.h" is a file in the same folder or a header generated into the build
# tree (posenc_*.h, also as <posenc_*.h>).
if(NOT SRC OR NOT IS_DIRECTORY "${SRC}")
  message(FATAL_ERROR "usage: cmake -DSRC=<repo>/src -P layer_rules.cmake")
endif()

set(_std algorithm any array atomic bit bitset cassert cctype cerrno cfloat charconv chrono cinttypes climits
    cmath compare complex concepts condition_variable cstddef cstdint cstdio cstdlib cstring ctime cwchar deque
    exception execution filesystem format forward_list fstream functional future initializer_list iomanip ios
    iosfwd iostream istream iterator limits list locale map memory memory_resource mutex new numbers numeric
    optional ostream queue random ranges ratio regex scoped_allocator set shared_mutex source_location span
    sstream stack stdexcept streambuf string string_view system_error thread tuple type_traits typeindex
    typeinfo unordered_map unordered_set utility valarray variant vector version)
list(JOIN _std "|" _std_alt)
set(_std_re "^(${_std_alt})$")
set(_eigen_re "^Eigen/[A-Za-z]+$")
set(_json_re "^nlohmann/json(_fwd)?\\.hpp$")
set(_imgui_re "^imgui(_internal|_stdlib|_impl_opengl3)?\\.h$")
set(_gl_re "^(GL/gl\\.h|GL/glext\\.h|GLES3/gl3\\.h)$")

set(core_quoted core)
set(core_angle "${_std_re}" "^wasm_simd128\\.h$" "${_eigen_re}")
set(model_io_quoted core model_io)
set(model_io_angle "${_std_re}" "${_eigen_re}" "${_json_re}")
set(app_quoted core model_io app)
set(app_angle "${_std_re}" "${_eigen_re}" "${_json_re}" "${_imgui_re}" "${_gl_re}")
set(cli_quoted core model_io app cli)
set(cli_angle "${_std_re}" "${_eigen_re}" "${_json_re}" "^CLI/CLI\\.hpp$" "^sys/stat\\.h$")
set(platform_quoted core model_io app platform)
set(platform_angle "${_std_re}" "${_eigen_re}" "${_imgui_re}" "^imgui_impl_sdl\\.h$" "${_gl_re}" "^SDL\\.h$"
    "^EGL/egl(ext)?\\.h$" "^emscripten(\\.h|/[a-z0-9_]+\\.h)$" "^stb/stb_image_write\\.h$")

# Known exceptions, each "file|include": they stay visible here until the code moves.
#  - `posenc render` drives the one headless platform runner (EGL) from the CLI.
set(_exceptions
  "cli/render.cpp|platform/headless_runner.h")

file(GLOB_RECURSE _files RELATIVE "${SRC}" "${SRC}/*.h" "${SRC}/*.hpp" "${SRC}/*.cpp" "${SRC}/*.cc" "${SRC}/*.inc")
list(SORT _files)
set(_errors 0)
set(_checked 0)
foreach(_file IN LISTS _files)
  string(REGEX MATCH "^[^/]+" _layer "${_file}")
  if(NOT DEFINED ${_layer}_quoted)
    message(SEND_ERROR "src/${_file}: folder '${_layer}' is no known layer (add it to tests/layer_rules.cmake)")
    math(EXPR _errors "${_errors} + 1")
    continue()
  endif()
  get_filename_component(_dir "${SRC}/${_file}" DIRECTORY)
  file(STRINGS "${SRC}/${_file}" _lines REGEX "^[ \t]*#[ \t]*include")
  foreach(_line IN LISTS _lines)
    math(EXPR _checked "${_checked} + 1")
    set(_why "")
    if(_line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
      set(_inc "${CMAKE_MATCH_1}")
      set(_ok FALSE)
      if(_inc MATCHES "^posenc_[a-z0-9_]+\\.h$")  # generated into the build tree
        set(_ok TRUE)
      endif()
      foreach(_re IN LISTS ${_layer}_angle)
        if(_inc MATCHES "${_re}")
          set(_ok TRUE)
          break()
        endif()
      endforeach()
      if(NOT _ok)
        set(_why "<${_inc}> is not a system header the ${_layer} layer may use")
      endif()
    elseif(_line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
      set(_inc "${CMAKE_MATCH_1}")
      if(_inc MATCHES "(^|/)\\.\\.?/")
        set(_why "a relative path: write includes from src/")
      elseif(_inc MATCHES "^([^/]+)/")
        list(FIND ${_layer}_quoted "${CMAKE_MATCH_1}" _at)
        if(_at EQUAL -1)
          set(_why "the ${_layer} layer may not include ${CMAKE_MATCH_1}/ (it sees ${${_layer}_quoted})")
        endif()
      elseif(NOT EXISTS "${_dir}/${_inc}" AND NOT _inc MATCHES "^posenc_[a-z0-9_]+\\.h$")
        set(_why "neither a file in the same folder nor a generated posenc_*.h: write includes from src/")
      endif()
    else()
      set(_inc "${_line}")
      set(_why "an include this check cannot read")
    endif()
    if(_why)
      list(FIND _exceptions "${_file}|${_inc}" _exception)
      if(_exception EQUAL -1)
        string(STRIP "${_line}" _line)
        message("src/${_file}: ${_line}: ${_why}")
        math(EXPR _errors "${_errors} + 1")
      endif()
    endif()
  endforeach()
endforeach()

list(LENGTH _files _nfiles)
if(_errors GREATER 0)
  message(FATAL_ERROR "layer_rules: ${_errors} forbidden include(s) in src/ (rules: tests/layer_rules.cmake)")
endif()
message("layer_rules: ${_checked} includes in ${_nfiles} files follow the layer rules")
