// What a state load ignored or corrected, and what a view cannot compute: structured, one entry per
// URL key, so the strict CLI reports the key as the error's field and the page lists them without
// re-parsing text.
#pragma once

#include <string>
#include <vector>

namespace posenc::app {

struct Notice {
  std::string key;      // the URL key it is about ("n", "view", "embed", an unknown key, ...)
  std::string message;  // a whole sentence that names the key, e.g. "n=99999 is outside [1, 4096]: ignored."
};

using Notices = std::vector<Notice>;

// A URL value made safe to quote in a notice: control bytes (NUL included) and bytes that are not valid
// UTF-8 become \xNN, and a long value is cut to its first 64 bytes followed by "...".
std::string quote_for_notice(const std::string& value);
// True when `s` is valid UTF-8 with no NUL or other control byte (what a URL key may hold); a value may also
// hold line breaks and tabs (`line_breaks`).
bool is_clean_text(const std::string& s, bool line_breaks = false);

// The messages joined by spaces ("" when there are none): the text `window.posenc.notices()` returns.
std::string notices_text(const Notices& notices);
// JSON array [{"key": ..., "message": ...}] (what `window.posenc.noticeList()` returns).
std::string notices_json(const Notices& notices);

}  // namespace posenc::app
