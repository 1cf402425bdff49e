// Touch on the canvas, turned into what the app and ImGui understand: ImGui's mouse driven by a finger
// (tap = click, drag = drag), vertical panel scrolling, and the app's TouchFrame (pinch, long-press).
// Platform-neutral logic (the browser runner feeds it DOM touch events; unit-tested natively).
//
// Who owns a touch, decided per gesture (first finger down to last finger up):
// - it starts on a zoomable plot (a heatmap): the app's at once (the page calls preventDefault): one
//   finger presses and drags (pan), two pinch (scale and centroid per frame), a rest is a long-press;
// - elsewhere it is pending (the mouse hovers at the finger, nothing pressed) until it shows what it is:
//   lifted within the slop: a tap (press and release, one frame each); moved sideways past the slop: a
//   press at its start point then a drag (sliders); moved vertically: the page's scroll when the page
//   scrolls (an embed in a blog post), else a scroll of the app's panel under the finger; resting
//   ~500 ms: a long-press (the hover readout at the finger, no click on release; on a slider whose
//   value can be typed, lifting opens its text field: a ctrl+click, which a phone cannot make); a
//   browser that already scrolls (an uncancelable move) or a second finger (the browser's pinch-zoom):
//   the page's.
// Cooperative (an embed in a blog post, as map embeds do): one finger is never the map's; a touch that
// starts on a map is pending like any other (a vertical swipe scrolls the page, a rest is the readout,
// a tap a click), a swipe there asks for the hint once (take_hint), and a second finger with either
// finger on a map makes the gesture the app's: two fingers pan and pinch the map.
#pragma once

#include <imgui.h>

#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "app/input.h"

namespace posenc::platform {

enum class TouchPhase { Start = 0, Move = 1, End = 2, Cancel = 3 };

class TouchGestures {
 public:
  static constexpr double kLongPressMs = 500;
  static constexpr float kSlop = 10.0f;  // window units a finger may wander and still tap / long-press
  // Keeps the touch pointer after the last finger lifts; a mouse moving after that takes over again.
  static constexpr double kMouseAfterTouchMs = 800;
  // A second tap this soon after the first one ended, and this close to it, is a double-tap.
  static constexpr double kDoubleTapMs = 400;
  static constexpr float kDoubleTapDistance = 24.0f;

  // `zoomable(point)`: whether a touch starting at `point` is the app's at once.
  explicit TouchGestures(std::function<bool(ImVec2)> zoomable) : zoomable_(std::move(zoomable)) {}

  // `typable(point)`: whether a long-press lifted at `point` opens a text field there (a slider).
  void set_typable(std::function<bool(ImVec2)> typable) { typable_ = std::move(typable); }

  // Whether a vertical drag outside zoomable plots scrolls the page (true in an iframe embed) or the
  // app's panel under the finger (the app fills its own page, which does not scroll).
  void set_page_scrolls(bool page_scrolls) { page_scrolls_ = page_scrolls; }
  // Cooperative gestures (an embed in a page that scrolls): one finger on a map scrolls the page.
  void set_cooperative(bool cooperative) { cooperative_ = cooperative; }
  // Whether a one-finger swipe started on a map since the last call (cooperative): the page then says
  // that two fingers move the map.
  bool take_hint() { return std::exchange(hint_, false); }

  // One changed touch point of a DOM touch event (`cancelable`: the event's, false once the browser
  // scrolls; `event_ms`: its timeStamp, on the clock frame() gets). Returns whether the page should call
  // preventDefault() on the event.
  bool on_touch(TouchPhase phase, int id, ImVec2 pos, bool cancelable, double event_ms);
  // A real mouse moved: after the last touch it drives ImGui again.
  void on_mouse_motion(double now_ms);
  // Whether touch drives ImGui's mouse (from the first touch until a mouse moves again).
  bool active() const { return touch_pointer_; }

  // ImGui's mouse as the finger drives it (valid = false: no pointer over the app).
  struct Mouse {
    bool valid = false;
    ImVec2 pos{0, 0};
    bool down = false;
    bool ctrl = false;  // the press is a ctrl+click (a long-press lifted on a slider: its text field)
  };
  struct Frame {
    Mouse mouse;
    app::TouchFrame touch;
    float scroll_dy = 0;        // scroll the panel under the finger by this much (content follows the finger)
    bool cancel_press = false;  // the browser took a pressed gesture: drop ImGui's active item, no click
  };
  // The next frame's input. Each press and each release gets a frame of its own.
  Frame frame(double now_ms);
  // Whether a frame is due without a new event: queued presses or releases, a long-press that is due.
  bool needs_frame(double now_ms) const;

 private:
  enum class Mode { Idle, Pending, Owned, Scrolling, Inspect, Ignored };
  struct Finger {
    int id;
    ImVec2 start, pos;
  };
  struct Queued {
    Mouse mouse;
    bool keep = false;        // a press, a release or the pointer appearing or leaving: never merged
    bool jump = false;        // the centroid jumped (a finger went down or up)
    bool cancel = false;      // the press ends without a click
    bool double_tap = false;  // the press of a second tap
    int fingers = 0;          // fingers in the app's gesture (Owned) when it was queued
    float spread = 0;         // and the distance between the first two
  };

  void push(Mouse m, bool jump = false, bool cancel = false, bool double_tap = false);
  void push_off(bool cancel = false) { push(Mouse{}, false, cancel); }
  ImVec2 centroid() const;
  float spread() const;
  bool long_press_due(double now_ms) const;

  std::function<bool(ImVec2)> zoomable_;
  std::function<bool(ImVec2)> typable_;
  bool page_scrolls_ = false;
  bool cooperative_ = false;
  bool on_map_ = false;  // this gesture's first finger went down on a map (cooperative)
  bool hint_ = false;
  bool touch_pointer_ = false;
  double last_touch_ms_ = -1e9;
  Mode mode_ = Mode::Idle;
  std::vector<Finger> fingers_;
  double down_ms_ = 0;
  bool moved_ = false;  // a finger of this gesture went past the slop
  bool long_press_ = false;
  bool several_ = false;     // more than one finger took part
  bool second_tap_ = false;  // this gesture started as the second tap of a double-tap
  double last_tap_ms_ = -1e9;
  ImVec2 last_tap_pos_{0, 0};
  float last_spread_ = 0;
  float scroll_dy_ = 0;
  std::deque<Queued> queue_;
  Mouse current_;  // the mouse as the last frame saw it
};

}  // namespace posenc::platform
