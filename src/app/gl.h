// OpenGL headers and GLSL version line: WebGL2 (GLSL ES 3.00) on the web, GL 3.3 core natively. The one
// place that names the GLSL version: the app's shaders and ImGui's renderer (src/platform) both use it.
#pragma once

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#define POSENC_GLSL_VERSION "#version 300 es"
// The formatter does not settle on one layout for this string macro.
// clang-format off
#define POSENC_GLSL_HEADER \
  POSENC_GLSL_VERSION "\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\nprecision highp usampler2D;\n"
// clang-format on
#else
#include <GL/gl.h>
#include <GL/glext.h>
#define POSENC_GLSL_VERSION "#version 330 core"
#define POSENC_GLSL_HEADER POSENC_GLSL_VERSION "\n"
#endif
