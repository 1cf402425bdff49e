// Vector figures: the frame ImGui just built (the chrome-less capture frame a PNG export reads back) written
// as SVG with the same layout and colours. Every draw list is walked: text (glyph quads of the font
// atlas) becomes <text> with each character at its drawn position, lines and outlines (the atlas's
// anti-aliased line texture) stroked paths, filled shapes filled paths, and each picture (a heatmap's
// coloured texture) an embedded image; the curves line_plot drew are written as paths through every data
// point (not the decimated polyline the screen shows), each carrying its series label.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "app/ui_state.h"

namespace posenc::app {

// RGBA pixels, rows from the top.
struct SvgImage {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};

struct SvgOptions {
  bool transparent = false;  // no background: the window's own fill is left out
  std::string title;         // <title> of the document
  std::string description;   // <desc> (the state it shows)
  // The href of an embedded picture: a PNG data: URL natively; the page hands its own out and fills it.
  std::function<std::string(const SvgImage&)> image_href;
};

// The SVG document of `data` (after ImGui::Render()), `width` x `height` in ImGui's display units.
std::string frame_svg(const ImDrawData& data, float width, float height, const SvgOptions& options);

// A curve line_plot drew in this frame: SvgCurve (app/ui_state.h, which holds the frame's curves).
// Recording is on for the frame an SVG export draws (App::frame), off otherwise.
void set_svg_recording(bool on);
bool svg_recording();
void record_svg_curve(SvgCurve curve);

// The pictures an export embeds: an ImGui::Image texture is embedded when its owner registered how to read
// it back as RGBA, row 0 at v = 0 (a heatmap registers its coloured picture); any other texture (the font
// atlas) is no picture. The owner unregisters it before the texture goes.
using PictureReader = std::function<void(int& width, int& height, std::vector<unsigned char>& rgba)>;
void register_picture(ImTextureID texture, PictureReader read);
void unregister_picture(ImTextureID texture);

// Base64 of bytes (a PNG for a data: URL).
std::string base64(const std::string& bytes);

}  // namespace posenc::app
