// The catalogues and the translate functions (app/i18n.h).
#include "app/i18n.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/ui_state.h"
#include "core/unicode_text.h"

namespace posenc::app {
namespace {

// A key cut into literal text and placeholders: {N} / {N:tr} (index, translate) and, read as a printf
// format, conversions such as %d or %.3g (index -1: they match any text but are never filled).
struct Segment {
  std::string literal;  // the text, when not a placeholder
  bool placeholder = false;
  int index = -1;
  bool translate = false;
};
struct Template {
  std::string key;
  std::vector<Segment> segments;
  size_t literal_size = 0;  // the more literal text, the more specific: it wins over a looser match
};

// "{N}" or "{N:tr}" at text[i]; returns its length (0 when not one).
size_t brace_placeholder(std::string_view text, size_t i, int& index, bool& translate) {
  if (text[i] != '{' || i + 2 >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i + 1]))) return 0;
  index = text[i + 1] - '0';
  if (text[i + 2] == '}') return translate = false, 3;
  if (text.substr(i + 2, 4) == ":tr}") return translate = true, 6;
  return 0;
}

// A printf conversion at text[i] ("%d", "%.3g", "%-8s", "%lld"); returns its length (0 when not one).
size_t printf_conversion(std::string_view text, size_t i) {
  if (text[i] != '%') return 0;
  size_t k = i + 1;
  while (k < text.size() && std::string_view("-+ #0").find(text[k]) != std::string_view::npos) ++k;
  while (k < text.size() && (std::isdigit(static_cast<unsigned char>(text[k])) || text[k] == '*')) ++k;
  if (k < text.size() && text[k] == '.') {
    ++k;
    while (k < text.size() && (std::isdigit(static_cast<unsigned char>(text[k])) || text[k] == '*')) ++k;
  }
  while (k < text.size() && std::string_view("hlLzjt").find(text[k]) != std::string_view::npos) ++k;
  if (k < text.size() && std::string_view("diouxXeEfFgGaAcsp").find(text[k]) != std::string_view::npos) return k + 1 - i;
  return 0;
}

// The key's segments; `printf`: read %-conversions as placeholders and "%%" as "%". Null when the key
// has no placeholder (an exact entry only).
std::unique_ptr<Template> parse_template(const std::string& key, bool printf) {
  auto t = std::make_unique<Template>();
  t->key = key;
  bool any = false;
  std::string literal;
  auto flush = [&] {
    if (literal.empty()) return;
    t->literal_size += literal.size();
    t->segments.push_back({std::move(literal)});
    literal.clear();
  };
  for (size_t i = 0; i < key.size();) {
    int index = -1;
    bool translate = false;
    if (const size_t n = brace_placeholder(key, i, index, translate)) {
      flush();
      t->segments.push_back({"", true, index, translate});
      any = true;
      i += n;
    } else if (printf && key.compare(i, 2, "%%") == 0) {
      literal += '%';
      i += 2;
    } else if (const size_t m = printf ? printf_conversion(key, i) : 0) {
      flush();
      t->segments.push_back({"", true, -1, false});
      any = true;
      i += m;
    } else {
      literal += key[i++];
    }
  }
  flush();
  // A key of placeholders alone ("%d") matches any text: an exact entry only.
  return any && t->literal_size > 0 ? std::move(t) : nullptr;
}

// Whether text[ti..] matches segments[si..], recording the captures of numbered placeholders. `prefix`:
// the text may end anywhere inside the pattern. A placeholder may capture nothing (a printf "%s" of "").
bool match_from(const std::vector<Segment>& segs, size_t si, std::string_view text, size_t ti, bool prefix,
                std::array<std::string_view, 10>& caps) {
  if (si == segs.size()) return ti == text.size();
  if (prefix && ti == text.size()) return true;
  const Segment& seg = segs[si];
  const std::string_view rest = text.substr(ti);
  if (!seg.placeholder) {
    if (rest.substr(0, seg.literal.size()) == seg.literal)
      return match_from(segs, si + 1, text, ti + seg.literal.size(), prefix, caps);
    return prefix && rest.size() < seg.literal.size() && seg.literal.compare(0, rest.size(), rest) == 0;
  }
  auto capture = [&](size_t end) {
    if (seg.index >= 0 && seg.index < 10) caps[size_t(seg.index)] = text.substr(ti, end - ti);
  };
  if (si + 1 == segs.size()) {
    capture(text.size());
    return true;
  }
  const Segment& next = segs[si + 1];
  if (next.placeholder) {  // two placeholders side by side: the first takes one byte at a time
    for (size_t end = ti; end <= text.size(); ++end)
      if (match_from(segs, si + 1, text, end, prefix, caps)) return capture(end), true;
    return false;
  }
  for (size_t at = text.find(next.literal, ti); at != std::string_view::npos; at = text.find(next.literal, at + 1))
    if (match_from(segs, si + 1, text, at, prefix, caps)) return capture(at), true;
  // The text ends inside this placeholder or inside the literal after it.
  return prefix && rest.size() >= 1;
}

struct Catalogue {
  bool loaded = false;
  std::map<std::string, std::string, std::less<>> entries;
  std::vector<std::unique_ptr<Template>> templates;         // keys with {N} placeholders (tr_message)
  std::vector<std::unique_ptr<Template>> printf_templates;  // every key with a placeholder or conversion
  std::vector<std::unique_ptr<Template>> text_templates;    // the same of the translated texts (checks)
  std::map<std::string, std::string, std::less<>> message_cache;
  std::set<char32_t> code_points;  // of the translated texts
};

Catalogue& catalogue(Lang lang) {
  static std::array<Catalogue, 2> catalogues;
  return catalogues[size_t(lang)];
}

// Catalogues replaced by a reload stay alive: a text returned by tr() may still be held in this frame.
std::vector<std::unique_ptr<Catalogue>>& retired() {
  static std::vector<std::unique_ptr<Catalogue>> list;
  return list;
}

std::set<std::string>& missing() {
  static std::set<std::string> keys;
  return keys;
}

// The catalogue entry for `en` in `lang`; null for English, an unloaded catalogue or a missing key (then
// recorded).
const std::string* lookup(Lang lang, std::string_view en) {
  if (lang == Lang::En || en.empty()) return nullptr;
  Catalogue& c = catalogue(lang);
  if (!c.loaded) return nullptr;
  if (auto it = c.entries.find(en); it != c.entries.end()) return &it->second;
  missing().insert(std::string(en));
  return nullptr;
}

std::string fill(Lang lang, const std::string& pattern, const std::array<std::string_view, 10>& args, size_t count) {
  std::string out;
  for (size_t i = 0; i < pattern.size();) {
    int index = -1;
    bool translate = false;
    if (const size_t n = brace_placeholder(pattern, i, index, translate); n && size_t(index) < count) {
      const std::string arg(args[size_t(index)]);
      out += translate ? tr_message_in(lang, arg) : arg;
      i += n;
    } else {
      out += pattern[i++];
    }
  }
  return out;
}

}  // namespace

const char* lang_code(Lang lang) {
  for (const LanguageRow& row : kLanguages)
    if (row.lang == lang) return row.code;
  return kLanguages[0].code;
}

std::optional<Lang> lang_from_code(std::string_view code) {
  for (const LanguageRow& row : kLanguages)
    if (code == row.code) return row.lang;
  return std::nullopt;
}

std::string lang_codes_text() {
  std::string out;
  const size_t n = std::size(kLanguages);
  for (size_t i = 0; i < n; ++i) out += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kLanguages[i].code;
  return out;
}

Lang ui_lang() { return current_ui().lang; }
void set_ui_lang(Lang lang) { current_ui().lang = lang; }

std::string load_catalogue(Lang lang, std::string_view json) {
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, false);
  if (!doc.is_object()) return "the catalogue is not a JSON object";
  auto next = std::make_unique<Catalogue>();
  for (const auto& [key, value] : doc.items()) {
    if (!value.is_string()) return "the catalogue's entry \"" + key + "\" is not a string";
    next->entries.emplace(key, value.get<std::string>());
    if (auto t = parse_template(key, false)) next->templates.push_back(std::move(t));
    if (auto t = parse_template(key, true)) next->printf_templates.push_back(std::move(t));
    if (auto t = parse_template(value.get<std::string>(), true)) {
      t->key = key;  // the entry's key, for what matched
      next->text_templates.push_back(std::move(t));
    }
    for (char32_t c : utf8_code_points(value.get<std::string>())) next->code_points.insert(c);
  }
  next->loaded = true;
  auto old = std::make_unique<Catalogue>(std::move(catalogue(lang)));
  if (old->loaded) retired().push_back(std::move(old));
  catalogue(lang) = std::move(*next);
  return {};
}

bool catalogue_loaded(Lang lang) { return lang == Lang::En || catalogue(lang).loaded; }

const std::set<char32_t>& catalogue_code_points(Lang lang) { return catalogue(lang).code_points; }

const char* tr(const char* en) {
  const std::string* t = lookup(ui_lang(), en);
  return t ? t->c_str() : en;
}

std::string tr(const std::string& en) { return tr_in(ui_lang(), en); }

const char* tr_name(const char* name) {
  const Lang lang = ui_lang();
  if (lang == Lang::En || !catalogue(lang).loaded) return name;
  const auto& entries = catalogue(lang).entries;
  auto it = entries.find(std::string_view(name));
  return it == entries.end() ? name : it->second.c_str();
}

std::string tr_in(Lang lang, const std::string& en) {
  const std::string* t = lookup(lang, en);
  return t ? *t : en;
}

std::string tr_id(const char* en) {
  std::string_view visible(en);
  if (const size_t hash = visible.find("##"); hash != std::string_view::npos) visible = visible.substr(0, hash);
  return tr(std::string(visible)) + "###" + en;
}

std::string trf(const char* en, std::initializer_list<std::string_view> args) {
  std::array<std::string_view, 10> a{};
  size_t n = 0;
  for (std::string_view s : args)
    if (n < a.size()) a[n++] = s;
  return fill(ui_lang(), tr(std::string(en)), a, n);
}

std::string tr_message(const std::string& en) { return tr_message_in(ui_lang(), en); }

std::string tr_message_in(Lang lang, const std::string& en) {
  if (lang == Lang::En || en.empty()) return en;
  Catalogue& c = catalogue(lang);
  if (!c.loaded) return en;
  if (auto it = c.entries.find(en); it != c.entries.end()) return it->second;
  if (auto it = c.message_cache.find(en); it != c.message_cache.end()) return it->second;
  const Template* best = nullptr;
  std::array<std::string_view, 10> caps{}, best_caps{};
  for (const auto& t : c.templates) {
    if (best && t->literal_size <= best->literal_size) continue;
    caps = {};
    if (match_from(t->segments, 0, en, 0, false, caps)) best = t.get(), best_caps = caps;
  }
  std::string out = en;
  if (best) out = fill(lang, c.entries.at(best->key), best_caps, best_caps.size());
  else missing().insert(en);
  if (c.message_cache.size() > 4096) c.message_cache.clear();
  c.message_cache.emplace(en, out);
  return out;
}

const std::set<std::string>& missing_keys() { return missing(); }
void clear_missing_keys() { missing().clear(); }

CatalogueMatch match_catalogue_text(Lang lang, std::string_view text, bool prefix, std::string* key) {
  std::array<std::string_view, 10> caps{};
  auto exact = [&](std::string_view candidate) { return prefix ? candidate.substr(0, text.size()) == text : candidate == text; };
  auto found = [&](const std::string& k, CatalogueMatch m) {
    if (key) *key = k;
    return m;
  };
  // English keys: the English catalogue's when loaded, else the other language's keys.
  const Catalogue& en = catalogue(Lang::En).loaded ? catalogue(Lang::En) : catalogue(lang);
  for (const auto& entry : en.entries)
    if (exact(entry.first)) return found(entry.first, CatalogueMatch::English);
  // A cut text (prefix) is looked for among the exact entries only: a template's placeholder would take
  // any beginning.
  if (!prefix)
    for (const auto& t : en.printf_templates)
      if (match_from(t->segments, 0, text, 0, false, caps)) return found(t->key, CatalogueMatch::English);
  if (lang == Lang::En) return CatalogueMatch::None;
  const Catalogue& c = catalogue(lang);
  for (const auto& entry : c.entries)
    if (exact(entry.second)) return found(entry.first, CatalogueMatch::Translated);
  if (!prefix)
    for (const auto& t : c.text_templates)
      if (match_from(t->segments, 0, text, 0, false, caps)) return found(t->key, CatalogueMatch::Translated);
  return CatalogueMatch::None;
}

}  // namespace posenc::app
