#include "render.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/app.h"
#include "app/gl.h"
#include "app/probe.h"
#include "core/types.h"
#include "eval.h"
#include "export.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace posenc::cli {
namespace {

constexpr int kMaxSide = 8192;

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

// An OpenGL 3.3 core context with no surface. Mesa's surfaceless platform needs neither a display server
// nor a GPU (llvmpipe renders on the CPU); where it is missing, EGL's default display is tried (X11 when
// DISPLAY is set, e.g. under xvfb-run).
class HeadlessGl {
 public:
  HeadlessGl() {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    // POSENC_RENDER_NO_SURFACELESS=1 skips the surfaceless platform (to test the X11 fallback).
    const char* skip = std::getenv("POSENC_RENDER_NO_SURFACELESS");
    const bool surfaceless = has_extension(client, "EGL_MESA_platform_surfaceless") && !(skip && *skip == '1');
    if (surfaceless) {
      auto get_platform_display =
          reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
      if (get_platform_display) display_ = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    }
    if (display_ == EGL_NO_DISPLAY) display_ = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (display_ == EGL_NO_DISPLAY) fail("no EGL display (install libegl1 and libegl-mesa0)");
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display_, &major, &minor)) {
      display_ = EGL_NO_DISPLAY;
      fail(surfaceless ? "eglInitialize failed on the surfaceless platform (are libegl-mesa0 and libgl1-mesa-dri installed?)"
                       : "no surfaceless EGL here and the default EGL display failed: run under an X server "
                         "(xvfb-run -a posenc render ...)");
    }
    if (!eglBindAPI(EGL_OPENGL_API)) fail("this EGL has no desktop OpenGL");
    EGLConfig config = nullptr;
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLint count = 0;
    if (!eglChooseConfig(display_, config_attribs, &config, 1, &count) || count < 1) config = nullptr;
    if (!config && !has_extension(eglQueryString(display_, EGL_EXTENSIONS), "EGL_KHR_no_config_context"))
      fail("no EGL config for desktop OpenGL");
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context_ = eglCreateContext(display_, config ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, context_attribs);
    if (context_ == EGL_NO_CONTEXT) fail("could not create an OpenGL 3.3 core context");
    // The app draws into our framebuffer object: no surface needed (EGL_KHR_surfaceless_context).
    if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) fail("eglMakeCurrent without a surface failed");
  }
  ~HeadlessGl() { release(); }
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

 private:
  void release() {
    if (display_ == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    eglTerminate(display_);
    display_ = EGL_NO_DISPLAY;
    context_ = EGL_NO_CONTEXT;
  }
  // Constructor failure: the destructor will not run, so release here.
  [[noreturn]] void fail(const std::string& why) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%04X", unsigned(eglGetError()));
    release();
    throw std::runtime_error("headless OpenGL: " + why + " (EGL error " + code + ")");
  }
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
};

// A colour renderbuffer of the figure's size.
class Framebuffer {
 public:
  Framebuffer(int w, int h) {
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &color_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("headless OpenGL: the figure framebuffer is incomplete");
  }
  ~Framebuffer() {
    glDeleteRenderbuffers(1, &color_);
    glDeleteFramebuffers(1, &fbo_);
  }
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;
  GLuint id() const { return fbo_; }

 private:
  GLuint fbo_ = 0, color_ = 0;
};

// Dear ImGui with only the OpenGL 3 renderer backend: no platform backend, we set the display size.
class ImGuiHeadless {
 public:
  ImGuiHeadless(int w, int h) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(float(w), float(h));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    // Same font as the app at pixel ratio 1 (src/platform/main.cpp load_fonts).
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f;
    cfg.OversampleH = cfg.OversampleV = 1;
    cfg.PixelSnapH = true;
    io.Fonts->AddFontDefault(&cfg);
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
      ImGui::DestroyContext();
      throw std::runtime_error("headless OpenGL: the ImGui OpenGL 3 renderer failed to initialise");
    }
  }
  ~ImGuiHeadless() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
  }
  ImGuiHeadless(const ImGuiHeadless&) = delete;
  ImGuiHeadless& operator=(const ImGuiHeadless&) = delete;
};

std::string probes_json(int w, int h) {
  nlohmann::ordered_json j;
  j["width"] = w;
  j["height"] = h;
  j["probes"] = nlohmann::ordered_json::object();
  for (const app::NamedRect& r : app::all_probes())
    j["probes"][r.name] = {std::lround(r.min.x), std::lround(r.min.y), std::lround(r.max.x), std::lround(r.max.y)};
  return j.dump(1) + "\n";
}

}  // namespace

CLI::App* add_render_command(CLI::App& app, RenderOptions& options) {
  CLI::App* cmd = app.add_subcommand("render", "Render one view chrome-less (embed mode) to a PNG, without a window");
  cmd->add_option("--state", options.state, "The view's URL state, e.g. 'view=similarity&scheme=sinusoidal'")->required();
  cmd->add_option("-o,--output", options.output, "PNG file to write")->required();
  cmd->add_option("--width", options.width, "Width in pixels (default 1200)")->check(CLI::Range(64, kMaxSide));
  cmd->add_option("--height", options.height, "Height in pixels (default 800)")->check(CLI::Range(64, kMaxSide));
  cmd->add_option("--theme", options.theme, "light or dark (default: the state's theme, else light)")
      ->check(CLI::IsMember({"light", "dark"}));
  cmd->add_option("--probes", options.probes, "Also write the named rectangles (heatmaps, plots) as JSON here");
  cmd->add_option("--frames", options.frames, "Frames to run before the read-back (default 4)")->check(CLI::Range(2, 100));
  return cmd;
}

int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err) {
  try {
    const int w = options.width, h = options.height;
    // Figures are the embed view: no menus; --theme overrides the state's theme (later keys win).
    std::string query = options.state;
    if (!query.empty() && query[0] == '?') query.erase(0, 1);
    query += "&embed=1";
    if (!options.theme.empty()) query += "&theme=" + options.theme;

    // The state is checked before any GL is set up: a bad key is the same error with or without a GPU.
    auto app = std::make_unique<app::App>();
    app->set_system_dark(false);  // no page to follow: light unless the state or --theme says dark
    load_state_strict(*app, query);

    HeadlessGl gl;
    ImGuiHeadless imgui(w, h);
    std::vector<unsigned char> pixels(size_t(w) * h * 4);
    {
      Framebuffer fb(w, h);
      // The app owns GL textures (heatmaps): it goes before the framebuffer, ImGui and the context.
      struct ReleaseApp {
        std::unique_ptr<app::App>& app;
        ~ReleaseApp() { app.reset(); }
      } release_app{app};
      ImGuiIO& io = ImGui::GetIO();
      for (int f = 0; f < options.frames; ++f) {
        // A vanishing time step: animated views (RoPE's rotating pair) stay at the state's position.
        io.DeltaTime = 1e-9f;
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        app->frame();
        ImGui::Render();
        glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
        glViewport(0, 0, w, h);
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        glClearColor(bg.x, bg.y, bg.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      }
      glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
      glReadBuffer(GL_COLOR_ATTACHMENT0);
      glPixelStorei(GL_PACK_ALIGNMENT, 1);
      glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
      if (glGetError() != GL_NO_ERROR) throw std::runtime_error("headless OpenGL: reading the pixels back failed");
      if (!options.probes.empty()) write_output(probes_json(w, h), options.probes, out, "probes");
    }
    // The window background is opaque: store RGB with alpha 255 whatever blending left in the buffer.
    for (size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;
    stbi_flip_vertically_on_write(1);  // GL's first row is the bottom one
    // Encode in memory and write with checked IO: stbi_write_png ignores fwrite/fclose failures.
    int png_len = 0;
    unsigned char* png = stbi_write_png_to_mem(pixels.data(), w * 4, w, h, 4, &png_len);
    if (!png) throw std::runtime_error("PNG encoding failed");
    const std::string bytes(reinterpret_cast<const char*>(png), static_cast<size_t>(png_len));
    STBIW_FREE(png);
    write_output(bytes, options.output, out, "output");
    return 0;
  } catch (const InvalidArgument& e) {
    err << error_json(e.what(), e.field());
  } catch (const std::bad_alloc&) {
    err << error_json("out of memory while rendering", "");
  } catch (const std::exception& e) {
    err << error_json(e.what(), "");
  }
  return 2;
}

}  // namespace posenc::cli
