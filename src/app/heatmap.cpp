// The GPU heatmap (heatmap.h). Sections, top to bottom: the shader program; GpuHeatmap (textures,
// quantised uploads, the colouring pass); HeatmapWidget::draw's phases (layout, axes, colorbar, hovered
// cell, then draw itself); zoom and pan.
#include "app/heatmap.h"

#include <posenc_shaders.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <vector>

#include "app/i18n.h"
#include "app/input.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/svg_export.h"
#include "app/text_hook.h"

namespace posenc::app {
namespace {

// Prints the info log of a shader or program whose compile / link status is false (a driver or GLSL
// problem: the heatmaps then draw nothing, the rest of the app keeps working).
template <class GetIv, class GetLog>
void report_gl_failure(GLuint object, GLenum status, GetIv get_iv, GetLog get_log, const char* what) {
  GLint ok = 0;
  get_iv(object, status, &ok);
  if (ok) return;
  char log[2048];
  get_log(object, sizeof log, nullptr, log);
  std::fprintf(stderr, "posenc: heatmap %s: %s\n", what, log);
}

GLuint compile(GLenum type, const char* body) {
  const char* sources[2] = {POSENC_GLSL_HEADER, body};
  GLuint s = glCreateShader(type);
  glShaderSource(s, 2, sources, nullptr);
  glCompileShader(s);
  return s;
}

// One program and one quad, shared by every heatmap. Made in two steps: the shaders' compile and link
// are issued by start() and run in the driver (the browser's GPU process) while the app goes on; the
// first heatmap drawn waits for them in finish(), which asks for their status (the first query waits).
struct HeatmapProgram {
  GLuint program = 0, vao = 0, vbo = 0;
  GLuint vs = 0, fs = 0;
  bool finished = false;
  GLint u_values = -1, u_decode = -1, u_range = -1, u_colormap = -1, u_window = -1, u_masked = -1;

  void start() {
    if (program) return;
    vs = compile(GL_VERTEX_SHADER, shaders::k_heatmap_vert);
    fs = compile(GL_FRAGMENT_SHADER, shaders::k_heatmap_frag);
    program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glFlush();  // the driver starts on them now, not at the next query
  }

  void finish() {
    if (finished) return;
    start();
    finished = true;
    report_gl_failure(vs, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog, "shader failed to compile");
    report_gl_failure(fs, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog, "shader failed to compile");
    report_gl_failure(program, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog, "program failed to link");
    glDeleteShader(vs);
    glDeleteShader(fs);
    u_values = glGetUniformLocation(program, "u_values");
    u_decode = glGetUniformLocation(program, "u_decode");
    u_range = glGetUniformLocation(program, "u_range");
    u_colormap = glGetUniformLocation(program, "u_colormap");
    u_window = glGetUniformLocation(program, "u_window");
    u_masked = glGetUniformLocation(program, "u_masked_color");
    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glBindVertexArray(0);
  }
};

uint64_t pictures_coloured = 0;

HeatmapProgram& heatmap_program_object() {
  static HeatmapProgram program;
  return program;
}

HeatmapProgram& heatmap_program() {
  HeatmapProgram& program = heatmap_program_object();
  program.finish();
  return program;
}

}  // namespace

void start_heatmap_program() { heatmap_program_object().start(); }

uint64_t heatmap_pictures_coloured() { return pictures_coloured; }

void GpuHeatmap::read_picture(int& width, int& height, std::vector<unsigned char>& rgba) const {
  width = out_w_;
  height = out_h_;
  rgba.assign(size_t(width) * size_t(height) * 4, 0);
  if (rgba.empty()) return;
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

GpuHeatmap::~GpuHeatmap() {
  if (out_tex_) unregister_picture(ImTextureID(intptr_t(out_tex_)));
  if (values_tex_) glDeleteTextures(1, &values_tex_);
  if (out_tex_) glDeleteTextures(1, &out_tex_);
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
}

void GpuHeatmap::allocate(int rows, int cols) {
  if (!values_tex_) {
    glGenTextures(1, &values_tex_);
    glBindTexture(GL_TEXTURE_2D, values_tex_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTexture(GL_TEXTURE_2D, values_tex_);
  // Same size: the texture is reused and only refilled (glTexSubImage2D).
  if (rows != rows_ || cols != cols_)
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R16UI, cols, rows, 0, GL_RED_INTEGER, GL_UNSIGNED_SHORT, nullptr);
  rows_ = rows;
  cols_ = cols;
  dirty_ = true;
}

void GpuHeatmap::upload_rows(int r0, int nr, const uint16_t* codes) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, r0, cols_, nr, GL_RED_INTEGER, GL_UNSIGNED_SHORT, codes);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

namespace {
// Rows of codes per glTexSubImage2D: ~1 MiB of staging, shared by every heatmap (one GL thread).
std::vector<uint16_t>& staging(int rows, int cols, int& chunk_rows) {
  static std::vector<uint16_t> buffer;
  chunk_rows = std::clamp((1 << 19) / std::max(1, cols), 1, std::max(1, rows));
  buffer.resize(size_t(chunk_rows) * size_t(cols));
  return buffer;
}
}  // namespace

kernels::ValueRange GpuHeatmap::set_values(const float* data, int rows, int cols) {
  allocate(rows, cols);
  const size_t count = size_t(rows) * size_t(cols);
  const kernels::ValueRange range = kernels::value_range(data, count, kMaskedCell);
  const float step = kernels::quantize_step(range);
  decode_lo_ = range.lo;
  decode_step_ = step;
  int chunk = 0;
  std::vector<uint16_t>& codes = staging(rows, cols, chunk);
  for (int r0 = 0; r0 < rows; r0 += chunk) {
    const int nr = std::min(chunk, rows - r0);
    kernels::quantize(data + size_t(r0) * cols, size_t(nr) * cols, range.lo, step > 0 ? 1.0f / step : 0.0f, kMaskedCell,
                      codes.data());
    upload_rows(r0, nr, codes.data());
  }
  return range;
}

kernels::ValueRange GpuHeatmap::set_values(const double* data, int rows, int cols, int masked_from_row) {
  allocate(rows, cols);
  const int defined = std::clamp(masked_from_row, 0, rows);
  kernels::ValueRange range;
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (size_t i = 0, count = size_t(defined) * size_t(cols); i < count; ++i) {
    const float v = float(data[i]);
    if (v < kMaskedCell && v > -std::numeric_limits<float>::infinity()) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  if (lo <= hi) range = {lo, hi, true};
  const float step = kernels::quantize_step(range);
  decode_lo_ = range.lo;
  decode_step_ = step;
  int chunk = 0;
  std::vector<uint16_t>& codes = staging(rows, cols, chunk);
  std::vector<float> row(static_cast<size_t>(cols));
  for (int r0 = 0; r0 < rows; r0 += chunk) {
    const int nr = std::min(chunk, rows - r0);
    for (int r = 0; r < nr; ++r) {
      for (int c = 0; c < cols; ++c) row[size_t(c)] = r0 + r >= defined ? kMaskedCell : float(data[size_t(r0 + r) * cols + c]);
      kernels::quantize(row.data(), size_t(cols), range.lo, step > 0 ? 1.0f / step : 0.0f, kMaskedCell,
                        codes.data() + size_t(r) * cols);
    }
    upload_rows(r0, nr, codes.data());
  }
  return range;
}

ImTextureID GpuHeatmap::render(int width_px, int height_px, Colormap cmap, float vmin, float vmax, const ImVec4& window) {
  width_px = std::max(1, width_px);
  height_px = std::max(1, height_px);
  if (!values_tex_) return nullptr;
  if (!out_tex_) {
    glGenTextures(1, &out_tex_);
    glGenFramebuffers(1, &fbo_);
    register_picture(ImTextureID(intptr_t(out_tex_)),
                     [this](int& w, int& h, std::vector<unsigned char>& rgba) { read_picture(w, h, rgba); });
  }
  if (width_px != out_w_ || height_px != out_h_) {
    glBindTexture(GL_TEXTURE_2D, out_tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width_px, height_px, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, out_tex_, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    out_w_ = width_px;
    out_h_ = height_px;
    dirty_ = true;
  }
  const bool same_window =
      window.x == last_window_.x && window.y == last_window_.y && window.z == last_window_.z && window.w == last_window_.w;
  if (!dirty_ && cmap == last_cmap_ && vmin == last_vmin_ && vmax == last_vmax_ && same_window)
    return (ImTextureID)(intptr_t)out_tex_;

  HeatmapProgram& hp = heatmap_program();
  GLint prev_viewport[4];
  glGetIntegerv(GL_VIEWPORT, prev_viewport);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_px, height_px);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(hp.program);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, values_tex_);
  glUniform1i(hp.u_values, 0);
  glUniform2f(hp.u_decode, decode_lo_, decode_step_);
  glUniform2f(hp.u_range, vmin, vmax);
  glUniform1i(hp.u_colormap, static_cast<int>(cmap));
  glUniform4f(hp.u_window, window.x, window.y, window.z, window.w);
  glUniform3f(hp.u_masked, 0.55f, 0.55f, 0.58f);
  glBindVertexArray(hp.vao);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(prev_viewport[0], prev_viewport[1], prev_viewport[2], prev_viewport[3]);

  dirty_ = false;
  ++pictures_coloured;
  last_cmap_ = cmap;
  last_vmin_ = vmin;
  last_vmax_ = vmax;
  last_window_ = window;
  return (ImTextureID)(intptr_t)out_tex_;
}

// The widget's rectangles: the image, the colorbar beside it, and the room for the labels around them.
struct HeatmapWidget::Layout {
  ImVec2 origin;
  float line = 0;                     // the text line height
  std::vector<std::string> row_text;  // row labels as drawn (cut to fit); empty: numbered rows
  std::vector<double> cb_ticks;       // the colorbar's ticks
  float colorbar_w = 14, colorbar_gap = 8;
  ImVec2 img_min, img_max, img_size;
};

// Room for the y tick labels on the left, the x labels below and the colorbar on the right. Wide enough
// for any label at full size (so zooming or a new range never moves the image); in a small size only
// what this matrix's labels and this colorbar's ticks need.
HeatmapWidget::Layout HeatmapWidget::layout(ImVec2 size, const HeatmapAxes& axes, float vmin, float vmax) const {
  Layout l;
  l.origin = ImGui::GetCursorScreenPos();
  l.line = ImGui::GetTextLineHeight();
  const int rows = std::max(1, map_.rows());
  const bool compact = size.x < 480.0f || size.y < 300.0f;
  const float top = l.line + 4;
  const float bottom = 2 * l.line + 12;
  const float img_h = std::max(16.0f, size.y - top - bottom);
  l.cb_ticks = nice_ticks(vmin, vmax, std::max(3, int(img_h / 40)));
  float left = ImGui::CalcTextSize("00000").x + 10;
  float colorbar_labels = ImGui::CalcTextSize("-0.000").x + 8;
  if (axes.row_labels) {
    // Words take the place of the row numbers: at most a quarter of the width, longer ones cut with ".".
    const float max_w = std::max(ImGui::CalcTextSize("abc.").x, size.x * (compact ? 0.2f : 0.25f));
    float widest = 0;
    for (const std::string& w : *axes.row_labels) {
      std::string t = w;
      if (ImGui::CalcTextSize(t.c_str()).x > max_w) {
        // The longest prefix (on a UTF-8 character boundary) that fits with ".".
        do {
          while (!t.empty()) {  // one whole character: its continuation bytes, then its lead byte
            const unsigned char c = static_cast<unsigned char>(t.back());
            t.pop_back();
            if ((c & 0xC0) != 0x80) break;
          }
        } while (t.size() > 1 && ImGui::CalcTextSize((t + ".").c_str()).x > max_w);
        t += ".";
      }
      widest = std::max(widest, ImGui::CalcTextSize(t.c_str()).x);
      l.row_text.push_back(std::move(t));
    }
    left = widest + 10;
  } else if (compact) {
    const std::string first = format_tick(axes.y_first), last = format_tick(axes.y_first + (rows - 1) * axes.cell_step);
    left = std::max(ImGui::CalcTextSize(first.c_str()).x, ImGui::CalcTextSize(last.c_str()).x) + 10;
  }
  if (compact) {
    float widest = 0;
    for (double t : l.cb_ticks) widest = std::max(widest, ImGui::CalcTextSize(format_tick(t).c_str()).x);
    l.colorbar_w = 10, l.colorbar_gap = 6, colorbar_labels = widest + 8;
  }
  const float right = l.colorbar_gap + l.colorbar_w + colorbar_labels;
  l.img_min = ImVec2(l.origin.x + left, l.origin.y + top);
  l.img_size = ImVec2(std::max(16.0f, size.x - left - right), img_h);
  l.img_max = ImVec2(l.img_min.x + l.img_size.x, l.img_min.y + l.img_size.y);
  return l;
}

// The axes of the zoomed window: cell centres on integer ticks, or one word per visible row.
void HeatmapWidget::draw_axes(ImDrawList* dl, const Layout& l, const HeatmapAxes& axes) const {
  const int rows = std::max(1, map_.rows()), cols = std::max(1, map_.cols());
  // Axes label cell centres: column c spans [c, c+1) in cell units; only the zoomed window is shown.
  const double st = axes.cell_step;
  const double x_lo = axes.x_first + (-0.5 + window_.x * cols) * st, y_lo = axes.y_first + (-0.5 + window_.y * rows) * st;
  AxisMap ax{x_lo, x_lo + window_.z * cols * st, l.img_min.x, l.img_max.x};
  AxisMap ay{y_lo, y_lo + window_.w * rows * st, l.img_min.y, l.img_max.y};
  // Rows and columns are indices: ticks on integers only (a 3 x 3 map never gets 0.5 steps).
  // The axis titles in the interface's language (the views give them in English).
  draw_axis_x(dl, l.img_min, l.img_max, ax, tr(axes.x_title), true);
  if (l.row_text.empty()) {
    draw_axis_y(dl, l.img_min, l.img_max, ay, tr(axes.y_title), true, l.origin.x);
    return;
  }
  // One word per visible row, every k-th when the rows are thinner than a line of text.
  const double row_px = l.img_size.y / (window_.w * rows);
  const int every = std::max(1, int(std::ceil(l.line / std::max(1e-3, row_px))));
  const int r0 = std::max(0, int(std::floor(window_.y * rows))),
            r1 = std::min(rows, int(std::ceil((window_.y + window_.w) * rows)));
  const VerbatimText data;  // the words are the user's (a sentence's tokens), never translated
  for (int r = r0; r < r1 && r < int(l.row_text.size()); ++r) {
    if (r % every) continue;
    const float y = ay.to_px(axes.y_first + r);
    if (y < l.img_min.y - 0.5f || y > l.img_max.y + 0.5f) continue;
    const ImVec2 sz = ImGui::CalcTextSize(l.row_text[size_t(r)].c_str());
    dl->AddText(ImVec2(l.img_min.x - 6 - sz.x, y - sz.y * 0.5f), ImGui::GetColorU32(ImGuiCol_Text),
                l.row_text[size_t(r)].c_str());
  }
  if (axes.y_title && *axes.y_title) {
    const float x = std::max(l.origin.x, dl->GetClipRectMin().x + 2);
    dl->AddText(ImVec2(x, l.img_min.y - l.line - 4), ImGui::GetColorU32(ImGuiCol_Text), tr(axes.y_title));
  }
}

// The colorbar: the same shader over a ramp from vmax (top) to vmin (bottom), with its ticks.
void HeatmapWidget::draw_colorbar(ImDrawList* dl, const Layout& l, const char* probe_name, Colormap cmap, float vmin,
                                  float vmax) {
  if (colorbar_vmin_ != vmin || colorbar_vmax_ != vmax || colorbar_.rows() == 0) {
    std::vector<float> ramp(256);
    for (int i = 0; i < 256; ++i) ramp[i] = vmax + (vmin - vmax) * (i + 0.5f) / 256.0f;
    colorbar_.set_values(ramp.data(), 256, 1);
    colorbar_vmin_ = vmin;
    colorbar_vmax_ = vmax;
  }
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  const ImVec2 cb_min(l.img_max.x + l.colorbar_gap, l.img_min.y);
  const ImVec2 cb_max(cb_min.x + l.colorbar_w, l.img_max.y);
  dl->AddImage(colorbar_.render(int(l.colorbar_w * scale.x), int(l.img_size.y * scale.y), cmap, vmin, vmax), cb_min, cb_max);
  dl->AddRect(cb_min, cb_max, ImGui::GetColorU32(ImGuiCol_Border));
  AxisMap acb{vmax, vmin, cb_min.y, cb_max.y};
  for (double t : l.cb_ticks) {
    const float y = acb.to_px(t);
    dl->AddLine(ImVec2(cb_max.x, y), ImVec2(cb_max.x + 4, y), ImGui::GetColorU32(ImGuiCol_Text));
    const std::string s = format_tick(t);
    dl->AddText(ImVec2(cb_max.x + 6, y - l.line * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), s.c_str());
  }
  probe_rect((std::string(probe_name) + ".colorbar").c_str(), cb_min, cb_max);
}

// The cell under the mouse (or a long-pressing finger: a touch pans), outlined when cells are big enough.
HeatmapHover HeatmapWidget::hovered_cell(ImDrawList* dl, const Layout& l) const {
  HeatmapHover hover;
  if (!ImGui::IsItemHovered() || map_.rows() == 0 || !readout_allowed()) return hover;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const double u = window_.x + (m.x - l.img_min.x) / l.img_size.x * window_.z;
  const double v = window_.y + (m.y - l.img_min.y) / l.img_size.y * window_.w;
  hover.col = std::clamp(int(u * map_.cols()), 0, map_.cols() - 1);
  hover.row = std::clamp(int(v * map_.rows()), 0, map_.rows() - 1);
  hover.active = true;
  const float cw = l.img_size.x / (map_.cols() * window_.z), ch = l.img_size.y / (map_.rows() * window_.w);
  if (cw >= 3 && ch >= 3) {
    const ImVec2 a(l.img_min.x + float((double(hover.col) / map_.cols() - window_.x) / window_.z) * l.img_size.x,
                   l.img_min.y + float((double(hover.row) / map_.rows() - window_.y) / window_.w) * l.img_size.y);
    dl->PushClipRect(l.img_min, l.img_max, true);
    dl->AddRect(a, ImVec2(a.x + cw, a.y + ch), IM_COL32(255, 255, 255, 220));
    dl->PopClipRect();
  }
  return hover;
}

HeatmapHover HeatmapWidget::draw(const char* probe_name, ImVec2 size, const HeatmapAxes& axes, Colormap cmap, float vmin,
                                 float vmax) {
  const Layout l = layout(size, axes, vmin, vmax);
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (map_.rows() > 0) {
    ImTextureID tex = map_.render(int(std::lround(l.img_size.x * scale.x)), int(std::lround(l.img_size.y * scale.y)), cmap, vmin,
                                  vmax, window_);
    dl->AddImage(tex, l.img_min, l.img_max);
  }
  probe_rect(probe_name, l.img_min, l.img_max);
  image_min_ = l.img_min, image_max_ = l.img_max;
  set_zoom_window(probe_name, window_);
  add_zoomable(l.img_min, l.img_max);  // a touch starting here is the app's (pan, pinch), not the page's
  draw_axes(dl, l, axes);
  draw_colorbar(dl, l, probe_name, cmap, vmin, vmax);

  ImGui::SetCursorScreenPos(l.img_min);
  ImGui::InvisibleButton(probe_name, l.img_size);
  handle_zoom_and_pan(l.img_min, l.img_size);
  const HeatmapHover hover = hovered_cell(dl, l);
  if (window_.z < 1 || window_.w < 1) {
    const char* hint = tr(touch_frame().touch ? "zoomed: double-tap to reset" : "zoomed: double-click to reset");
    const ImVec2 at(l.img_min.x + 4, l.img_max.y - ImGui::GetTextLineHeight() - 2);
    dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + ImGui::CalcTextSize(hint).x + 2, l.img_max.y - 1),
                      ImGui::GetColorU32(ImGuiCol_WindowBg, 0.8f));
    dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), hint);
  }
  ImGui::SetCursorScreenPos(ImVec2(l.origin.x, l.origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
  return hover;
}

void HeatmapWidget::handle_zoom_and_pan(ImVec2 img_min, ImVec2 img_size) {
  if (!ImGui::IsItemHovered() && !ImGui::IsItemActive()) return;
  ImGuiIO& io = ImGui::GetIO();
  const TouchFrame& touch = touch_frame();
  request_wheel();  // the page lets the wheel reach the canvas while a zoomable map is under it
  if (ImGui::IsItemHovered() && (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) || touch.double_tap)) {
    reset_zoom();
    return;
  }
  // Zoom by `factor` about a point; never below 4 cells across or above the whole map.
  auto zoom_about = [&](ImVec2 at, float factor) {
    const float mx = std::clamp((at.x - img_min.x) / img_size.x, 0.0f, 1.0f);
    const float my = std::clamp((at.y - img_min.y) / img_size.y, 0.0f, 1.0f);
    const float min_w = std::min(1.0f, 4.0f / std::max(1, map_.cols())), min_h = std::min(1.0f, 4.0f / std::max(1, map_.rows()));
    const float new_w = std::clamp(window_.z * factor, min_w, 1.0f), new_h = std::clamp(window_.w * factor, min_h, 1.0f);
    const float u = window_.x + mx * window_.z, v = window_.y + my * window_.w;
    window_ =
        ImVec4(std::clamp(u - mx * new_w, 0.0f, 1.0f - new_w), std::clamp(v - my * new_h, 0.0f, 1.0f - new_h), new_w, new_h);
  };
  // The wheel zooms about the mouse.
  if (ImGui::IsItemHovered() && io.MouseWheel != 0.0f) zoom_about(io.MousePos, std::pow(0.85f, io.MouseWheel));
  // Two fingers that started on this map pinch: zoom about their centroid.
  if (ImGui::IsItemActive() && touch.fingers >= 2 && touch.scale > 0 && touch.scale != 1.0f)
    zoom_about(touch.centre, 1.0f / touch.scale);
  // Drag (a mouse, one finger, or the centroid of two) to pan; not in a frame where a finger went down or
  // up (the centroid jumps, nothing moved), nor while a long-press shows the readout.
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f) && !touch.changed && !touch.long_press) {
    const ImVec2 delta = io.MouseDelta;
    window_.x = std::clamp(window_.x - delta.x / img_size.x * window_.z, 0.0f, 1.0f - window_.z);
    window_.y = std::clamp(window_.y - delta.y / img_size.y * window_.w, 0.0f, 1.0f - window_.w);
  }
}

}  // namespace posenc::app
