// What the web link replaces (the --wrap options in cmake/web.cmake): code that ImGui or SDL reaches for
// features posenc never uses, each of which would otherwise carry its data, its wasm and its JavaScript
// into the page every reader downloads. Each stand-in answers as the feature being absent does.
#include <emscripten/html5.h>
#include <imgui.h>

// ImGui adds its built-in ProggyClean font only when no font was added before the atlas is built; the app
// always adds its own first (app/fonts.h). Keeps ~12 KB gzip of font data out of the page.
extern "C" ImFont* __wrap__ZN11ImFontAtlas14AddFontDefaultEPK12ImFontConfig(ImFontAtlas* /*atlas*/,
                                                                            const ImFontConfig* /*config*/) {
  return nullptr;
}

// SDL's Emscripten GLES driver stores eglGetProcAddress for SDL_GL_GetProcAddress, which posenc never
// calls (the app and ImGui call the WebGL2 functions by name, from the GLES3 headers). Emscripten's
// eglGetProcAddress is a table of every GL entry point by name: linking it keeps all of them, each a
// JavaScript function and a wasm import (~14 KB gzip). NULL is what SDL's callers handle as "no such function".
extern "C" void* __wrap_eglGetProcAddress(const char* /*name*/) { return nullptr; }

// Full screen, pointer lock and gamepads: SDL's Emscripten video and joystick drivers register for them;
// posenc never asks for full screen (the page's own layout fills the window), relative mouse mode or a
// joystick (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER)). "Not supported" is the browser's own answer where
// the API is missing, and SDL treats it so. Each stand-in has its function's parameters exactly as
// emscripten/html5.h declares them (wasm-ld refuses a wrapper of another signature).
#define POSENC_NOT_SUPPORTED(name, ...) \
  extern "C" EMSCRIPTEN_RESULT __wrap_##name(__VA_ARGS__) { return EMSCRIPTEN_RESULT_NOT_SUPPORTED; }
POSENC_NOT_SUPPORTED(emscripten_request_fullscreen_strategy, const char*, EM_BOOL, const EmscriptenFullscreenStrategy*)
POSENC_NOT_SUPPORTED(emscripten_exit_fullscreen, void)
POSENC_NOT_SUPPORTED(emscripten_set_fullscreenchange_callback_on_thread, const char*, void*, EM_BOOL,
                     em_fullscreenchange_callback_func, pthread_t)
POSENC_NOT_SUPPORTED(emscripten_request_pointerlock, const char*, EM_BOOL)
POSENC_NOT_SUPPORTED(emscripten_exit_pointerlock, void)
POSENC_NOT_SUPPORTED(emscripten_set_pointerlockchange_callback_on_thread, const char*, void*, EM_BOOL,
                     em_pointerlockchange_callback_func, pthread_t)
POSENC_NOT_SUPPORTED(emscripten_set_gamepadconnected_callback_on_thread, void*, EM_BOOL, em_gamepad_callback_func, pthread_t)
POSENC_NOT_SUPPORTED(emscripten_set_gamepaddisconnected_callback_on_thread, void*, EM_BOOL, em_gamepad_callback_func, pthread_t)
POSENC_NOT_SUPPORTED(emscripten_sample_gamepad_data, void)
POSENC_NOT_SUPPORTED(emscripten_get_gamepad_status, int, EmscriptenGamepadEvent*)
#undef POSENC_NOT_SUPPORTED
extern "C" int __wrap_emscripten_get_num_gamepads() { return 0; }
