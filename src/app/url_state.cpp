// The app-level URL keys and query cleaning (app/url_state.h); App reads and writes its state with them (app.cpp).
#include "app/url_state.h"

#include <memory>
#include <optional>

#include "app/state_params.h"

namespace posenc::app {

std::vector<std::pair<std::string, std::string>> AppKeys::set_keys() const {
  std::vector<std::pair<std::string, std::string>> out;
  if (controls == ControlsMode::Hidden) out.emplace_back("controls", "0");
  if (controls == ControlsMode::Compact) out.emplace_back("controls", "compact");
  if (!figure.empty()) out.emplace_back("figure", figure);
  if (theme != Theme::Auto) out.emplace_back("theme", theme == Theme::Dark ? "dark" : "light");
  if (lang != Lang::En) out.emplace_back("lang", lang_code(lang));
  return out;
}

void AppKeys::read_theme(const std::string& value, Notices& notices) {
  if (value == "light") theme = Theme::Light;
  else if (value == "dark") theme = Theme::Dark;
  else if (value == "auto" || value.empty()) theme = Theme::Auto;
  else notices.push_back({"theme", "theme=\"" + quote_for_notice(value) + "\" is not light or dark: ignored."});
}

void AppKeys::read_lang(const std::string& value, Notices& notices) {
  if (value.empty()) lang = Lang::En;
  else if (const std::optional<Lang> l = lang_from_code(value)) lang = *l;
  else notices.push_back({"lang", "lang=\"" + quote_for_notice(value) + "\" is not " + lang_codes_text() + ": ignored."});
}

bool starts_fresh_model(const std::string* current, const std::string& next) {
  return current && !next.empty() && next != "none" && next != "custom" && next != *current;
}

StateMap merged_state(const StateMap& current, const StateMap& partial) {
  const auto value = [](const StateMap& state, const char* key) -> const std::string* {
    auto it = state.find(key);
    return it == state.end() ? nullptr : &it->second;
  };
  const std::string* view = value(partial, "view");
  const std::string* model = value(partial, "model");
  const bool new_view = view && !view->empty() && (!value(current, "view") || *view != *value(current, "view"));
  const bool new_model = !new_view && model && starts_fresh_model(value(current, "model"), *model);
  StateMap out;
  if (new_view || new_model) {
    for (const char* key : kKeysKeptAcrossViews)
      if (const std::string* v = value(current, key)) out[key] = *v;
    if (const std::string* v = value(current, "view"); new_model && v) out["view"] = *v;
  } else {
    out = current;
  }
  for (const auto& [key, v] : partial) out[key] = v;
  return out;
}

StateMap parse_clean_query(const std::string& query, Notices& notices,
                           const std::function<bool(const std::string&)>& line_breaks_allowed) {
  StateMap in = parse_query(query);
  // A value with a NUL, another control byte or invalid UTF-8 is never used (nor cut at the NUL); in a
  // multi-line text key line breaks and tabs are text (rows of a pasted tensor: setState({tensor: "1 2\n3
  // 4"})). Nor is
  // one longer than any key takes (the page cuts longer ones one byte past the limit before copying them).
  for (auto it = in.begin(); it != in.end();) {
    const std::string key = quote_for_notice(it->first);
    if (it->first.size() > kMaxStateValueBytes || it->second.size() > kMaxStateValueBytes) {
      notices.push_back({key, key + "=\"" + quote_for_notice(it->second) + "\" is longer than " +
                                  std::to_string(kMaxStateValueBytes >> 10) + " KiB: ignored."});
      it = in.erase(it);
      continue;
    }
    const bool breaks = line_breaks_allowed && line_breaks_allowed(it->first);
    if (is_clean_text(it->first) && is_clean_text(it->second, breaks)) {
      ++it;
      continue;
    }
    notices.push_back(
        {key, key + "=\"" + quote_for_notice(it->second) + "\" holds a control character or invalid UTF-8: ignored."});
    it = in.erase(it);
  }
  return in;
}

std::string strict_message(const Notices& notices) {
  std::string message = "invalid state: " + notices_text(notices);
  for (size_t p; (p = message.find(": ignored.")) != std::string::npos;) message.replace(p, 10, ".");
  return message;
}

}  // namespace posenc::app
