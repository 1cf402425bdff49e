// OpenGL headers and GLSL version line: WebGL2 (GLSL ES 3.00) on the web, GL 3.3 core natively.
#pragma once

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#define POSENC_GLSL_HEADER "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n"
#else
#include <GL/gl.h>
#include <GL/glext.h>
#define POSENC_GLSL_HEADER "#version 330 core\n"
#endif
