// The URL state of the app: what App reads from and writes to the query string (app/url_state.h).
#include "app/url_state.h"

#include <memory>
#include <optional>

#include "app/app.h"
#include "app/state_params.h"
#include "app/views/views.h"

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
  else notices.push_back({"lang", "lang=\"" + quote_for_notice(value) + "\" is not en or zh: ignored."});
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
    if (it->first.size() > App::kMaxValueBytes || it->second.size() > App::kMaxValueBytes) {
      notices.push_back({key, key + "=\"" + quote_for_notice(it->second) + "\" is longer than " +
                                  std::to_string(App::kMaxValueBytes >> 10) + " KiB: ignored."});
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

std::string App::state_query() const {
  StateMap state;
  state["view"] = current_->id();
  current_->save_state(state);
  if (keys_.embed) state["embed"] = "1";
  for (const auto& [key, value] : keys_.set_keys()) state[key] = value;
  return to_query(state);
}

void App::load_state_query(const std::string& query) {
  notices_.clear();
  time_next_update_ = true;
  // The view the query shows (its own, else the current one) says which keys are multi-line text.
  const StateMap raw = parse_query(query);
  const View* target = current_;
  if (auto it = raw.find("view"); it != raw.end())
    if (View* v = find_view(it->second)) target = v;
  const ParamList target_params = target->param_list();
  StateMap in = parse_clean_query(query, notices_, [&](const std::string& key) {
    const Param* p = target_params.find(key);
    return p && p->kind == ParamKind::Text && p->opt.multiline;
  });
  if (auto it = in.find("view"); it != in.end()) {
    if (View* v = find_view(it->second)) {
      if (v != current_) keys_.figure.clear();
      current_ = v;
    } else {
      notices_.push_back({"view", "view=\"" + quote_for_notice(it->second) + "\" is not a view: ignored."});
    }
    in.erase(it);
  }
  // App-level keys, declared once (flags follow the views' flag rule: 0/1 or false/true).
  ParamList app_list;
  app_params(app_list);
  // figure= names a plot of the view as its parameters make it (the scores view's terms depend on the
  // scheme): read after the view's own keys.
  std::optional<std::string> figure_value;
  if (auto it = in.find("figure"); it != in.end()) figure_value = it->second, in.erase(it);
  for (const Param& p : app_list.items())
    if (auto it = in.find(p.key); it != in.end()) {
      p.read(it->second, notices_);
      in.erase(it);
    }
  if (auto it = in.find("theme"); it != in.end()) {
    keys_.read_theme(it->second, notices_);
    in.erase(it);
  }
  if (auto it = in.find("lang"); it != in.end()) {
    keys_.read_lang(it->second, notices_);
    in.erase(it);
  }
  ui_.lang = keys_.lang;
  // Another preset model starts from a fresh view: no key of the previous model stays, so the state is
  // exactly what a fresh ?model=<id> gives. (custom keeps the loaded config it names; none keeps the keys.)
  if (auto it = in.find("model"); it != in.end() && !it->second.empty() && it->second != "none" && it->second != "custom") {
    const ParamList declared = current_->param_list();
    if (const Param* model = declared.find("model"); model && model->text() != it->second) replace_current_view();
  }
  // Keys no view parameter claims are reported, not silently dropped.
  const ParamList known = current_->param_list();
  for (const auto& [key, value] : in)
    if (!known.find(key))
      notices_.push_back({quote_for_notice(key), "unknown parameter \"" + quote_for_notice(key) + "\": ignored."});
  current_->load_state(in, notices_);
  if (figure_value) {
    current_->prepare();
    for (const Param& p : app_list.items())
      if (p.key == "figure") p.read(*figure_value, notices_);
  }
}

void App::app_params(ParamList& list) {
  list.flag("embed", keys_.embed, {.label = "embed: only the view"});
  list.text(
      "controls",
      [this](const std::string& s) -> std::string {
        if (s == "1" || s == "true") keys_.controls = ControlsMode::Shown;
        else if (s == "0" || s == "false") keys_.controls = ControlsMode::Hidden;
        else if (s == "compact") keys_.controls = ControlsMode::Compact;
        else return "is not 0, 1 or compact";
        return {};
      },
      [this] { return keys_.controls == ControlsMode::Hidden    ? "0"
                      : keys_.controls == ControlsMode::Compact ? "compact"
                                                                : "1"; },
      {.label = "controls: 0, 1 or compact"});
  list.text(
      "figure",
      [this](const std::string& s) -> std::string {
        if (s.empty()) {
          keys_.figure.clear();
          return {};
        }
        std::string names;
        for (const std::string& f : current_->figures()) {
          if (f == s) {
            keys_.figure = s;
            return {};
          }
          names += (names.empty() ? "" : ", ") + f;
        }
        return std::string("is not a figure of the ") + current_->id() + " view (" + names + ")";
      },
      [this] { return keys_.figure; }, {.label = "figure: one plot alone"});
}

bool App::load_state_query_strict(const std::string& query, std::string& field, std::string& message) {
  load_state_query(query);
  Notices all = notices_;
  current_->prepare();
  if (current_->error()) all.push_back(*current_->error());
  if (all.empty()) return true;
  field = all.front().key;
  message = strict_message(all);
  return false;
}

std::string App::embed_query() const {
  std::string out = short_view_query() + "&embed=1";
  for (const auto& [key, value] : keys_.set_keys()) out += "&" + to_query({{key, value}});
  return out;
}

std::string App::link_query() const {
  std::string out = short_view_query();
  for (const auto& [key, value] : keys_.set_keys()) out += "&" + to_query({{key, value}});
  return out;
}

std::string App::short_view_query() const {
  StateMap full;
  current_->save_state(full);
  // In reading (declaration) order, a key is needed when a fresh view that read the keys needed before
  // it does not hold its value already: a default value is left out, and so is a value another key
  // fills (a model preset fills the positional keys; a range depends on a key read before it).
  auto fresh_state = [this](const StateMap& keys) {
    const std::unique_ptr<View> fresh = make_view(current_->id());
    Notices ignored;
    fresh->load_state(keys, ignored);
    StateMap out;
    fresh->save_state(out);
    return out;
  };
  const ParamList list = current_->param_list();
  StateMap chosen;
  for (const Param& p : list.items())
    if (fresh_state(chosen)[p.key] != full[p.key]) chosen[p.key] = full[p.key];
  // A key that a later one moves back (none does today) would be lost: then keep every differing key.
  if (fresh_state(chosen) != full)
    for (const auto& [key, value] : fresh_state({}))
      if (value != full[key]) chosen[key] = full[key];
  // view first, then the view's keys in declaration order.
  std::string out = to_query({{"view", current_->id()}});
  for (const Param& p : list.items())
    if (auto it = chosen.find(p.key); it != chosen.end()) out += "&" + to_query({{it->first, it->second}});
  return out;
}

}  // namespace posenc::app
