// The frame's draw lists as SVG (app/svg_export.h).
//
// Sections: recording of curves | writing helpers | glyphs (text runs) | textured lines | one command
// (triangles sorted into text, lines, fills, images, recorded curves) | the document.
#include "app/svg_export.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <unordered_map>

#include "app/fonts.h"
#include "app/ui_state.h"

namespace posenc::app {

namespace {
std::map<ImTextureID, PictureReader>& pictures() {
  static std::map<ImTextureID, PictureReader> by_texture;
  return by_texture;
}
// The registered picture of `texture` read back; false for a texture that is no picture, or an empty one.
bool read_picture(ImTextureID texture, SvgImage& image) {
  const auto it = pictures().find(texture);
  if (it == pictures().end()) return false;
  it->second(image.width, image.height, image.rgba);
  return image.width > 0 && image.height > 0;
}
}  // namespace

void register_picture(ImTextureID texture, PictureReader read) { pictures()[texture] = std::move(read); }
void unregister_picture(ImTextureID texture) { pictures().erase(texture); }

// ---------------------------------------------------------------- recording of curves

void set_svg_recording(bool on) {
  UiState& ui = current_ui();
  ui.svg_recording = on;
  ui.svg_curves.clear();
}
bool svg_recording() { return current_ui().svg_recording; }
void record_svg_curve(SvgCurve curve) { current_ui().svg_curves.push_back(std::move(curve)); }

std::string base64(const std::string& bytes) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const unsigned a = uint8_t(bytes[i]), b = i + 1 < bytes.size() ? uint8_t(bytes[i + 1]) : 0,
                   c = i + 2 < bytes.size() ? uint8_t(bytes[i + 2]) : 0;
    const unsigned v = a << 16 | b << 8 | c;
    out += k[v >> 18 & 63];
    out += k[v >> 12 & 63];
    out += i + 1 < bytes.size() ? k[v >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? k[v & 63] : '=';
  }
  return out;
}

namespace {

// ---------------------------------------------------------------- writing helpers

std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", double(v));
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string point(ImVec2 p) { return num(p.x) + " " + num(p.y); }

// fill="#rrggbb" (and fill-opacity when not opaque) for `attr` = fill or stroke.
std::string paint(const char* attr, ImU32 col) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s=\"#%02x%02x%02x\"", attr, unsigned(col >> IM_COL32_R_SHIFT & 0xFF),
                unsigned(col >> IM_COL32_G_SHIFT & 0xFF), unsigned(col >> IM_COL32_B_SHIFT & 0xFF));
  std::string out = buf;
  const unsigned a = col >> IM_COL32_A_SHIFT & 0xFF;
  if (a < 255) out += std::string(" ") + attr + "-opacity=\"" + num(float(a) / 255.0f) + "\"";
  return out;
}

void escape_into(std::string& out, unsigned c) {
  if (c == '&') out += "&amp;";
  else if (c == '<') out += "&lt;";
  else if (c == '>') out += "&gt;";
  else if (c == '"') out += "&quot;";
  else if (c < 0x80) out += char(c);
  else if (c < 0x800) out += char(0xC0 | c >> 6), out += char(0x80 | (c & 0x3F));
  else out += char(0xE0 | c >> 12), out += char(0x80 | (c >> 6 & 0x3F)), out += char(0x80 | (c & 0x3F));
}

std::string escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '&' || c == '<' || c == '>' || c == '"') escape_into(out, c);
    else out += char(c);
  }
  return out;
}

// ---------------------------------------------------------------- glyphs

struct GlyphRef {
  const ImFont* font = nullptr;
  const ImFontGlyph* glyph = nullptr;
};

// Glyphs of every font in the atlas by their texture rectangle.
class GlyphIndex {
 public:
  explicit GlyphIndex(const ImFontAtlas& atlas) {
    for (const ImFont* font : atlas.Fonts)
      for (const ImFontGlyph& g : font->Glyphs) {
        if (!g.Visible) continue;
        by_uv_[key(g.U0, g.V0)] = GlyphRef{font, &g};
        all_.push_back(GlyphRef{font, &g});
      }
  }
  // The glyph whose atlas rectangle starts at (u, v), or (a glyph clipped by its clip rectangle) contains it.
  GlyphRef find(ImVec2 uv0, ImVec2 uv1) const {
    if (auto it = by_uv_.find(key(uv0.x, uv0.y)); it != by_uv_.end()) return it->second;
    const ImVec2 c((uv0.x + uv1.x) * 0.5f, (uv0.y + uv1.y) * 0.5f);
    for (const GlyphRef& r : all_)
      if (c.x >= r.glyph->U0 && c.x <= r.glyph->U1 && c.y >= r.glyph->V0 && c.y <= r.glyph->V1) return r;
    return {};
  }

 private:
  static uint64_t key(float u, float v) {
    uint32_t a, b;
    std::memcpy(&a, &u, 4);
    std::memcpy(&b, &v, 4);
    return uint64_t(a) << 32 | b;
  }
  std::unordered_map<uint64_t, GlyphRef> by_uv_;
  std::vector<GlyphRef> all_;
};

// One drawn character: where its pen stood on the baseline, at what scale, in what colour.
struct DrawnGlyph {
  GlyphRef ref;
  float pen_x = 0, baseline = 0, scale = 1;
  ImU32 col = 0;
};

// Characters drawn one after the other on one baseline, in one face, size and colour, become one <text>
// with every character's x (spaces, which draw nothing, are put back where the pen skipped a space's
// advance).
void write_text_runs(std::string& out, const std::vector<DrawnGlyph>& glyphs) {
  size_t i = 0;
  while (i < glyphs.size()) {
    const DrawnGlyph& first = glyphs[i];
    const ImFont* font = first.ref.font;
    const float space = font->FindGlyphNoFallback(' ') ? font->FindGlyphNoFallback(' ')->AdvanceX * first.scale : first.scale * 4;
    std::string xs, text;
    float pen_end = first.pen_x;
    size_t j = i;
    for (; j < glyphs.size(); ++j) {
      const DrawnGlyph& g = glyphs[j];
      if (j > i) {
        const float gap = g.pen_x - pen_end;
        if (g.ref.font != font || g.col != first.col || std::abs(g.baseline - first.baseline) > 0.5f ||
            std::abs(g.scale - first.scale) > 1e-3f || gap < -0.75f || gap > 4 * space)
          break;
        // One space however wide the gap: renderers that collapse white space (xml:space is old, CSS
        // white-space new in SVG) would otherwise shift every later x by one; the next character's own x
        // keeps the gap.
        if (gap / space >= 0.5f) {
          xs += num(pen_end) + " ";
          text += ' ';
        }
      }
      xs += num(g.pen_x) + " ";
      escape_into(text, g.ref.glyph->Codepoint);
      pen_end = g.pen_x + g.ref.glyph->AdvanceX * g.scale;
    }
    xs.pop_back();
    const bool mono = font == number_font();
    out += "<text x=\"" + xs + "\" y=\"" + num(first.baseline) + "\" font-size=\"" + num(font->FontSize * first.scale) + "\"" +
           (mono ? " font-family=\"'DejaVu Sans Mono', monospace\"" : "") + " " + paint("fill", first.col) + ">" + text +
           "</text>\n";
    i = j;
  }
}

// ---------------------------------------------------------------- one draw command

struct Tri {
  int a, b, c;
};

class CommandWriter {
 public:
  CommandWriter(std::string& out, const ImDrawList& list, const ImDrawCmd& cmd, const ImFontAtlas& atlas,
                const GlyphIndex& glyphs, const SvgOptions& options, int& image_id, bool& background_left)
      : out_(out),
        list_(list),
        cmd_(cmd),
        atlas_(atlas),
        glyphs_(glyphs),
        options_(options),
        image_id_(image_id),
        background_left_(background_left) {}

  // A recorded curve (line_plot, while an SVG is drawn) and whether it was written yet.
  struct Pending {
    const SvgCurve* curve;
    bool written = false;
  };

  void write(std::vector<Pending>& curves) {
    const ImDrawIdx* idx = list_.IdxBuffer.Data + cmd_.IdxOffset;
    const int count = int(cmd_.ElemCount) / 3;
    const bool atlas_texture = cmd_.TextureId == atlas_.TexID;
    for (int t = 0; t < count; ++t) {
      const int at = int(cmd_.IdxOffset) + 3 * t;
      // A recorded curve replaces its triangles: written once, where they began.
      if (write_due(curves, at) || inside(curves, at)) continue;
      const Tri tri{int(cmd_.VtxOffset + idx[3 * t]), int(cmd_.VtxOffset + idx[3 * t + 1]), int(cmd_.VtxOffset + idx[3 * t + 2])};
      if (!atlas_texture) {
        image_quad(tri, t + 1 < count ? &idx[3 * (t + 1)] : nullptr);
        ++t;  // ImGui::Image: two triangles of one quad
        continue;
      }
      const ImVec2 uv = v(tri.a).uv;
      if (uv.x == atlas_.TexUvWhitePixel.x && uv.y == atlas_.TexUvWhitePixel.y) solid(tri);
      else if (const int thickness = line_thickness(uv.y); thickness > 0) line(tri, thickness);
      else if (t + 1 < count && glyph(tri, &idx[3 * (t + 1)])) ++t;
    }
    write_due(curves, int(cmd_.IdxOffset + cmd_.ElemCount) - 1);  // curves that drew no triangle
    flush();
  }

  // Writes the curves that begin at or before index `at`; true if one begins exactly there.
  bool write_due(std::vector<Pending>& curves, int at) {
    bool here = false;
    for (Pending& p : curves)
      if (!p.written && p.curve->idx_begin <= at) {
        flush();
        write_curve(*p.curve);
        p.written = true;
        here = here || (p.curve->idx_begin == at && p.curve->idx_end > at);
      }
    return here;
  }
  static bool inside(const std::vector<Pending>& curves, int at) {
    for (const Pending& p : curves)
      if (at >= p.curve->idx_begin && at < p.curve->idx_end) return true;
    return false;
  }

  void write_curve(const SvgCurve& c) {
    std::string d;
    for (const std::vector<ImVec2>& run : c.runs)
      for (size_t k = 0; k < run.size(); ++k) {
        if (k && c.steps) d += "L" + point(ImVec2(run[k].x, run[k - 1].y));
        d += (k ? "L" : "M") + point(run[k]);
      }
    if (d.empty()) return;
    out_ += "<path class=\"curve\" data-series=\"" + escape(c.label) + "\" d=\"" + d + "\" fill=\"none\" " +
            paint("stroke", c.color) + " stroke-width=\"" + num(c.thickness) + "\" stroke-linejoin=\"round\"/>\n";
    if (!c.markers) return;
    for (const std::vector<ImVec2>& run : c.runs)
      if (run.size() <= 256)
        for (const ImVec2& p : run)
          out_ += "<circle cx=\"" + num(p.x) + "\" cy=\"" + num(p.y) + "\" r=\"2.5\" " + paint("fill", c.color) + "/>\n";
  }

 private:
  enum class Kind { None, Fill, Text, Line };
  const ImDrawVert& v(int i) const { return list_.VtxBuffer[i]; }

  // Filled shapes: opaque-enough triangles of one colour into one path; the anti-aliasing fringe (a
  // vertex of alpha 0) is left out.
  void solid(const Tri& t) {
    const ImU32 ca = v(t.a).col, cb = v(t.b).col, cc = v(t.c).col;
    if ((ca >> IM_COL32_A_SHIFT & 0xFF) == 0 || (cb >> IM_COL32_A_SHIFT & 0xFF) == 0 || (cc >> IM_COL32_A_SHIFT & 0xFF) == 0)
      return;
    if (background_left_ && options_.transparent) {
      // The first fill of the first window covering the display is its background.
      const ImVec2 lo = ImMin(v(t.a).pos, ImMin(v(t.b).pos, v(t.c).pos)), hi = ImMax(v(t.a).pos, ImMax(v(t.b).pos, v(t.c).pos));
      if (lo.x <= 0.5f && lo.y <= 0.5f && hi.x >= display_.x - 0.5f && hi.y >= display_.y - 0.5f) return;
    }
    begin(Kind::Fill, ca);
    path_ += "M" + point(v(t.a).pos) + "L" + point(v(t.b).pos) + "L" + point(v(t.c).pos) + "Z";
  }

  int line_thickness(float vv) const {
    for (int n = 1; n <= IM_DRAWLIST_TEX_LINES_WIDTH_MAX; ++n)
      if (atlas_.TexUvLines[n].y == vv && atlas_.TexUvLines[n].w == vv) return n;
    return 0;
  }

  // Anti-aliased lines drawn from the atlas's line texture: two vertices a point (either side of it),
  // triangles joining neighbouring points. Collected until the command or the kind changes, then split
  // into polylines by which points share triangles.
  void line(const Tri& t, int thickness) {
    const ImU32 col = v(t.a).col;
    if (kind_ != Kind::Line || col != col_ || thickness != thickness_)
      flush(), kind_ = Kind::Line, col_ = col, thickness_ = thickness;
    line_tris_.push_back(t);
  }

  void flush_lines() {
    if (line_tris_.empty()) return;
    int lo = INT32_MAX, hi = 0;
    for (const Tri& t : line_tris_) lo = std::min({lo, t.a, t.b, t.c}), hi = std::max({hi, t.a, t.b, t.c});
    const int pairs = (hi - lo) / 2 + 1;
    std::vector<int> parent(static_cast<size_t>(pairs), 0);
    std::iota(parent.begin(), parent.end(), 0);
    auto root = [&](int p) {
      while (parent[size_t(p)] != p) p = parent[size_t(p)] = parent[size_t(parent[size_t(p)])];
      return p;
    };
    std::vector<std::pair<int, int>> links;
    for (const Tri& t : line_tris_) {
      const int p[3] = {(t.a - lo) / 2, (t.b - lo) / 2, (t.c - lo) / 2};
      for (int k = 1; k < 3; ++k)
        if (p[k] != p[0]) parent[size_t(root(p[k]))] = root(p[0]), links.emplace_back(std::min(p[0], p[k]), std::max(p[0], p[k]));
    }
    std::map<int, std::vector<int>> components;
    for (int p = 0; p < pairs; ++p) components[root(p)].push_back(p);
    std::string d;
    for (const auto& component : components) {
      const std::vector<int>& members = component.second;
      if (members.size() < 2) continue;
      for (size_t k = 0; k < members.size(); ++k) {
        const ImVec2 a = v(lo + 2 * members[k]).pos, b = v(lo + 2 * members[k] + 1).pos;
        d += (k ? "L" : "M") + point(ImVec2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f));
      }
      // Closed (a rectangle's outline): a triangle joins the last point to the first.
      if (std::find(links.begin(), links.end(), std::make_pair(members.front(), members.back())) != links.end() &&
          members.size() > 2)
        d += "Z";
    }
    if (!d.empty())
      out_ +=
          "<path d=\"" + d + "\" fill=\"none\" " + paint("stroke", col_) + " stroke-width=\"" + num(float(thickness_)) + "\"/>\n";
    line_tris_.clear();
  }

  // A glyph: two triangles (a, b, c) (a, c, d) over consecutive vertices, textured by a glyph's rectangle.
  bool glyph(const Tri& t, const ImDrawIdx* next) {
    if (int(cmd_.VtxOffset + next[0]) != t.a || int(cmd_.VtxOffset + next[1]) != t.c) return false;
    const ImDrawVert &p0 = v(t.a), &p2 = v(t.c);
    const GlyphRef ref = glyphs_.find(p0.uv, p2.uv);
    if (!ref.glyph) return true;  // drawn from the atlas but no character: nothing to write
    const float gw = ref.glyph->X1 - ref.glyph->X0;
    const float uw = ref.glyph->U1 - ref.glyph->U0;
    // Clipped glyphs keep their scale: the drawn width over the part of the texture shown.
    const float scale = gw > 0 && uw > 0 ? (p2.pos.x - p0.pos.x) / (gw * (p2.uv.x - p0.uv.x) / uw) : 1.0f;
    const float x0 = p0.pos.x - (p0.uv.x - ref.glyph->U0) / uw * gw * scale;
    const float y0 = p0.pos.y - (ref.glyph->V1 > ref.glyph->V0 ? (p0.uv.y - ref.glyph->V0) / (ref.glyph->V1 - ref.glyph->V0) *
                                                                     (ref.glyph->Y1 - ref.glyph->Y0) * scale
                                                               : 0.0f);
    if (kind_ != Kind::Text) flush(), kind_ = Kind::Text;
    text_.push_back({ref, x0 - ref.glyph->X0 * scale, y0 - ref.glyph->Y0 * scale + ref.font->Ascent * scale, scale, p0.col});
    return true;
  }

  // ImGui::Image: the quad's corners give where the texture's unit square lands (a heatmap's picture,
  // zoomed or flipped by its UVs); the picture is read back and embedded, clipped to the quad.
  void image_quad(const Tri& t, const ImDrawIdx* next) {
    flush();
    ImVec2 lo = ImMin(v(t.a).pos, ImMin(v(t.b).pos, v(t.c).pos)), hi = ImMax(v(t.a).pos, ImMax(v(t.b).pos, v(t.c).pos));
    int corner_lo = t.a, corner_hi = t.a;
    const int verts[4] = {t.a, t.b, t.c, next ? int(cmd_.VtxOffset + next[2]) : t.c};
    for (int k : verts) {
      lo = ImMin(lo, v(k).pos), hi = ImMax(hi, v(k).pos);
      if (v(k).pos.x <= v(corner_lo).pos.x + 0.01f && v(k).pos.y <= v(corner_lo).pos.y + 0.01f) corner_lo = k;
      if (v(k).pos.x >= v(corner_hi).pos.x - 0.01f && v(k).pos.y >= v(corner_hi).pos.y - 0.01f) corner_hi = k;
    }
    const ImVec2 ua = v(corner_lo).uv, ub = v(corner_hi).uv;
    if (ua.x == ub.x || ua.y == ub.y || !options_.image_href) return;
    SvgImage image;
    if (!read_picture(cmd_.TextureId, image)) return;
    const float sx = (hi.x - lo.x) / (ub.x - ua.x), sy = (hi.y - lo.y) / (ub.y - ua.y);
    const std::string id = "img" + std::to_string(image_id_++);
    out_ += "<clipPath id=\"" + id + "\"><rect x=\"" + num(lo.x) + "\" y=\"" + num(lo.y) + "\" width=\"" + num(hi.x - lo.x) +
            "\" height=\"" + num(hi.y - lo.y) + "\"/></clipPath>\n";
    // (The clip on a group around the image: a clip path on the image itself would be read in its own,
    // transformed, coordinates.)
    out_ += "<g clip-path=\"url(#" + id + ")\"><image width=\"1\" height=\"1\" preserveAspectRatio=\"none\" transform=\"matrix(" +
            num(sx) + " 0 0 " + num(sy) + " " + num(lo.x - ua.x * sx) + " " + num(lo.y - ua.y * sy) + ")\" href=\"" +
            options_.image_href(image) + "\"/></g>\n";
  }

  void begin(Kind kind, ImU32 col) {
    if (kind_ == kind && col_ == col) return;
    flush();
    kind_ = kind;
    col_ = col;
  }

  void flush() {
    if (kind_ == Kind::Fill && !path_.empty()) out_ += "<path d=\"" + path_ + "\" " + paint("fill", col_) + "/>\n";
    if (kind_ == Kind::Text) write_text_runs(out_, text_);
    if (kind_ == Kind::Line) flush_lines();
    path_.clear();
    text_.clear();
    kind_ = Kind::None;
  }

 public:
  ImVec2 display_{0, 0};

 private:
  std::string& out_;
  const ImDrawList& list_;
  const ImDrawCmd& cmd_;
  const ImFontAtlas& atlas_;
  const GlyphIndex& glyphs_;
  const SvgOptions& options_;
  int& image_id_;
  bool& background_left_;
  Kind kind_ = Kind::None;
  ImU32 col_ = 0;
  int thickness_ = 0;
  std::string path_;
  std::vector<DrawnGlyph> text_;
  std::vector<Tri> line_tris_;
};

}  // namespace

// ---------------------------------------------------------------- the document

std::string frame_svg(const ImDrawData& data, float width, float height, const SvgOptions& options) {
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  const GlyphIndex glyphs(atlas);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    num(width) + "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                    "\" font-family=\"Inter, 'DejaVu Sans', sans-serif\">\n";
  if (!options.title.empty()) out += "<title>" + escape(options.title) + "</title>\n";
  if (!options.description.empty()) out += "<desc>" + escape(options.description) + "</desc>\n";
  std::vector<SvgCurve>& curves = current_ui().svg_curves;
  std::map<std::string, std::string> clips;
  std::string defs, body;
  int image_id = 0;
  bool background_left = true;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    std::vector<CommandWriter::Pending> mine;
    for (const SvgCurve& c : curves)
      if (c.list == &list) mine.push_back({&c});
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback || cmd.ElemCount == 0) continue;
      const ImVec4 r = cmd.ClipRect;
      const bool clipped = r.x > 0.5f || r.y > 0.5f || r.z < width - 0.5f || r.w < height - 0.5f;
      std::string part;
      CommandWriter writer(part, list, cmd, atlas, glyphs, options, image_id, background_left);
      writer.display_ = ImVec2(width, height);
      writer.write(mine);
      if (!part.empty()) background_left = false;
      if (part.empty()) continue;
      if (!clipped) {
        body += part;
        continue;
      }
      const std::string key = num(r.x) + "," + num(r.y) + "," + num(r.z) + "," + num(r.w);
      auto [it, fresh] = clips.emplace(key, "clip" + std::to_string(clips.size()));
      if (fresh)
        defs += "<clipPath id=\"" + it->second + "\"><rect x=\"" + num(r.x) + "\" y=\"" + num(r.y) + "\" width=\"" +
                num(r.z - r.x) + "\" height=\"" + num(r.w - r.y) + "\"/></clipPath>\n";
      body += "<g clip-path=\"url(#" + it->second + ")\">\n" + part + "</g>\n";
    }
  }
  // (Every recorded curve lies inside its list's commands: ImGui never drops a command that has triangles.)
  curves.clear();
  if (!defs.empty()) out += "<defs>\n" + defs + "</defs>\n";
  return out + body + "</svg>\n";
}

}  // namespace posenc::app
