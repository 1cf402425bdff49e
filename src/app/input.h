// Input beyond what ImGui's IO carries, both ways between the platform and the app (no SDL, no browser):
// - out: the hover readout the last frame showed (the page mirrors it into a live region).
#pragma once

#include <imgui.h>

#include <string>

namespace posenc::app {

// A hover readout: an ImGui tooltip whose text is kept for the page. Between
// begin_readout() and end_readout() draw the readout's lines as usual (ImGui::Text...). Several readouts
// in one frame (a plot's, then a view's additions to it) are joined.
void begin_readout();
void end_readout();
// The readout text of the last frame, one line per text line ("" if none was shown).
const std::string& last_readout();

// Called by the app at the start of every frame: forgets the last frame's readout.
void begin_input_frame();

}  // namespace posenc::app
