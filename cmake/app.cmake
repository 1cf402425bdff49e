# The explorer, shared by desktop and web: Dear ImGui (from Debian's source package), the app layer
# (views, plots, heatmaps, state) and the embedded GLSL shaders. Expects POSENC_SDL2_TARGET.
if(NOT EXISTS ${IMGUI_DIR}/imgui.cpp)
  message(FATAL_ERROR "Dear ImGui sources not found at ${IMGUI_DIR}: run scripts/bootstrap")
endif()
# imgui: the core and the OpenGL 3 renderer (all the app layer and the headless CLI renderer need);
# imgui_sdl: the SDL2 platform backend, for the windowed runners only.
add_library(imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp
  ${IMGUI_DIR}/imgui_widgets.cpp ${IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp
  ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR} ${IMGUI_DIR}/backends ${IMGUI_DIR}/misc/cpp)
target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
add_library(imgui_sdl STATIC ${IMGUI_DIR}/backends/imgui_impl_sdl.cpp)
target_link_libraries(imgui_sdl PUBLIC imgui ${POSENC_SDL2_TARGET})
# Third-party code: C++20 deprecates some of its enum arithmetic; not ours to fix.
target_compile_options(imgui PRIVATE -Wno-deprecated-enum-enum-conversion)
target_compile_options(imgui_sdl PRIVATE -Wno-deprecated-enum-enum-conversion)
if(EMSCRIPTEN)
  target_compile_definitions(imgui PUBLIC IMGUI_IMPL_OPENGL_ES3 IMGUI_DISABLE_FILE_FUNCTIONS)
endif()

# GLSL sources in shaders/ become string constants (the #version line is added per target at run time).
file(GLOB POSENC_SHADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/shaders/*.glsl)
set(POSENC_SHADER_HEADER ${CMAKE_BINARY_DIR}/generated/posenc_shaders.h)
string(REPLACE ";" "," _posenc_shader_list "${POSENC_SHADERS}")
add_custom_command(OUTPUT ${POSENC_SHADER_HEADER}
  COMMAND ${CMAKE_COMMAND} -DOUT=${POSENC_SHADER_HEADER} -DIN=${_posenc_shader_list}
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_shaders.cmake
  DEPENDS ${POSENC_SHADERS} ${PROJECT_SOURCE_DIR}/cmake/embed_shaders.cmake
  COMMENT "Embedding GLSL shaders" VERBATIM)

include(${PROJECT_SOURCE_DIR}/cmake/fonts.cmake)

file(GLOB POSENC_APP_SOURCES CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/src/app/*.cpp ${PROJECT_SOURCE_DIR}/src/app/views/*.cpp)
# The Chinese catalogue and the CJK face compiled in: native programs only (posenc_app_languages).
list(FILTER POSENC_APP_SOURCES EXCLUDE REGEX "/compiled_languages\\.cpp$")
add_library(posenc_app STATIC ${POSENC_APP_SOURCES} ${POSENC_SHADER_HEADER} ${POSENC_FONT_HEADER})
posenc_layer_root(app _app_include)
target_include_directories(posenc_app PUBLIC ${_app_include} PRIVATE ${CMAKE_BINARY_DIR}/generated)
target_link_libraries(posenc_app PUBLIC posenc_core posenc_model_io imgui PRIVATE posenc_version posenc_warnings)
# nlohmann-json (header-only, Debian) for JSON export. Under Emscripten /usr/include must not be on the
# include path, so expose only the nlohmann folder through a link in the build tree.
find_path(POSENC_NLOHMANN_DIR nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/json-include)
file(CREATE_LINK ${POSENC_NLOHMANN_DIR}/nlohmann ${CMAKE_BINARY_DIR}/json-include/nlohmann SYMBOLIC)
target_include_directories(posenc_app SYSTEM PRIVATE ${CMAKE_BINARY_DIR}/json-include)
# Every text ImGui draws passes through app/text_hook.cpp (the glyphs it needs, the catalogue test, the
# line breaking of wrapped text): both ImDrawList::AddText overloads and ImGui::CalcTextSize are wrapped
# in every program that links the app. -u pulls the wrapper's object out of the archive before the ImGui
# objects that call it are read.
set(_addtext_long _ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4)
set(_addtext_short _ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_)
set(_calctextsize _ZN5ImGui12CalcTextSizeEPKcS1_bf)
target_link_options(posenc_app INTERFACE "LINKER:--wrap=${_addtext_long}" "LINKER:--wrap=${_addtext_short}"
                    "LINKER:--wrap=${_calctextsize}" "LINKER:-u,__wrap_${_addtext_long}")

# The runners (src/platform): what desktop, web and headless share (ImGui/GL setup, frame sequence,
# read-back), then the windowed runners' SDL part; each target adds its own runner file.
set(POSENC_PLATFORM ${PROJECT_SOURCE_DIR}/src/platform)
add_library(posenc_runner STATIC ${POSENC_PLATFORM}/runner.cpp)
posenc_layer_root(platform POSENC_PLATFORM_INCLUDE)
target_include_directories(posenc_runner PUBLIC ${POSENC_PLATFORM_INCLUDE})
target_link_libraries(posenc_runner PUBLIC posenc_app PRIVATE posenc_warnings)
set(POSENC_SDL_RUNNER_SOURCES ${POSENC_PLATFORM}/main.cpp ${POSENC_PLATFORM}/sdl_runner.cpp)
