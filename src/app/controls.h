// The declared parameters drawn as controls, each the same way in every view: a label above a full-width
// widget whose range, scale and format come from the declaration (params.h). Probe names for tests:
// slider.<key>, combo.<key>, check.<key>, input.<key>.
#pragma once

#include <imgui.h>

#include <string>
#include <utility>

#include "app/params.h"

namespace posenc::app {

class Controls {
 public:
  // `scope`: the view whose controls these are (a text field's rejected text is kept per view and key).
  explicit Controls(const ParamList& list, std::string scope = "") : list_(list), scope_(std::move(scope)) {}
  // Draws the declared control of `key`; true when the user changed its value.
  bool draw(const char* key);
  // Whether the view declares `key`.
  bool has(const char* key) const { return list_.find(key) != nullptr; }
  // The declaration of `key` (its range for a custom widget). The key must be declared.
  const Param& param(const char* key) const;

 private:
  const ParamList& list_;
  std::string scope_;
};

// Records that the current controls show the declared parameter `key` (a view's own widget for it;
// Controls::draw and Controls::param record theirs).
void note_shown_param(const std::string& key);
// Whether the controls are being laid out unseen (App's census of the shown keys): nothing to draw.
bool controls_census();

// Text the user typed into a field of view `scope` that its parameter cannot take and that is still
// shown there (after the field was left): one notice per key, naming the text, why, and the value used.
Notices field_notices(const std::string& scope);

// Moves a declared slider's value by `steps` units (params.h step_value: the unit and its rounding),
// clamped to its range; true when it changed. Other kinds do not step. The arrow keys step the focused
// slider with it (Shift: 10 units).
bool step_param(const Param& p, int steps);

// For a slider a view draws itself for the declared parameter `p` (call right after it): holding it makes
// it the focused slider, which gets the focus frame; returns this frame's arrow-key steps while it is the
// focused one (else 0), for the view to apply (step_param, or its own unit).
int focused_slider_steps(const Param& p);

// The focused slider: the declared slider last clicked, dragged or entered (ctrl+click); the arrow keys
// step it. Activating any other item clears it. Call end_controls_frame() once per frame after the UI.
void end_controls_frame();
// Its key, or "" (for tests and the page).
const std::string& focused_slider_key();

// While on, each declared control starts a new cell of the current table (the compact strip of controls
// above the plots); the app turns it on after opening the first cell.
void set_controls_columns(bool on);

// One line of text that never runs past the available width: cut with "…" when it does not fit, the
// whole text in a tooltip on hover. `color` null: the theme's text colour.
void text_fit(const std::string& text, const ImVec4* color = nullptr);
// `text` cut to `room` pixels with an ellipsis (…) on a UTF-8 character boundary; itself when it fits.
std::string ellipsised(const std::string& text, float room);
// ImGui::Checkbox whose label is ellipsised to the room left on its line, the whole label in a tooltip.
bool checkbox_fit(const char* label, bool* v);

// A message in the theme's error colour (nothing when empty).
void error_text(const std::string& message);
// The theme's colours for errors and warnings (readable on the current window background).
ImVec4 error_color();
ImVec4 warning_color();
// A result that holds (equal outputs, a check that passed), readable on the theme's background.
ImVec4 good_color();

}  // namespace posenc::app
