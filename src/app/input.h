// Input beyond what ImGui's IO carries, both ways between the platform and the app (no SDL, no browser):
// - in: touch, per frame (the platform's gesture recogniser also drives ImGui's mouse with the first
//   finger, so a tap is a click and a drag is a drag; this adds pinch, long-press and "the pointer is a
//   finger");
// - out: where the last frame drew zoomable plots (a touch that starts there is the app's: pinch and pan,
//   no page scroll), the hover readout it showed (the page mirrors it into a live region) and each
//   heatmap's zoom window (window.posenc.zoom).
#pragma once

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

#include "app/ui_state.h"

namespace posenc::app {

// Touch this frame, from the platform (TouchFrame: app/ui_state.h).
void set_touch_frame(const TouchFrame& touch);
const TouchFrame& touch_frame();

// The device's pointer is a finger (the page's `(pointer: coarse)`, said before the first touch), for the
// current App.
void set_coarse_pointer(bool coarse);
// A finger points: a coarse pointer, or a touch this frame. Targets are then at least kFingerTarget on
// each side (WCAG 2.5.8) and words that say "hover" say "tap".
bool finger_pointer();
inline constexpr float kFingerTarget = 24.0f;
// ImGui's FramePadding.y that makes a one-line frame (a button, the menu bar) kFingerTarget tall.
float finger_frame_padding();

// Whether a hover readout shows: always for a mouse, for a finger only during a long-press.
bool readout_allowed();
// A hover readout: an ImGui tooltip (for a finger, clear of it) whose text is kept for the page. Between
// begin_readout() and end_readout() draw the readout's lines as usual (ImGui::Text...). Several readouts
// in one frame (a plot's, then a view's additions to it) are joined.
void begin_readout();
void end_readout();
// The readout text of the last frame, one line per text line ("" if none was shown).
const std::string& last_readout();

// Zoomable plots (heatmaps) of the last frame, by rectangle: a touch starting in one is the app's.
void add_zoomable(ImVec2 min, ImVec2 max);
bool zoomable_at(ImVec2 point);
// The zoomable areas of the last frame as {min, max} (the page keeps the browser's touch scrolling off them).
const std::vector<std::pair<ImVec2, ImVec2>>& zoomable_areas();

// Each heatmap's zoom window of the last frame (u0, v0, du, dv in [0, 1] of the whole matrix) by probe
// name (heatmap.<name>, and plot.<figure> for a figure drawn by it): window.posenc.zoom(name).
void set_zoom_window(const std::string& name, ImVec4 window);
bool find_zoom_window(const std::string& name, ImVec4* window);

// Called by the app at the start of every frame: forgets the last frame's readout and zoomable areas.
void begin_input_frame();

// Called by the platform before ImGui::NewFrame: Enter (and the keypad's) activates what the keyboard
// navigation has reached in a menu (the menu bar, a menu or a combo's list) as Space does. ImGui 1.86 maps
// Enter only to "input" (a slider's text entry), which a menu ignores; elsewhere Enter keeps that role.
void map_enter_in_menus();

}  // namespace posenc::app
