#include "platform/runner.h"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "app/app.h"
#include "app/fonts.h"
#include "app/gl.h"
#include "app/heatmap.h"
#include "app/input.h"
#include "app/svg_export.h"

namespace posenc::platform {
namespace {
uint64_t font_textures_built = 0;  // a rebuilt font texture may reuse the old one's GL name (frame_key)

// The renderer builds its font texture only with its other device objects: a new atlas needs it rebuilt.
void rebuild_font_texture() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ++font_textures_built;
}
}  // namespace

ImGuiGl::ImGuiGl(float pixel_ratio) : pixel_ratio_(pixel_ratio) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  // Keyboard navigation between the app's own controls (arrows, Space/Enter, Escape) on the canvas.
  ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  app::start_heatmap_program();  // compiled by the driver while the font atlas is built
  app::load_fonts(pixel_ratio);
  if (!ImGui_ImplOpenGL3_Init(POSENC_GLSL_VERSION)) {
    ImGui::DestroyContext();
    throw std::runtime_error("the ImGui OpenGL 3 renderer failed to initialise");
  }
}

ImGuiGl::~ImGuiGl() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiGl::set_pixel_ratio(float pixel_ratio) {
  if (std::abs(pixel_ratio - pixel_ratio_) <= 1e-3f) return;
  pixel_ratio_ = pixel_ratio;
  app::load_fonts(pixel_ratio);
  rebuild_font_texture();
}

void Runner::frame() {
  new_platform_frame();
  app::map_enter_in_menus();
  ImGui_ImplOpenGL3_NewFrame();
  // New glyphs (the Chinese interface's, characters drawn that the atlas lacked): a new atlas and font
  // texture before this frame draws.
  if (app::reload_fonts_if_stale()) rebuild_font_texture();
  ImGui::NewFrame();
  app_->frame();
  ImGui::Render();
  if (app_->take_svg_frame()) {
    // The heatmaps' pictures are read back before this frame is drawn over anything.
    app::SvgOptions options = app_->svg_options();
    options.image_href = [this](const app::SvgImage& image) { return svg_image_href(image); };
    const ImGuiIO& sio = ImGui::GetIO();
    on_svg(app::frame_svg(*ImGui::GetDrawData(), sio.DisplaySize.x, sio.DisplaySize.y, options));
  }

  if (!rasterize_) {  // the frame's UI is built (its draw lists, its text); its pixels are not wanted
    present();
    return;
  }
  const ImGuiIO& io = ImGui::GetIO();
  const int fb_width = int(io.DisplaySize.x * io.DisplayFramebufferScale.x);
  const int fb_height = int(io.DisplaySize.y * io.DisplayFramebufferScale.y);
  if (draw_wanted(fb_width, fb_height)) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer());
    glViewport(0, 0, fb_width, fb_height);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  after_draw(fb_width, fb_height);
  present();
}

uint64_t Runner::frame_key(int fb_width, int fb_height) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  auto mix = [&h](const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  const uint64_t pictures = app::heatmap_pictures_coloured();
  mix(&fb_width, sizeof fb_width);
  mix(&fb_height, sizeof fb_height);
  mix(&bg, sizeof bg);
  mix(&pictures, sizeof pictures);
  mix(&font_textures_built, sizeof font_textures_built);
  const ImDrawData* d = ImGui::GetDrawData();
  if (!d) return h;
  for (int i = 0; i < d->CmdListsCount; ++i) {
    const ImDrawList* l = d->CmdLists[i];
    mix(l->VtxBuffer.Data, size_t(l->VtxBuffer.Size) * sizeof(ImDrawVert));
    mix(l->IdxBuffer.Data, size_t(l->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& c : l->CmdBuffer) {
      mix(&c.TextureId, sizeof c.TextureId);
      mix(&c.ClipRect, sizeof c.ClipRect);
      mix(&c.ElemCount, sizeof c.ElemCount);
      mix(&c.IdxOffset, sizeof c.IdxOffset);
      mix(&c.VtxOffset, sizeof c.VtxOffset);
    }
  }
  return h;
}

#if defined(POSENC_HAVE_PNG_ENCODER)
std::string Runner::svg_image_href(const app::SvgImage& image) {
  return "data:image/png;base64," + app::base64(encode_png(Image{image.width, image.height, image.rgba}));
}
#else
std::string Runner::svg_image_href(const app::SvgImage&) { return {}; }
#endif

Image read_framebuffer(unsigned framebuffer, int width, int height) {
  Image image{width, height, std::vector<unsigned char>(size_t(width) * size_t(height) * 4)};
  while (glGetError() != GL_NO_ERROR) {}  // only the read-back's own errors count
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glReadBuffer(framebuffer == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  if (glGetError() != GL_NO_ERROR) throw std::runtime_error("reading the pixels back failed");
  for (size_t i = 3; i < image.rgba.size(); i += 4) image.rgba[i] = 255;
  // GL's first row is the bottom one.
  const size_t row = size_t(width) * 4;
  for (int top = 0, bottom = height - 1; top < bottom; ++top, --bottom) {
    unsigned char* a = image.rgba.data() + size_t(top) * row;
    std::swap_ranges(a, a + row, image.rgba.data() + size_t(bottom) * row);
  }
  return image;
}

}  // namespace posenc::platform
