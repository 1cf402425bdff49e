# Native targets: the posenc CLI, the desktop explorer and (in tests/) the unit tests.
find_package(nlohmann_json 3 REQUIRED)

file(GLOB POSENC_CLI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/cli/*.cpp)
add_executable(posenc ${POSENC_CLI_SOURCES})
target_link_libraries(posenc PRIVATE posenc_core nlohmann_json::nlohmann_json posenc_warnings)

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
