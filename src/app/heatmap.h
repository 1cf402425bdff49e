// GPU heatmaps: a float matrix uploaded once as an R16UI texture of 16-bit codes over the matrix's own
// value range (core/kernels/quantize.h: half the bytes of R32F, the decode scale in a uniform), coloured by the GLSL shader in
// shaders/heatmap_frag.glsl into an RGBA8 texture that ImGui shows as an image. The colouring pass
// only reruns when the data, the size, the range or the zoom changed.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/gl.h"
#include "app/masked_cell.h"
#include "core/kernels/quantize.h"
#include "core/noncopyable.h"

namespace posenc::app {

enum class Colormap : int { Viridis = 0, Diverging = 1 };

// Issues the heatmaps' shader compile and link (once a GL context is current) without waiting for
// them: called at start, before the font atlas is built, the driver compiles meanwhile; the first
// heatmap drawn waits for what is left.
void start_heatmap_program();
// How many times any heatmap coloured its picture texture: a frame whose draw lists are unchanged still
// shows new pixels when this moved (a runner that leaves out unchanged frames asks it).
uint64_t heatmap_pictures_coloured();

class GpuHeatmap : NonCopyable {
 public:
  GpuHeatmap() = default;
  ~GpuHeatmap();

  // Uploads rows x cols floats (row-major, row 0 drawn at the top); cells >= kMaskedCell are masked.
  // Returns the range of the other finite cells (what the codes cover).
  kernels::ValueRange set_values(const float* data, int rows, int cols);
  // Uploads a double matrix through a small staging buffer (no full copy in memory); rows from
  // `masked_from_row` on are drawn as masked.
  kernels::ValueRange set_values(const double* data, int rows, int cols, int masked_from_row = 1 << 30);
  int rows() const { return rows_; }
  int cols() const { return cols_; }

  // Colours the visible window (u0, v0, du, dv in [0,1]) into a width x height pixel texture and
  // returns it for ImGui::Image.
  ImTextureID render(int width_px, int height_px, Colormap cmap, float vmin, float vmax,
                     const ImVec4& window = ImVec4(0, 0, 1, 1));
  // The last coloured picture's RGBA pixels, rows in the texture's order (row 0 at v = 0).
  void read_picture(int& width, int& height, std::vector<unsigned char>& rgba) const;

 private:
  // Allocates (or keeps) the rows x cols code texture and binds it.
  void allocate(int rows, int cols);
  // Uploads `nr` rows of codes at row r0.
  void upload_rows(int r0, int nr, const uint16_t* codes);

  GLuint values_tex_ = 0, out_tex_ = 0, fbo_ = 0;
  int rows_ = 0, cols_ = 0, out_w_ = 0, out_h_ = 0;
  float decode_lo_ = 0, decode_step_ = 0;  // value = decode_lo_ + code * decode_step_
  bool dirty_ = true;
  Colormap last_cmap_ = Colormap::Viridis;
  float last_vmin_ = 0, last_vmax_ = 0;
  ImVec4 last_window_{0, 0, 0, 0};
};

// A heatmap with axes, colorbar and hover, as one widget.
struct HeatmapAxes {
  const char* x_title = "";
  const char* y_title = "";
  double x_first = 0;    // value at the first column (ticks label cell centres)
  double y_first = 0;    // value at the first row
  double cell_step = 1;  // axis units per cell (a coarse preview grid: its stride)
  // Words instead of row numbers (one per row, e.g. a sentence's tokens): drawn left of the rows in place
  // of the numeric y ticks, cut with "." to fit when the frame is small. Must outlive the draw call.
  const std::vector<std::string>* row_labels = nullptr;
};

struct HeatmapHover {
  bool active = false;
  int row = -1, col = -1;
};

class HeatmapWidget {
 public:
  // Draws the matrix filling `size` (axes and colorbar included) and returns the hovered cell.
  // `probe_name` records the image rectangle for tests. In a small size (a small embed, a phone) the
  // margins shrink to what the labels need, so the image keeps most of the room.
  HeatmapHover draw(const char* probe_name, ImVec2 size, const HeatmapAxes& axes, Colormap cmap, float vmin, float vmax);
  GpuHeatmap& map() { return map_; }
  // Visible part of the matrix as (u0, v0, du, dv) in [0,1]: the wheel or a two-finger pinch zooms about
  // the mouse or the fingers' centroid, a drag (mouse or finger) pans, a double-click or double-tap resets.
  const ImVec4& zoom_window() const { return window_; }
  void reset_zoom() { window_ = ImVec4(0, 0, 1, 1); }
  // The image's whole rectangle in the last draw (its probe is only the visible part): what a view drawing
  // over the cells maps them with.
  ImVec2 image_min() const { return image_min_; }
  ImVec2 image_max() const { return image_max_; }

 private:
  // draw's phases: the layout, the image, the axes, the colorbar, zoom and pan, the hovered cell.
  struct Layout;
  Layout layout(ImVec2 size, const HeatmapAxes& axes, float vmin, float vmax) const;
  void draw_axes(ImDrawList* dl, const Layout& l, const HeatmapAxes& axes) const;
  void draw_colorbar(ImDrawList* dl, const Layout& l, const char* probe_name, Colormap cmap, float vmin, float vmax);
  HeatmapHover hovered_cell(ImDrawList* dl, const Layout& l) const;
  void handle_zoom_and_pan(ImVec2 img_min, ImVec2 img_size);

  GpuHeatmap map_;
  ImVec4 window_{0, 0, 1, 1};
  ImVec2 image_min_{0, 0}, image_max_{0, 0};
  GpuHeatmap colorbar_;
  float colorbar_vmin_ = 1, colorbar_vmax_ = 0;
};

}  // namespace posenc::app
