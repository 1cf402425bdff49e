# Native targets: the posenc CLI, the desktop explorer and (in tests/) the unit tests.
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 2 REQUIRED)

# The CLI's subcommands are a library (the unit tests call evaluate_request in-process); main.cpp is the
# executable.
file(GLOB POSENC_CLI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/cli/*.cpp)
list(FILTER POSENC_CLI_SOURCES EXCLUDE REGEX "/main\\.cpp$")
add_library(posenc_cli STATIC ${POSENC_CLI_SOURCES})
target_include_directories(posenc_cli PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(posenc_cli PUBLIC posenc_core nlohmann_json::nlohmann_json CLI11::CLI11 PRIVATE posenc_warnings)
add_executable(posenc ${PROJECT_SOURCE_DIR}/src/cli/main.cpp)
target_link_libraries(posenc PRIVATE posenc_cli posenc_warnings)

if(POSENC_BUILD_APP)
  find_package(SDL2 REQUIRED)
  find_package(OpenGL REQUIRED)
  set(POSENC_SDL2_TARGET SDL2::SDL2)
  include(${PROJECT_SOURCE_DIR}/cmake/app.cmake)
  target_compile_definitions(posenc_app PUBLIC GL_GLEXT_PROTOTYPES)
  target_link_libraries(posenc_app PUBLIC OpenGL::GL)
  add_executable(posenc-app ${POSENC_PLATFORM_SOURCES})
  target_link_libraries(posenc-app PRIVATE posenc_app posenc_warnings)
endif()

if(POSENC_BUILD_BENCH AND EXISTS ${PROJECT_SOURCE_DIR}/bench/CMakeLists.txt)
  find_package(benchmark QUIET)
  if(benchmark_FOUND)
    add_subdirectory(bench)
  endif()
endif()
