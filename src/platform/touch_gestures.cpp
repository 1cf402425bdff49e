#include "platform/touch_gestures.h"

#include <algorithm>
#include <cmath>

namespace posenc::platform {
namespace {

float distance(ImVec2 a, ImVec2 b) { return std::hypot(a.x - b.x, a.y - b.y); }

}  // namespace

void TouchGestures::push(Mouse m, bool jump, bool cancel, bool double_tap) {
  const Mouse& prev = queue_.empty() ? current_ : queue_.back().mouse;
  const bool transition = m.down != prev.down || m.valid != prev.valid || m.ctrl != prev.ctrl;
  const int fingers = mode_ == Mode::Owned ? int(fingers_.size()) : 0;
  // A move merges into a queued move (only the latest position and spread matter); presses, releases
  // and fingers going down or up queue up, a frame each (a pinch's scale counts from the spread the
  // second finger went down at).
  if (!transition && !cancel && !jump && !queue_.empty() && !queue_.back().keep && queue_.back().fingers == fingers) {
    queue_.back().mouse = m;
    queue_.back().spread = spread();
    return;
  }
  queue_.push_back({m, transition || cancel || jump, jump, cancel, double_tap, fingers, spread()});
}

ImVec2 TouchGestures::centroid() const {
  ImVec2 c(0, 0);
  for (const Finger& f : fingers_) c = ImVec2(c.x + f.pos.x, c.y + f.pos.y);
  const float n = float(std::max<size_t>(1, fingers_.size()));
  return ImVec2(c.x / n, c.y / n);
}

float TouchGestures::spread() const { return fingers_.size() >= 2 ? distance(fingers_[0].pos, fingers_[1].pos) : 0.0f; }

bool TouchGestures::long_press_due(double now_ms) const {
  return (mode_ == Mode::Pending || mode_ == Mode::Owned) && fingers_.size() == 1 && !moved_ && !long_press_ &&
         now_ms - down_ms_ >= kLongPressMs;
}

bool TouchGestures::on_touch(TouchPhase phase, int id, ImVec2 pos, bool cancelable, double event_ms) {
  if (!std::isfinite(pos.x) || !std::isfinite(pos.y)) return false;
  touch_pointer_ = true;
  last_touch_ms_ = event_ms;
  auto it = std::find_if(fingers_.begin(), fingers_.end(), [id](const Finger& f) { return f.id == id; });

  if (phase == TouchPhase::Start) {
    if (it != fingers_.end()) fingers_.erase(it);  // a finger whose end we never saw
    fingers_.push_back({id, pos, pos});
    if (fingers_.size() == 1) {
      down_ms_ = event_ms;
      moved_ = long_press_ = several_ = false;
      second_tap_ = event_ms - last_tap_ms_ <= kDoubleTapMs && distance(pos, last_tap_pos_) <= kDoubleTapDistance;
      last_spread_ = 0;
      on_map_ = zoomable_ && zoomable_(pos);
      if (on_map_ && !cooperative_) {
        mode_ = Mode::Owned;
        push({true, pos, true}, false, false, second_tap_);
        return true;
      }
      mode_ = Mode::Pending;
      push({true, pos, false});
      return false;
    }
    several_ = true;
    switch (mode_) {
      case Mode::Owned: push({true, centroid(), true}, true); return true;
      case Mode::Pending:
        // Cooperative: two fingers with one on a map are the map's (the page's pinch-zoom is off there).
        if (cooperative_ && (on_map_ || (zoomable_ && zoomable_(pos)))) {
          mode_ = Mode::Owned;
          push({true, centroid(), true}, true);
          return true;
        }
        mode_ = Mode::Ignored;
        push_off();
        return false;  // the browser's pinch-zoom
      case Mode::Scrolling:
      case Mode::Inspect: return true;  // the gesture stays what it was
      default: return false;
    }
  }

  if (it == fingers_.end()) {
    if (phase != TouchPhase::Move) return true;
    return mode_ != Mode::Ignored && mode_ != Mode::Pending && mode_ != Mode::Idle;
  }

  // A long-press is seen at a frame, by the clock; an event that shows (by its own time) that the finger
  // moved or lifted sooner was only late to arrive (a busy page): the gesture is what the finger did.
  const bool early = event_ms - down_ms_ < kLongPressMs;

  if (phase == TouchPhase::Move) {
    const ImVec2 prev = it->pos;
    it->pos = pos;
    if (distance(pos, it->start) > kSlop) moved_ = true;
    if (mode_ == Mode::Inspect && moved_ && early) mode_ = Mode::Pending, long_press_ = false;
    // On a heatmap the readout stays while the finger rests; moving on pans again.
    if (mode_ == Mode::Owned && moved_) long_press_ = false;
    switch (mode_) {
      case Mode::Pending: {
        if (!cancelable) {  // the browser scrolls already
          hint_ = hint_ || (on_map_ && cooperative_);
          mode_ = Mode::Ignored;
          push_off();
          return false;
        }
        if (!moved_) {
          push({true, pos, false});
          return false;
        }
        const float dx = pos.x - it->start.x, dy = pos.y - it->start.y;
        if (on_map_ && cooperative_) {  // one finger on a map: the page's (a vertical swipe scrolls it)
          hint_ = true;
          mode_ = Mode::Ignored;
          push_off();
          return false;
        }
        if (std::abs(dx) >= std::abs(dy)) {  // sideways: press where the finger went down, then drag
          mode_ = Mode::Owned;
          push({true, it->start, true});
          push({true, pos, true});
          return true;
        }
        if (page_scrolls_) {
          mode_ = Mode::Ignored;
          push_off();
          return false;
        }
        mode_ = Mode::Scrolling;
        scroll_dy_ += dy;
        push({true, pos, false});
        return true;
      }
      case Mode::Owned: push({true, centroid(), true}); return true;
      case Mode::Scrolling:
        if (it == fingers_.begin()) scroll_dy_ += pos.y - prev.y;
        push({true, fingers_.front().pos, false});
        return true;
      case Mode::Inspect: push({true, fingers_.front().pos, false}); return moved_;  // the readout follows
      default: return false;
    }
  }

  // End or Cancel.
  const ImVec2 last = phase == TouchPhase::End ? pos : it->pos;
  fingers_.erase(it);
  const bool cancelled = phase == TouchPhase::Cancel;
  if (early && !moved_ && long_press_) {  // lifted before the long-press (the event was late): a tap
    long_press_ = false;
    if (mode_ == Mode::Inspect) mode_ = Mode::Pending;
  }
  if (!fingers_.empty()) {
    if (mode_ == Mode::Owned) push({true, centroid(), true}, true);
    return mode_ != Mode::Ignored && mode_ != Mode::Pending;
  }
  // A tap (one finger, no move, no long-press) may be the first of a double-tap.
  const bool tap = !cancelled && !moved_ && !long_press_ && !several_ && (mode_ == Mode::Pending || mode_ == Mode::Owned);
  last_tap_ms_ = tap && !second_tap_ ? event_ms : -1e9;
  last_tap_pos_ = last;
  switch (mode_) {
    case Mode::Pending:  // a tap: a press and a release where the finger lifted
      if (!cancelled) {
        push({true, last, true}, false, false, second_tap_);
        push({true, last, false});
      }
      push_off();
      break;
    case Mode::Owned:
      if (cancelled) {
        push_off(true);
      } else {
        push({true, last, false});
        push_off();
      }
      break;
    case Mode::Inspect:  // a long-press: lifted still on a slider, it opens the slider's text field
      if (!cancelled && !moved_ && !several_ && typable_ && typable_(last)) {
        push({true, last, true, true});
        push({true, last, false});
      }
      push_off();
      break;
    default: push_off(); break;
  }
  mode_ = Mode::Idle;
  long_press_ = false;
  return true;  // no compatibility mouse events after a touch: it was handled as one
}

void TouchGestures::on_mouse_motion(double now_ms) {
  if (!touch_pointer_ || !fingers_.empty() || now_ms - last_touch_ms_ < kMouseAfterTouchMs) return;
  touch_pointer_ = false;
  queue_.clear();
  current_ = Mouse{};
}

bool TouchGestures::needs_frame(double now_ms) const { return !queue_.empty() || scroll_dy_ != 0.0f || long_press_due(now_ms); }

TouchGestures::Frame TouchGestures::frame(double now_ms) {
  Frame out;
  if (long_press_due(now_ms)) {
    long_press_ = true;
    if (mode_ == Mode::Pending) mode_ = Mode::Inspect;  // a rest outside a plot: show, never click
  }
  app::TouchFrame& t = out.touch;
  t.fingers = mode_ == Mode::Owned ? int(fingers_.size()) : 0;
  if (!queue_.empty()) {
    const Queued q = queue_.front();
    queue_.pop_front();
    current_ = q.mouse;
    out.cancel_press = q.cancel;
    t.double_tap = q.double_tap;
    t.changed = q.jump;
    t.fingers = q.fingers;
    // The pinch: the spread of this entry against the last one's (the first entry of two fingers only
    // sets where it starts).
    t.scale = q.fingers >= 2 && !q.jump && last_spread_ > 0 && q.spread > 0 ? q.spread / last_spread_ : 1.0f;
    last_spread_ = q.fingers >= 2 ? q.spread : 0.0f;
  }
  out.mouse = current_;
  t.touch = touch_pointer_;
  t.long_press = long_press_ && !fingers_.empty();
  t.centre = current_.pos;
  out.scroll_dy = scroll_dy_;
  scroll_dy_ = 0;
  return out;
}

}  // namespace posenc::platform
