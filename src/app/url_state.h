// The app's URL grammar beside the views' own keys: the app-level keys (embed, controls, figure, theme)
// and how a query is cleaned before anything reads it. App's state_query, load_state_query,
// load_state_query_strict and embed_query (app/url_state.cpp) are written with these; the query string
// codec itself is app/state_params.h.
#pragma once

#include <functional>

#include <string>
#include <utility>
#include <vector>

#include "app/i18n.h"
#include "app/notices.h"
#include "app/view.h"

namespace posenc::app {

enum class Theme { Auto, Light, Dark };
// controls=0 (hidden), 1 (shown: beside the plots when wide, above when not), compact (a strip above).
enum class ControlsMode { Hidden, Shown, Compact };

// The app-level keys of the URL state.
struct AppKeys {
  bool embed = false;                           // embed=1: only the view
  ControlsMode controls = ControlsMode::Shown;  // controls=0|1|compact
  std::string figure;                           // figure=: one plot of the view alone ("" = all)
  Theme theme = Theme::Auto;                    // theme=light|dark
  Lang lang = Lang::En;                         // lang=en|zh: the interface's language

  // The keys other than embed that differ from their default, in the order links write them (controls,
  // figure, theme, lang): ordinary links stay short, and a link or embed code keeps the language.
  std::vector<std::pair<std::string, std::string>> set_keys() const;
  // theme=: light, dark, auto or empty (auto); anything else is a notice and changes nothing.
  void read_theme(const std::string& value, Notices& notices);
  // lang=: en, zh or empty (en); anything else is a notice and changes nothing.
  void read_lang(const std::string& value, Notices& notices);
};

// "A new view or model starts fresh", the one rule (App's load_state_query and the page's setState, through
// posenc_merged_state). The app-level keys that hold across views and models: figure names a plot of one
// view, so it goes with the view.
inline constexpr const char* kKeysKeptAcrossViews[] = {"embed", "controls", "theme", "lang"};
// Whether a model value replaces the current model with a fresh view of another preset: not "", none (no
// model) or custom (the loaded config it names), and not the model the view already shows. A view without a
// model key (`current` null) has none to replace.
bool starts_fresh_model(const std::string* current, const std::string& next);
// The state a partial change reaches from `current` (setState's merge): a partial naming another view keeps
// only the current state's kKeysKeptAcrossViews (the old view's keys mean nothing to the new one); one naming
// another preset model (starts_fresh_model) keeps the view and those keys (a fresh ?model=<id> holds no key
// of the previous model); otherwise every key stays. The partial's keys go on top.
StateMap merged_state(const StateMap& current, const StateMap& partial);

// The longest key or value a state query may hold (the longest a key takes, a model's per-pair factor list, is
// ~50 KB); a longer one is ignored with a notice (parse_clean_query).
inline constexpr size_t kMaxStateValueBytes = size_t{256} << 10;

// The query's keys and values, without the pairs holding a control character or invalid UTF-8 (never used,
// nor cut at a NUL): each of those is a notice. A key `line_breaks_allowed` names (a multi-line text
// parameter) may hold line breaks and tabs.
StateMap parse_clean_query(const std::string& query, Notices& notices,
                           const std::function<bool(const std::string&)>& line_breaks_allowed = {});

// The strict (command line) wording of notices: the lenient wording says what the app does instead
// ("ignored", "using 4"); there nothing is used.
std::string strict_message(const Notices& notices);

}  // namespace posenc::app
