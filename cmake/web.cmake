# Web target: the explorer compiled to WebAssembly SIMD128, a static site in POSENC_SITE_DIR.
set(POSENC_SITE_DIR "${PROJECT_SOURCE_DIR}/build/web" CACHE PATH "Where the static web site is written")

# -msimd128 for everything we compile (core kernels use wasm_simd128.h; clang autovectorises the rest).
add_compile_options(-msimd128)
# The core reports bad arguments by throwing InvalidArgument; emcc's default only lets exceptions abort,
# so enable catching: WebAssembly's own exception handling (try/catch in the module; every browser of
# the last four years and node 20 run it), not emcc's JavaScript emulation, whose invoke_* trampolines
# wrap every call that may throw in a call out to JavaScript (larger code, slower calls).
set(POSENC_WASM_EH -fwasm-exceptions CACHE STRING "How the web build catches C++ exceptions (-fwasm-exceptions or -fexceptions)")
add_compile_options(${POSENC_WASM_EH})
add_link_options(${POSENC_WASM_EH})
# posenc_core is defined before this file is included, so the directory options above miss it.
target_compile_options(posenc_core PUBLIC -msimd128 ${POSENC_WASM_EH})
target_link_options(posenc_core PUBLIC ${POSENC_WASM_EH})

if(POSENC_BUILD_APP)
  # SDL2 built for wasm by scripts/bootstrap (Emscripten's own SDL2 port cannot be used offline).
  # scripts/env.sh's SDL2_WASM_PREFIX; its name changes when bootstrap builds SDL2 differently, and a
  # build directory configured with an earlier one of bootstrap's builds moves to the current one.
  set(_sdl2_dir "${POSENC_DEPS}/sdl2-wasm-lean/lib/cmake/SDL2")
  string(FIND "${SDL2_DIR}" "${POSENC_DEPS}/sdl2-wasm" _sdl2_ours)
  if(NOT SDL2_DIR OR (_sdl2_ours EQUAL 0 AND NOT SDL2_DIR STREQUAL _sdl2_dir))
    set(SDL2_DIR "${_sdl2_dir}" CACHE PATH "SDL2 for wasm" FORCE)
  endif()
  find_package(SDL2 REQUIRED CONFIG)
  if(NOT TARGET SDL2::SDL2-static)
    message(FATAL_ERROR "SDL2_DIR=${SDL2_DIR} is not the SDL2 built for wasm by scripts/bootstrap")
  endif()
  set(POSENC_SDL2_TARGET SDL2::SDL2-static)
  include(${PROJECT_SOURCE_DIR}/cmake/app.cmake)
  # Page weight (the target is <= 0.6 MB gzip): the UI, the page glue and the model readers run once per
  # frame or per load, not per cell, so they are compiled for size; the core (posenc_core: kernels and
  # the double-precision formulas) keeps -O3.
  foreach(_small IN ITEMS imgui imgui_sdl posenc_app posenc_runner posenc_model_io)
    target_compile_options(${_small} PRIVATE -Oz)
  endforeach()
  # The RoPE tensor check (core/analysis/rope_check.cpp) runs once per check the user asks for, not per
  # cell or frame: for size too.
  set_source_files_properties(${PROJECT_SOURCE_DIR}/src/core/analysis/rope_check.cpp PROPERTIES COMPILE_OPTIONS -Oz)
  # The double-precision formulas (encodings, analyses, the exact attention behind hover and export) run
  # once per state change over O(n) or O(n d) values, or for one cell: for size too. The per-cell float
  # paths (core/kernels, score_kernels.cpp, layer_mask.cpp) keep -O3.
  file(GLOB _posenc_formula_sources ${PROJECT_SOURCE_DIR}/src/core/encodings/*.cpp ${PROJECT_SOURCE_DIR}/src/core/analysis/*.cpp)
  list(APPEND _posenc_formula_sources ${PROJECT_SOURCE_DIR}/src/core/attention/attention.cpp
       ${PROJECT_SOURCE_DIR}/src/core/attention/absolute_attention.cpp)
  set_source_files_properties(${_posenc_formula_sources} PROPERTIES COMPILE_OPTIONS -Oz)
  # The model readers (config.json fields, GGUF headers) run once per load: for size too.
  file(GLOB _posenc_model_sources ${PROJECT_SOURCE_DIR}/src/core/models/*.cpp)
  set_source_files_properties(${_posenc_model_sources} PROPERTIES COMPILE_OPTIONS -Oz)
  # Dear ImGui never throws and calls nothing of ours that does: no exception landing pads in it.
  target_compile_options(imgui PRIVATE -fno-exceptions)

  # web_api.cpp: every function the page calls (the page ABI); web_runner.cpp: the loop it reaches.
  add_executable(posenc-web ${POSENC_SDL_RUNNER_SOURCES} ${POSENC_PLATFORM}/web_runner.cpp
                            ${POSENC_PLATFORM}/web_api.cpp ${POSENC_PLATFORM}/touch_gestures.cpp
                            ${POSENC_PLATFORM}/web_stand_ins.cpp)
  target_link_libraries(posenc-web PRIVATE posenc_runner imgui_sdl posenc_warnings)
  target_compile_options(posenc-web PRIVATE -Oz)
  # emcc writes posenc.html, posenc.js and posenc.wasm into a link folder of the build tree; the site gets
  # them by the declared copies below (a step that deleted or renamed its own output would relink every build).
  set(POSENC_WEB_LINK_DIR ${CMAKE_BINARY_DIR}/web-link)
  set_target_properties(posenc-web PROPERTIES OUTPUT_NAME "posenc" SUFFIX ".html"
    RUNTIME_OUTPUT_DIRECTORY ${POSENC_WEB_LINK_DIR})
  # SDL's JS glue references these two library functions; a literal $ cannot pass through CMake/Ninja.
  file(WRITE ${CMAKE_BINARY_DIR}/sdl_lib_funcs.txt "$autoResumeAudioContext\n$dynCall\n")
  # The link's wasm-opt pass for size (-Os): LLVM has already compiled the kernels at -O3 per file; the
  # link-time pass mostly shrinks what is not hot. Not -Oz: at shrink level 2 emcc links musl's
  # pow_small / log_small, whose results differ from glibc's by an ulp (ALiBi slopes, inv_freq would no
  # longer equal the native numbers).
  # Features ImGui and SDL reach for and posenc never uses, each replaced by a stand-in (web_stand_ins.cpp,
  # which says why) so that its code, data and JavaScript stay out of the page.
  foreach(_unused IN ITEMS _ZN11ImFontAtlas14AddFontDefaultEPK12ImFontConfig eglGetProcAddress
          emscripten_request_fullscreen_strategy emscripten_exit_fullscreen emscripten_set_fullscreenchange_callback_on_thread
          emscripten_request_pointerlock emscripten_exit_pointerlock emscripten_set_pointerlockchange_callback_on_thread
          emscripten_set_gamepadconnected_callback_on_thread emscripten_set_gamepaddisconnected_callback_on_thread
          emscripten_sample_gamepad_data emscripten_get_num_gamepads emscripten_get_gamepad_status)
    target_link_options(posenc-web PRIVATE -Wl,--wrap=${_unused})
  endforeach()
  target_link_options(posenc-web PRIVATE -Os
    -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16777216
    -sFILESYSTEM=0 -sENVIRONMENT=web -sMINIFY_HTML=0 -sWASM_BIGINT -sTEXTDECODER=2
    # smaller than dlmalloc; the app allocates few, large blocks. No per-call GL error tracking.
    -sMALLOC=emmalloc -sGL_TRACK_ERRORS=0 -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0
    -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString,addRunDependency,removeRunDependency
    # The page copies long strings into wasm memory itself (web/page/abi.js); emcc exported malloc/free
    # only as a side effect of its JavaScript exception emulation.
    -sEXPORTED_FUNCTIONS=_main,_malloc,_free
    -sDEFAULT_LIBRARY_FUNCS_TO_INCLUDE=@${CMAKE_BINARY_DIR}/sdl_lib_funcs.txt
    --shell-file ${PROJECT_SOURCE_DIR}/web/shell.html)
  set_property(TARGET posenc-web APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/web/shell.html)

  # The site (POSENC_SITE_DIR): every file in it is declared by the step that writes it (the link's copies
  # as BYPRODUCTS, every other file as the OUTPUT of its own custom command) and no step deletes or renames
  # a file it declares, so a second `cmake --build --preset web` prints `ninja: no work to do.` (scripts/test
  # checks it). A new site file (an assembled script, a generated asset) is one more
  # add_custom_command(OUTPUT ${POSENC_SITE_DIR}/<name> ...) appended to _posenc_site_copies.
  # index.html is the linked shell; the page script (assembled from web/page/), other pages and static
  # assets from web/ are copied (scripts minified) beside it, each whenever it changes (no relink needed).
  file(GLOB POSENC_WEB_ASSETS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/web/*.css ${PROJECT_SOURCE_DIR}/web/*.js
       ${PROJECT_SOURCE_DIR}/web/*.svg ${PROJECT_SOURCE_DIR}/web/*.png ${PROJECT_SOURCE_DIR}/web/*.html)
  list(FILTER POSENC_WEB_ASSETS EXCLUDE REGEX "shell\\.html$")
  find_program(POSENC_NODE NAMES node nodejs REQUIRED)  # emcc needs it anyway
  # The page script: the ES modules of web/page/ assembled into one classic script, posenc-page.js
  # (scripts/assemble-js.mjs), then minified like the other scripts.
  file(GLOB POSENC_PAGE_MODULES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/web/page/*.js)
  set(_page_assembled ${CMAKE_BINARY_DIR}/page/posenc-page.js)
  add_custom_command(OUTPUT ${_page_assembled}
    COMMAND ${POSENC_NODE} ${PROJECT_SOURCE_DIR}/scripts/assemble-js.mjs ${PROJECT_SOURCE_DIR}/web/page/main.js
            ${_page_assembled}
    DEPENDS ${POSENC_PAGE_MODULES} ${PROJECT_SOURCE_DIR}/scripts/assemble-js.mjs VERBATIM)
  list(APPEND POSENC_WEB_ASSETS ${_page_assembled})
  # posenc-lang.js with the app's tables it needs before the app runs written in from their C++ rows
  # (cmake/page_tables.cmake), then minified like the other scripts.
  list(REMOVE_ITEM POSENC_WEB_ASSETS ${PROJECT_SOURCE_DIR}/web/posenc-lang.js)
  posenc_page_tables(${CMAKE_BINARY_DIR}/page/posenc-lang.js)
  list(APPEND POSENC_WEB_ASSETS ${CMAKE_BINARY_DIR}/page/posenc-lang.js)
  # The scripts' minifier (cmake/minify_js.cmake) and Binaryen's optimiser, the one emcc runs.
  set(POSENC_TERSER ${PROJECT_SOURCE_DIR}/node_modules/terser/bin/terser)
  find_program(POSENC_WASM_OPT wasm-opt REQUIRED)
  # After the link: one more wasm-opt -Os over the whole module (emcc runs it once; a second pass finds
  # ~3.5 KB gzip more to fold, at the same optimisation level, with the features the module declares),
  # the SIMD check, then the site's copies (posenc.js minified: emcc only strips its whitespace).
  add_custom_command(TARGET posenc-web POST_BUILD
    COMMAND ${POSENC_WASM_OPT} -Os ${POSENC_WEB_LINK_DIR}/posenc.wasm -o ${POSENC_WEB_LINK_DIR}/posenc.wasm
    COMMAND ${CMAKE_COMMAND} -DWASM=${POSENC_WEB_LINK_DIR}/posenc.wasm -P ${PROJECT_SOURCE_DIR}/cmake/check_simd.cmake
    COMMAND ${CMAKE_COMMAND} -E copy ${POSENC_WEB_LINK_DIR}/posenc.html ${POSENC_SITE_DIR}/index.html
    COMMAND ${CMAKE_COMMAND} -DNODE=${POSENC_NODE} -DTERSER=${POSENC_TERSER} -DIN=${POSENC_WEB_LINK_DIR}/posenc.js
            -DOUT=${POSENC_SITE_DIR}/posenc.js -P ${PROJECT_SOURCE_DIR}/cmake/minify_js.cmake
    COMMAND ${CMAKE_COMMAND} -E copy ${POSENC_WEB_LINK_DIR}/posenc.wasm ${POSENC_SITE_DIR}
    BYPRODUCTS ${POSENC_SITE_DIR}/index.html ${POSENC_SITE_DIR}/posenc.js ${POSENC_SITE_DIR}/posenc.wasm VERBATIM)
  set(_posenc_site_copies)
  foreach(_asset IN LISTS POSENC_WEB_ASSETS)
    get_filename_component(_name ${_asset} NAME)
    if(_name MATCHES "\\.js$" AND POSENC_NODE)
      add_custom_command(OUTPUT ${POSENC_SITE_DIR}/${_name}
        COMMAND ${CMAKE_COMMAND} -DNODE=${POSENC_NODE} -DTERSER=${POSENC_TERSER}
                -DIN=${_asset} -DOUT=${POSENC_SITE_DIR}/${_name} -P ${PROJECT_SOURCE_DIR}/cmake/minify_js.cmake
        DEPENDS ${_asset} ${PROJECT_SOURCE_DIR}/cmake/minify_js.cmake VERBATIM)
    else()
      add_custom_command(OUTPUT ${POSENC_SITE_DIR}/${_name}
        COMMAND ${CMAKE_COMMAND} -E copy_if_different ${_asset} ${POSENC_SITE_DIR}/${_name}
        DEPENDS ${_asset} VERBATIM)
    endif()
    list(APPEND _posenc_site_copies ${POSENC_SITE_DIR}/${_name})
  endforeach()
  # The Chinese interface, fetched only when needed: the catalogue (whitespace dropped) and the CJK face.
  add_custom_command(OUTPUT ${POSENC_SITE_DIR}/posenc-zh.json
    COMMAND ${POSENC_FONT_PYTHON} ${POSENC_CJK_SCRIPT} catalogue ${POSENC_ZH_CATALOGUE} ${POSENC_SITE_DIR}/posenc-zh.json
    DEPENDS ${POSENC_ZH_CATALOGUE} ${POSENC_CJK_SCRIPT} VERBATIM)
  add_custom_command(OUTPUT ${POSENC_SITE_DIR}/posenc-cjk.ttf
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${POSENC_CJK_FONT_FILE} ${POSENC_SITE_DIR}/posenc-cjk.ttf
    DEPENDS ${POSENC_CJK_FONT_FILE} VERBATIM)
  list(APPEND _posenc_site_copies ${POSENC_SITE_DIR}/posenc-zh.json ${POSENC_SITE_DIR}/posenc-cjk.ttf)
  add_custom_target(posenc-web-assets ALL DEPENDS ${_posenc_site_copies})
  add_dependencies(posenc-web posenc-web-assets)
endif()
