# cmake -DOUT=header -DIN="a.glsl;b.glsl" -P embed_shaders.cmake
# (IN is comma-separated.) Writes one `inline constexpr const char* kShader_<name>` raw string per shader file.
set(body "// Generated from shaders/*.glsl by cmake/embed_shaders.cmake. Do not edit.\n#pragma once\n\nnamespace posenc::shaders {\n")
string(REPLACE "," ";" IN "${IN}")
foreach(file IN LISTS IN)
  get_filename_component(name ${file} NAME_WE)
  file(READ ${file} text)
  string(APPEND body "inline constexpr const char* k_${name} = R\"posenc_glsl(${text})posenc_glsl\";\n")
endforeach()
string(APPEND body "}  // namespace posenc::shaders\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
