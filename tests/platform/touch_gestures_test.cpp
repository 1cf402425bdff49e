// The touch gesture recogniser the browser runner feeds with DOM touch events (platform/touch_gestures):
// who owns a touch, what ImGui's mouse does frame by frame, pinch scale, long-press and panel scroll.
#include "platform/touch_gestures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using posenc::platform::TouchGestures;
using posenc::platform::TouchPhase;

namespace {

// A zoomable plot in x, y in [100, 200].
TouchGestures make(bool page_scrolls = false) {
  TouchGestures g([](ImVec2 p) { return p.x >= 100 && p.x <= 200 && p.y >= 100 && p.y <= 200; });
  g.set_page_scrolls(page_scrolls);
  return g;
}

bool start(TouchGestures& g, int id, float x, float y, double t = 0) {
  return g.on_touch(TouchPhase::Start, id, ImVec2(x, y), true, t);
}
bool move(TouchGestures& g, int id, float x, float y, double t = 0, bool cancelable = true) {
  return g.on_touch(TouchPhase::Move, id, ImVec2(x, y), cancelable, t);
}
bool end(TouchGestures& g, int id, float x, float y, double t = 0) {
  return g.on_touch(TouchPhase::End, id, ImVec2(x, y), true, t);
}

}  // namespace

TEST(TouchGestures, TapOutsidePlotsIsAPressThenAReleaseEachInItsOwnFrame) {
  TouchGestures g = make();
  EXPECT_FALSE(start(g, 1, 20, 30));  // pending: the page may still scroll
  EXPECT_TRUE(end(g, 1, 21, 31));     // handled: no compatibility mouse events
  EXPECT_TRUE(g.active());
  auto f = g.frame(10);  // the finger appears (hover)
  EXPECT_TRUE(f.mouse.valid);
  EXPECT_FALSE(f.mouse.down);
  f = g.frame(20);
  EXPECT_TRUE(f.mouse.down);
  EXPECT_FLOAT_EQ(f.mouse.pos.x, 21);
  f = g.frame(30);
  EXPECT_FALSE(f.mouse.down);
  EXPECT_TRUE(f.mouse.valid);  // released over the item: a click
  f = g.frame(40);
  EXPECT_FALSE(f.mouse.valid);  // then the pointer leaves (no hover left behind)
  EXPECT_FALSE(g.needs_frame(50));
}

TEST(TouchGestures, TouchOnAZoomablePlotIsTheAppsAtOncePressedAndPinches) {
  TouchGestures g = make();
  EXPECT_TRUE(start(g, 1, 150, 150));
  auto f = g.frame(0);
  EXPECT_TRUE(f.mouse.down);
  EXPECT_EQ(f.touch.fingers, 1);
  EXPECT_TRUE(start(g, 2, 170, 150));  // a second finger anywhere joins the gesture
  f = g.frame(1);
  EXPECT_TRUE(f.touch.changed);  // the centroid jumped: no pan from it
  EXPECT_EQ(f.touch.fingers, 2);
  EXPECT_FLOAT_EQ(f.touch.centre.x, 160);
  EXPECT_FLOAT_EQ(f.touch.scale, 1);
  EXPECT_TRUE(move(g, 1, 140, 150));
  EXPECT_TRUE(move(g, 2, 180, 150));
  f = g.frame(2);
  EXPECT_FALSE(f.touch.changed);
  EXPECT_FLOAT_EQ(f.touch.scale, 2);  // spread 20 -> 40
  EXPECT_FLOAT_EQ(f.touch.centre.x, 160);
  EXPECT_TRUE(f.mouse.down);
  EXPECT_TRUE(end(g, 2, 180, 150));
  f = g.frame(3);
  EXPECT_TRUE(f.touch.changed);
  EXPECT_FLOAT_EQ(f.mouse.pos.x, 140);
  EXPECT_TRUE(end(g, 1, 140, 150));
  EXPECT_FALSE(g.frame(4).mouse.down);
  EXPECT_FALSE(g.frame(5).mouse.valid);
}

TEST(TouchGestures, SidewaysDragPressesWhereTheFingerWentDown) {
  TouchGestures g = make(true);
  EXPECT_FALSE(start(g, 1, 20, 30));
  EXPECT_FALSE(move(g, 1, 25, 30));  // within the slop: still undecided
  EXPECT_TRUE(move(g, 1, 60, 32));   // sideways past it: the app's (a slider drag)
  auto f = g.frame(0);
  for (int i = 1; i < 5 && !f.mouse.down; ++i) f = g.frame(i);  // the finger hovers first
  EXPECT_TRUE(f.mouse.down);
  EXPECT_FLOAT_EQ(f.mouse.pos.x, 20);
  f = g.frame(2);
  EXPECT_TRUE(f.mouse.down);
  EXPECT_FLOAT_EQ(f.mouse.pos.x, 60);
}

TEST(TouchGestures, VerticalSwipeIsThePagesInAnEmbedAndScrollsThePanelOtherwise) {
  TouchGestures embed = make(true);
  EXPECT_FALSE(start(embed, 1, 20, 300));
  EXPECT_FALSE(move(embed, 1, 21, 250));  // the page scrolls: never preventDefault
  EXPECT_FALSE(move(embed, 1, 21, 200));
  EXPECT_TRUE(end(embed, 1, 21, 200));
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(embed.frame(i).mouse.down) << "no click after a scroll";

  TouchGestures page = make(false);
  EXPECT_FALSE(start(page, 1, 20, 300));
  EXPECT_TRUE(move(page, 1, 21, 250));  // the app's own page does not scroll: the panel does
  auto f = page.frame(0);
  EXPECT_FLOAT_EQ(f.scroll_dy, -50);
  EXPECT_TRUE(move(page, 1, 21, 240));
  f = page.frame(1);
  EXPECT_FLOAT_EQ(f.scroll_dy, -10);
  EXPECT_FALSE(f.mouse.down);
}

TEST(TouchGestures, AnUncancelableMoveMeansTheBrowserScrolls) {
  TouchGestures g = make(false);
  EXPECT_FALSE(start(g, 1, 20, 300));
  EXPECT_FALSE(move(g, 1, 20, 296, 0, false));
  EXPECT_TRUE(end(g, 1, 20, 296));
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(g.frame(i).mouse.down);
}

TEST(TouchGestures, LongPressShowsTheReadoutAndNeverClicks) {
  TouchGestures g = make();
  EXPECT_FALSE(start(g, 1, 20, 30, 0));
  g.frame(0);
  EXPECT_FALSE(g.needs_frame(100));
  EXPECT_TRUE(g.needs_frame(TouchGestures::kLongPressMs + 1));
  auto f = g.frame(TouchGestures::kLongPressMs + 1);
  EXPECT_TRUE(f.touch.long_press);
  EXPECT_TRUE(f.touch.touch);
  EXPECT_FALSE(f.mouse.down);
  EXPECT_TRUE(move(g, 1, 80, 30, 600));  // the readout follows the finger; the page stays
  EXPECT_FLOAT_EQ(g.frame(601).mouse.pos.x, 80);
  EXPECT_TRUE(end(g, 1, 80, 30, 700));
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(g.frame(701 + i).mouse.down);

  TouchGestures plot = make();  // on a heatmap: pressed, and long_press while it rests
  EXPECT_TRUE(start(plot, 1, 150, 150, 0));
  EXPECT_FALSE(plot.frame(0).touch.long_press);
  EXPECT_TRUE(plot.frame(TouchGestures::kLongPressMs).touch.long_press);
}

TEST(TouchGestures, LongPressLiftedStillOnASliderIsACtrlClickThatOpensItsTextField) {
  TouchGestures g = make();
  g.set_typable([](ImVec2 p) { return p.x >= 0 && p.x <= 60 && p.y >= 20 && p.y <= 40; });  // a slider
  EXPECT_FALSE(start(g, 1, 20, 30, 0));
  g.frame(0);
  EXPECT_TRUE(g.frame(TouchGestures::kLongPressMs + 1).touch.long_press);
  EXPECT_TRUE(end(g, 1, 22, 31, 800));
  auto f = g.frame(801);
  EXPECT_TRUE(f.mouse.down);  // the press, with Ctrl
  EXPECT_TRUE(f.mouse.ctrl);
  EXPECT_FLOAT_EQ(f.mouse.pos.x, 22);
  f = g.frame(802);
  EXPECT_FALSE(f.mouse.down);  // the release, without
  EXPECT_FALSE(f.mouse.ctrl);
  EXPECT_TRUE(f.mouse.valid);
  EXPECT_FALSE(g.frame(803).mouse.valid);

  // A tap on the slider is a plain click; a long-press that moved, or lifted off the slider, clicks nothing.
  EXPECT_FALSE(start(g, 2, 20, 30, 2000));
  EXPECT_TRUE(end(g, 2, 20, 30, 2100));
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(g.frame(2101 + i).mouse.ctrl);
  EXPECT_FALSE(start(g, 3, 20, 30, 4000));
  g.frame(4000);
  g.frame(4000 + TouchGestures::kLongPressMs + 1);
  EXPECT_TRUE(move(g, 3, 120, 30, 4600));
  EXPECT_TRUE(end(g, 3, 120, 30, 4700));
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(g.frame(4701 + i).mouse.down);
}

TEST(TouchGestures, EventTimesDecideWhenAFrameSawALongPressTooSoon) {
  // A busy page: the frame at 600 ms saw a resting finger, but the finger had lifted at 100 ms (its end
  // event only arrived late). It is a tap.
  TouchGestures g = make();
  start(g, 1, 20, 30, 0);
  EXPECT_TRUE(g.frame(600).touch.long_press);
  end(g, 1, 20, 30, 100);
  bool clicked = false;
  for (int i = 0; i < 5; ++i) clicked |= g.frame(601 + i).mouse.down;
  EXPECT_TRUE(clicked);
  // The same for a sideways move at 100 ms: a slider drag, not a readout.
  start(g, 1, 20, 30, 1000);
  EXPECT_TRUE(g.frame(1600).touch.long_press);
  EXPECT_TRUE(move(g, 1, 60, 30, 1100));
  auto f = g.frame(1601);
  for (int i = 0; i < 5 && !f.mouse.down; ++i) f = g.frame(1602 + i);
  EXPECT_TRUE(f.mouse.down);
  EXPECT_FALSE(f.touch.long_press);
}

TEST(TouchGestures, MouseTakesOverAfterTheTouchIsDone) {
  TouchGestures g = make();
  start(g, 1, 20, 30, 0);
  end(g, 1, 20, 30, 10);
  g.on_mouse_motion(20);  // a compatibility event right after the touch: ignored
  EXPECT_TRUE(g.active());
  g.on_mouse_motion(10 + TouchGestures::kMouseAfterTouchMs + 1);
  EXPECT_FALSE(g.active());
}

TEST(TouchGestures, TwoQuickTapsNearbyAreADoubleTapAThirdIsNot) {
  TouchGestures g = make();
  auto presses = [&](double t) {  // the double_tap flags of the frames up to the next idle
    std::vector<bool> flags;
    for (int i = 0; i < 6; ++i) {
      const auto f = g.frame(t + i);
      if (f.mouse.down) flags.push_back(f.touch.double_tap);
    }
    return flags;
  };
  start(g, 1, 150, 150, 0);
  end(g, 1, 150, 150, 50);
  EXPECT_EQ(presses(60), std::vector<bool>{false});
  start(g, 1, 160, 155, 200);  // 150 ms later, 11 px away
  end(g, 1, 160, 155, 250);
  EXPECT_EQ(presses(260), std::vector<bool>{true});
  start(g, 1, 160, 155, 400);  // a third tap starts a new pair
  end(g, 1, 160, 155, 450);
  EXPECT_EQ(presses(460), std::vector<bool>{false});
  start(g, 1, 100, 300, 2000);  // too late, elsewhere: not a double-tap
  end(g, 1, 100, 300, 2050);
  EXPECT_EQ(presses(2060), std::vector<bool>{false});
  start(g, 1, 100, 300, 3000);
  end(g, 1, 100, 300, 3050);
  EXPECT_EQ(presses(3060), std::vector<bool>{false});
}

TEST(TouchGestures, BadInputNeverBreaksIt) {
  TouchGestures g = make();
  EXPECT_FALSE(g.on_touch(TouchPhase::Move, 7, ImVec2(1, 1), true, 0));  // a finger never seen
  EXPECT_TRUE(g.on_touch(TouchPhase::End, 7, ImVec2(1, 1), true, 0));
  EXPECT_FALSE(g.on_touch(TouchPhase::Start, 1, ImVec2(NAN, 1), true, 0));
  start(g, 1, 20, 30);
  start(g, 1, 20, 30);  // the same id again (its end was lost)
  end(g, 1, 20, 30);
  for (int i = 0; i < 6; ++i) g.frame(i);
  EXPECT_FALSE(g.needs_frame(10));
}

// Cooperative gestures (an embed in a blog post): one finger on a map is the page's, two are the map's.
TouchGestures cooperative() {
  TouchGestures g = make(true);
  g.set_cooperative(true);
  return g;
}

TEST(TouchGestures, CooperativeOneFingerOnAMapIsThePagesSwipeAndAsksForTheHintOnce) {
  TouchGestures g = cooperative();
  EXPECT_FALSE(start(g, 1, 150, 150));  // pending, not the app's: the browser may scroll
  EXPECT_FALSE(move(g, 1, 150, 145));   // within the slop
  EXPECT_FALSE(move(g, 1, 150, 120));   // a vertical swipe: never prevented
  EXPECT_TRUE(g.take_hint());
  EXPECT_FALSE(g.take_hint());  // asked once per swipe
  EXPECT_FALSE(move(g, 1, 150, 80));
  EXPECT_TRUE(end(g, 1, 150, 80));
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(g.frame(i).mouse.down);  // nothing pressed: no pan
  // A sideways swipe that starts on the map does not pan it either.
  EXPECT_FALSE(start(g, 1, 150, 150, 1000));
  EXPECT_FALSE(move(g, 1, 180, 152, 1010));
  EXPECT_TRUE(g.take_hint());
  EXPECT_TRUE(end(g, 1, 180, 152, 1020));
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(g.frame(1000 + i).mouse.down);
  // A browser already scrolling (an uncancelable move) also asks.
  EXPECT_FALSE(start(g, 1, 150, 150, 2000));
  EXPECT_FALSE(move(g, 1, 150, 100, 2010, false));
  EXPECT_TRUE(g.take_hint());
}

TEST(TouchGestures, CooperativeTwoFingersOnAMapPanAndPinchIt) {
  TouchGestures g = cooperative();
  EXPECT_FALSE(start(g, 1, 150, 150));
  EXPECT_TRUE(start(g, 2, 170, 150));  // the second finger makes it the map's: prevented
  g.frame(0);                          // the first finger's hover
  auto f = g.frame(1);
  EXPECT_TRUE(f.mouse.down);
  EXPECT_EQ(f.touch.fingers, 2);
  EXPECT_FLOAT_EQ(f.touch.centre.x, 160);
  EXPECT_TRUE(move(g, 1, 140, 150));
  EXPECT_TRUE(move(g, 2, 180, 150));
  f = g.frame(2);
  EXPECT_FLOAT_EQ(f.touch.scale, 2);  // spread 20 -> 40
  EXPECT_FALSE(g.take_hint());
  EXPECT_TRUE(end(g, 2, 180, 150));
  EXPECT_TRUE(end(g, 1, 140, 150));
  // Two fingers that start away from every map stay the page's (its pinch-zoom, if any).
  EXPECT_FALSE(start(g, 1, 20, 20, 1000));
  EXPECT_FALSE(start(g, 2, 40, 20, 1001));
  EXPECT_FALSE(move(g, 2, 60, 20, 1010));
}

TEST(TouchGestures, CooperativeLongPressOnAMapShowsTheReadoutAndKeepsIt) {
  TouchGestures g = cooperative();
  EXPECT_FALSE(start(g, 1, 150, 150, 0));
  g.frame(10);
  auto f = g.frame(600);  // resting past the long-press time
  EXPECT_TRUE(f.touch.long_press);
  EXPECT_TRUE(f.mouse.valid);
  EXPECT_FALSE(f.mouse.down);  // a readout, not a press
  // Moving on after the long-press: the readout follows the finger, the page does not scroll.
  EXPECT_TRUE(move(g, 1, 150, 130, 700));
  f = g.frame(710);
  EXPECT_TRUE(f.touch.long_press);
  EXPECT_FLOAT_EQ(f.mouse.pos.y, 130);
  EXPECT_FALSE(g.take_hint());
  EXPECT_TRUE(end(g, 1, 150, 130, 800));
}

TEST(TouchGestures, CooperativeKeepsSlidersAndTapsOutsideMaps) {
  TouchGestures g = cooperative();
  EXPECT_FALSE(start(g, 1, 20, 30));
  EXPECT_TRUE(move(g, 1, 60, 32));  // sideways outside a map: a slider drag, the app's
  EXPECT_FALSE(g.take_hint());
}
