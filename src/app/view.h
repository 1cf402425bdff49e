// A view of the explorer: one window in the app, and one embeddable single view.
//
// A view declares its URL parameters once (`params`), computes from them in `recompute` (no GL, no
// ImGui: the headless `posenc export` runs it), uploads textures in `upload` and draws in `draw_figure`.
// The base class owns the cycle: `prepare()` calls `recompute()` only when a declared parameter changed
// since the last computation, and a computation that throws becomes the view's error, reported as a
// notice that names the URL key it is about.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/export.h"
#include "app/notices.h"
#include "app/params.h"
#include "core/noncopyable.h"

namespace posenc::app {

// Key/value parameters of a view as they appear in the URL query string.
using StateMap = std::map<std::string, std::string>;

class Controls;

// How much room the app gives the view this frame (from the frame's width, not the screen's).
enum class LayoutMode { Wide, Medium, Narrow };
// The layout of a frame `width` window units wide: wide from 1000 (controls beside the plots), medium
// from 560 (controls above, plots side by side), narrow below (one plot per row).
LayoutMode layout_mode(float width);

// One number that matters for the current view (App::describe()).
struct DescribedNumber {
  std::string name;
  double value = 0;
};

// Thrown by a view's recompute() when its parameters cannot be computed: names the URL key to blame.
struct CannotCompute {
  std::string key;
  std::string message;
};

// What a view says of itself, given once to View's constructor. A view whose caption, formula in words or
// figures depend on its parameters leaves them empty here and overrides caption(), formula_words() or
// figures().
struct ViewText {
  const char* id;                         // stable id used in URLs and tests ("waves", ...)
  const char* title;                      // menu title
  const char* caption = "";               // one-line formula of what the view shows
  const char* words = "";                 // the formula in words
  std::vector<std::string> figures = {};  // the plots, the main one first (see figures())
};

class View : NonCopyable {
 public:
  explicit View(ViewText text) : text_(std::move(text)) {}
  virtual ~View() = default;
  const char* id() const { return text_.id; }
  // The menu title in the interface's language (app/i18n.h); the caption and the formula in words are
  // English here and translated where they are shown (App: tr_message).
  const char* title() const;
  const char* title_en() const { return text_.title; }
  virtual const char* caption() const { return text_.caption; }

  // Declares every URL parameter (key, member, range or choices, label) in reading order. Called often
  // (every frame, every save and load): it must only declare.
  virtual void params(ParamList& list) = 0;

  // The declared parameters (ranges evaluated for the current values).
  ParamList param_list() const;
  // Declared parameters to and from the URL state. Loading reads the given keys in declaration order;
  // a value a dependency moved out of its range is brought back into it.
  void save_state(StateMap& out) const;
  void load_state(const StateMap& in, Notices& notices);

  // Brings the view's data up to date with its parameters: recompute() when a declared parameter changed
  // (or invalidate() was called). No GL, no ImGui.
  void prepare();
  // Why the current parameters cannot be computed, naming the key; valid after prepare().
  const std::optional<Notice>& error() const { return error_; }

  // Whether the user is dragging a control (set by the app before the content is drawn). A view whose
  // last full computation took longer than a frame's budget then computes a coarser preview grid
  // (preview_stride()); when the drag ends the full grid follows. Exports and readouts are exact always.
  void set_dragging(bool dragging) { dragging_ = dragging; }
  // Whether the data now shown is such a preview.
  bool showing_preview() const { return preview_; }

  // The view's controls (sliders, ...); the app detects parameter changes itself.
  void draw_controls();
  // The view's plots, filling `size`: prepare(), upload() after a recompute, then draw_figure() (or the
  // error in the one format every view shares).
  void draw_content(ImVec2 size);

  // The view's figures (plot names for figure= and plot.<name> probes), the main figure first: the main
  // figure is what a small embed shows alone.
  virtual std::vector<std::string> figures() const { return text_.figures; }
  // The layout for the next draw_content: the width class and the figure shown alone ("" = all).
  void set_layout(LayoutMode mode, const std::string& figure) { mode_ = mode, figure_ = figure; }
  // Height the figures want at `width` when stacked one per row (the content scrolls past the frame).
  virtual float stacked_height(float width) const;
  // The formula in words and the 3-6 numbers that matter (call prepare() first).
  virtual std::string formula_words() const { return text_.words; }
  // The formula in words in the interface's language (the description): formula_words() through
  // tr_message; a view whose words are composed of many parts composes them in the language instead.
  virtual std::string formula_words_shown() const;
  virtual void numbers(std::vector<DescribedNumber>& /*out*/) const {}
  // Notices about the state that do not stop the view (call prepare() first): what of a real model the
  // view cannot show, a failed model load. Each names its key ("model", a key path).
  virtual void notes(Notices& /*out*/) const {}

  // The data behind the current picture (matrices with their axes, curves), for CSV / JSON export.
  // Call prepare() first; nothing when error() is set.
  virtual void export_data(std::vector<ExportTable>& /*tables*/) const {}
  // Lists of strings beside the tables (the permutation view's tokens); nothing when error() is set.
  virtual void export_lists(std::vector<ExportList>& /*lists*/) const {}

 protected:
  // Computes the view's data from its parameters. Throw CannotCompute (or posenc::InvalidArgument, whose
  // field key_for_field maps to a URL key) when they cannot be computed.
  virtual void recompute() = 0;
  // GL work after a successful recompute (texture uploads); called from draw_content only.
  virtual void upload() {}
  virtual void draw_figure(ImVec2 size) = 0;
  // Lays out the controls; each declared parameter is drawn with c.draw("key") (its declared range and
  // label), custom widgets use c.param("key") for the range.
  virtual void controls(Controls& c) = 0;
  // The URL key a core InvalidArgument field is about (default: the field itself when declared).
  virtual std::string key_for_field(const std::string& field) const;
  // key_for_field through a view's renames (core field, URL key): the key the table gives `field`, else
  // the default rule.
  std::string renamed_key(const std::string& field, std::initializer_list<std::pair<const char*, const char*>> renames) const;
  // A field of a RoPE scaling under `prefix` ("scaling.", "position.scaling."): the declared key of the
  // same name (YaRN's and Llama 3's keys have the scaling's field names), else `fallback` (the key that
  // chose the scaling); "" for a field not under `prefix`.
  std::string scaling_key(const std::string& field, const std::string& prefix, const char* fallback) const;
  // Forces a recompute at the next prepare() (for inputs that are not URL parameters).
  void invalidate() { computed_.clear(); }
  // For recompute(): the stride of the grid to compute, 1 (every position) unless a control is being
  // dragged and the last full recompute + upload took longer than the frame budget; then the stride that
  // brings `cells` (the grid's cell count) to about the preview's budget. A stride > 1 marks the result a
  // preview (recomputed in full when the drag ends).
  int preview_stride(int64_t cells);
  static constexpr double kFrameBudgetMs = 50.0;  // full computations above this are previewed while dragging
  static constexpr double kPreviewMs = 12.0;      // what a preview aims at
  bool failed() const { return error_.has_value(); }
  // Layout helpers for draw_figure: one plot per row; whether a figure is drawn; one figure alone.
  bool stacked() const { return mode_ == LayoutMode::Narrow || !figure_.empty(); }
  bool shows(const std::string& figure) const { return figure_.empty() || figure_ == figure; }
  bool alone() const { return !figure_.empty(); }
  LayoutMode mode() const { return mode_; }

 private:
  std::string fingerprint() const;
  ViewText text_;
  std::string computed_;  // fingerprint of the parameters last computed ("" = never)
  bool upload_pending_ = false;
  bool dragging_ = false;
  bool preview_ = false;     // the data shown is a coarse preview
  double recompute_ms_ = 0;  // the last recompute()
  double full_ms_ = 0;       // the last full (not preview) recompute + upload
  int64_t full_cells_ = 0;   // the grid cells of that full computation
  std::optional<Notice> error_;
  LayoutMode mode_ = LayoutMode::Wide;
  std::string figure_;
};

}  // namespace posenc::app
