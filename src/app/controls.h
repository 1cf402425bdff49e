// Controls several views share, drawn, named and probed alike (tests find them as "slider.d", ...).
#pragma once

#include <string>

namespace posenc::app {

// "<label>" above a logarithmic slider over even widths 2..max_d (sin/cos and rotation pairs need an
// even width); probed as "slider.d". Returns true when d changed.
bool even_width_slider(const char* label, int& d, int max_d);

// "Base" above a logarithmic slider over [kBaseMin, kBaseMax]; probed as "slider.base".
bool base_slider(double& base);

// A message in the error colour (nothing when empty).
void error_text(const std::string& message);

}  // namespace posenc::app
