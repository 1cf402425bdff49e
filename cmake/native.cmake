# Native targets: the posenc CLI, the desktop explorer and (in tests/) the unit tests.
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 2 REQUIRED)

# The CLI's subcommands are a library (the unit tests call evaluate_request in-process); main.cpp is the
# executable. `export` and `render` drive the explorer headless, so they need posenc_app (and render EGL);
# without the app the CLI is eval only.
file(GLOB POSENC_CLI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/cli/*.cpp)
list(FILTER POSENC_CLI_SOURCES EXCLUDE REGEX "/(main|export|render)\\.cpp$")

if(POSENC_BUILD_APP)
  find_package(SDL2 REQUIRED)
  find_package(OpenGL REQUIRED OPTIONAL_COMPONENTS EGL)
  set(POSENC_SDL2_TARGET SDL2::SDL2)
  include(${PROJECT_SOURCE_DIR}/cmake/app.cmake)
  target_compile_definitions(posenc_app PUBLIC GL_GLEXT_PROTOTYPES)
  target_link_libraries(posenc_app PUBLIC OpenGL::GL)
  target_sources(posenc_runner PRIVATE ${POSENC_PLATFORM}/write_png.cpp)
  # The Chinese catalogue and the CJK face compiled in (the page fetches them instead).
  set(_lang_header ${CMAKE_BINARY_DIR}/generated/posenc_lang_data.h)
  add_custom_command(OUTPUT ${_lang_header}
    COMMAND ${POSENC_FONT_PYTHON} ${POSENC_CJK_SCRIPT} header ${POSENC_CJK_FONT_FILE} ${POSENC_ZH_CATALOGUE} ${_lang_header}
    DEPENDS ${POSENC_CJK_FONT_FILE} ${POSENC_ZH_CATALOGUE} ${POSENC_CJK_SCRIPT} COMMENT "Embedding the Chinese catalogue and CJK face" VERBATIM)
  add_library(posenc_app_languages STATIC ${PROJECT_SOURCE_DIR}/src/app/compiled_languages.cpp ${_lang_header})
  target_include_directories(posenc_app_languages PRIVATE ${CMAKE_BINARY_DIR}/generated)
  target_link_libraries(posenc_app_languages PUBLIC posenc_app PRIVATE posenc_warnings)
  add_executable(posenc-app ${POSENC_SDL_RUNNER_SOURCES} ${POSENC_PLATFORM}/desktop_runner.cpp)
  target_link_libraries(posenc-app PRIVATE posenc_runner posenc_app_languages imgui_sdl posenc_warnings)
  list(APPEND POSENC_CLI_SOURCES ${PROJECT_SOURCE_DIR}/src/cli/export.cpp)
  if(OpenGL_EGL_FOUND)
    add_library(posenc_headless_runner STATIC ${POSENC_PLATFORM}/headless_runner.cpp)
    target_link_libraries(posenc_headless_runner PUBLIC posenc_runner OpenGL::EGL PRIVATE posenc_warnings)
    list(APPEND POSENC_CLI_SOURCES ${PROJECT_SOURCE_DIR}/src/cli/render.cpp)
  else()
    message(WARNING "EGL not found (apt install libegl-dev): posenc render is not built")
  endif()
endif()

add_library(posenc_cli STATIC ${POSENC_CLI_SOURCES})
posenc_layer_root(cli _cli_include)
target_include_directories(posenc_cli PUBLIC ${_cli_include})
target_link_libraries(posenc_cli PUBLIC posenc_core posenc_model_io posenc_version nlohmann_json::nlohmann_json CLI11::CLI11 PRIVATE posenc_warnings)
if(POSENC_BUILD_APP)
  target_link_libraries(posenc_cli PUBLIC posenc_app posenc_app_languages)
  target_compile_definitions(posenc_cli PUBLIC POSENC_HAVE_APP=1)
  if(OpenGL_EGL_FOUND)
    target_link_libraries(posenc_cli PUBLIC posenc_headless_runner)
    target_compile_definitions(posenc_cli PUBLIC POSENC_HAVE_RENDER=1)
  endif()
endif()
add_executable(posenc ${PROJECT_SOURCE_DIR}/src/cli/main.cpp)
target_link_libraries(posenc PRIVATE posenc_cli posenc_warnings)

if(POSENC_BUILD_BENCH AND EXISTS ${PROJECT_SOURCE_DIR}/bench/CMakeLists.txt)
  find_package(benchmark QUIET)
  if(benchmark_FOUND)
    add_subdirectory(bench)
  endif()
endif()
