// The desktop's input method: SDL's composition events reach the app's preedit (platform/sdl_runner.h's
// preedit_after, which the desktop runner hands to App::set_preedit, as the page does through
// posenc_set_preedit): each SDL_TEXTEDITING shows its text, the commit (SDL_TEXTINPUT), a cancelled
// composition ("") and a window that loses the keyboard end it, and other events leave it as it is.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>

#include "app/app.h"
#include "platform/sdl_runner.h"

namespace {

using posenc::platform::preedit_after;

SDL_Event editing(const char* text) {
  SDL_Event e{};
  e.type = SDL_TEXTEDITING;
  std::strncpy(e.edit.text, text, sizeof e.edit.text - 1);
  e.edit.start = 0;
  e.edit.length = 0;
  return e;
}

SDL_Event text_input(const char* text) {
  SDL_Event e{};
  e.type = SDL_TEXTINPUT;
  std::strncpy(e.text.text, text, sizeof e.text.text - 1);
  return e;
}

SDL_Event window_event(Uint8 what) {
  SDL_Event e{};
  e.type = SDL_WINDOWEVENT;
  e.window.event = what;
  return e;
}

// The desktop runner's path: each event's preedit, if it has one, into the app.
void feed(posenc::app::App& app, const SDL_Event& e) {
  if (const std::optional<std::string> p = preedit_after(e)) app.set_preedit(*p);
}

TEST(DesktopPreedit, ComposingShowsTheCompositionAndTheCommitEndsIt) {
  posenc::app::App app;
  feed(app, editing("n"));
  EXPECT_EQ(app.ui().preedit, "n");
  feed(app, editing("ni h"));
  EXPECT_EQ(app.ui().preedit, "ni h");
  feed(app, window_event(SDL_WINDOWEVENT_EXPOSED));  // not the keyboard's: the composition stays
  SDL_Event key{};
  key.type = SDL_KEYDOWN;
  feed(app, key);
  EXPECT_EQ(app.ui().preedit, "ni h");
  feed(app, text_input("你好"));  // the commit: the text arrives as typed text, the preedit goes
  EXPECT_EQ(app.ui().preedit, "");
}

TEST(DesktopPreedit, ACancelledCompositionOrALostFocusEndsIt) {
  posenc::app::App app;
  feed(app, editing("zhong"));
  feed(app, editing(""));
  EXPECT_EQ(app.ui().preedit, "");
  feed(app, editing("wen"));
  feed(app, window_event(SDL_WINDOWEVENT_FOCUS_LOST));
  EXPECT_EQ(app.ui().preedit, "");
}

TEST(DesktopPreedit, TheCompositionIsReadWithinItsEventAndAsUtf8) {
  SDL_Event e = editing("");
  std::memset(e.edit.text, 'a', sizeof e.edit.text);  // no terminating NUL: read no further than the field
  EXPECT_EQ(preedit_after(e), std::string(sizeof e.edit.text, 'a'));
  EXPECT_EQ(preedit_after(editing("中文")), std::string("中文"));
  EXPECT_EQ(preedit_after(window_event(SDL_WINDOWEVENT_FOCUS_GAINED)), std::nullopt);
}

}  // namespace
