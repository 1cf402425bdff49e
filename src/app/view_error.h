// A view's error ("cannot compute (key): message", View::error()) in the interface's language: the wrapper
// and the core's message translated apart, so a template of the message (e.g. "{0} must have dim/2 = {1}
// entries (one per rotary pair)") cannot swallow the wrapper. `capital`: "Cannot compute ..." (drawn).
#pragma once

#include <string>

#include "app/notices.h"

namespace posenc::app {

std::string view_error_shown(const Notice& error, bool capital);

}  // namespace posenc::app
