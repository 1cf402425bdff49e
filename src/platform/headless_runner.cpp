#include "platform/headless_runner.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "app/app.h"
#include "app/gl.h"
#include "core/noncopyable.h"

namespace posenc::platform {
namespace {

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

// An OpenGL 3.3 core context with no surface, current while this lives.
class EglContext : NonCopyable {
 public:
  EglContext() {
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
    // Under Xvfb, Mesa's X11 platform opens one X connection per driver it probes (DRI3, DRI2, software);
    // the last of them was refused now and then (~1 start in 7 here) while a second try connects: try 3 times.
    bool initialized = eglInitialize(display_, &major, &minor);
    for (int retry = 0; !initialized && !surfaceless && retry < 2; ++retry) initialized = eglInitialize(display_, &major, &minor);
    if (!initialized) {
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
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context_ = eglCreateContext(display_, config ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, context_attribs);
    if (context_ == EGL_NO_CONTEXT) fail("could not create an OpenGL 3.3 core context");
    // The app draws into our framebuffer object: no surface needed (EGL_KHR_surfaceless_context).
    if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) fail("eglMakeCurrent without a surface failed");
  }
  ~EglContext() { release(); }

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
    throw std::runtime_error(why + " (EGL error " + code + ")");
  }
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
};

// A colour renderbuffer of the figure's size.
class OffscreenFramebuffer : NonCopyable {
 public:
  OffscreenFramebuffer(int width, int height) {
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &color_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      release();
      throw std::runtime_error("the figure framebuffer is incomplete");
    }
  }
  ~OffscreenFramebuffer() { release(); }
  GLuint id() const { return fbo_; }

 private:
  void release() {
    glDeleteRenderbuffers(1, &color_);
    glDeleteFramebuffers(1, &fbo_);
  }
  GLuint fbo_ = 0, color_ = 0;
};

[[noreturn]] void rethrow_as_headless(const std::exception& e) {
  throw std::runtime_error(std::string("headless OpenGL: ") + e.what());
}

}  // namespace

// Declaration order is set-up order: the context first, ImGui last.
struct HeadlessRunner::Gl {
  Gl(int width, int height) try : framebuffer(width, height), imgui(1.0f) {
  } catch (const std::runtime_error& e) { rethrow_as_headless(e); }
  EglContext context;
  OffscreenFramebuffer framebuffer;
  ImGuiGl imgui;  // pixel ratio 1: figure pixels are window units
};

HeadlessRunner::HeadlessRunner(std::unique_ptr<app::App> app, int width, int height)
    : width_(width), height_(height), gl_(std::make_unique<Gl>(width, height)), owned_app_(std::move(app)) {
  app_ = owned_app_.get();
}

HeadlessRunner::~HeadlessRunner() = default;

void HeadlessRunner::new_platform_frame() {
  // No platform backend: the display is the framebuffer. A vanishing time step keeps animated views
  // (RoPE's rotating pair) at the state's position.
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(width_), float(height_));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = 1e-9f;
}

unsigned HeadlessRunner::framebuffer() const { return gl_->framebuffer.id(); }

void HeadlessRunner::present() { glFinish(); }

std::string HeadlessRunner::render_svg(int frames, bool transparent) {
  for (int f = 0; f < frames; ++f) {
    if (f == frames - 1) app_->request_svg(false, transparent);  // the frame the PNG would be
    frame();
  }
  return svg_;
}

void HeadlessRunner::build_frames(int frames) {
  struct Restore {
    bool& rasterize;
    ~Restore() { rasterize = true; }
  } restore{rasterize_};
  rasterize_ = false;
  for (int f = 0; f < frames; ++f) frame();
}

Image HeadlessRunner::render(int frames) {
  for (int f = 0; f < frames; ++f) frame();
  try {
    return read_framebuffer(framebuffer(), width_, height_);
  } catch (const std::runtime_error& e) { rethrow_as_headless(e); }
}

}  // namespace posenc::platform
