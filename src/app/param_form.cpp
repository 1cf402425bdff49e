#include "app/param_form.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "app/i18n.h"

namespace posenc::app {

double form_step(const Param& p) {
  switch (p.kind) {
    case ParamKind::Integer: return p.opt.even ? 2.0 : 1.0;
    case ParamKind::Real:
      if (p.opt.log && p.lo > 0) return std::pow(p.hi / p.lo, 0.01);
      if (p.hi > p.lo) return std::pow(10.0, std::floor(std::log10((p.hi - p.lo) / 100.0)));
      return 0.0;
    default: return 0.0;
  }
}

std::string param_form_json(const std::string& view, const std::string& title, const ParamList& list,
                            const std::vector<std::string>& shown_keys, const Notices& notices, bool controls_shown,
                            const char* lang) {
  nlohmann::json out;
  out["view"] = view;
  out["title"] = title;
  // The form's own words, in the interface's language (the page adds none of its own).
  out["heading"] = trf("{0} parameters", {title});
  out["words"] = {{"exact", tr(", exact value")}, {"on", tr("on")}, {"off", tr("off")}, {"empty", tr("(empty)")}};
  out["controls"] = controls_shown;
  nlohmann::json params = nlohmann::json::array();
  for (const Param& p : list.items()) {
    nlohmann::json e;
    e["key"] = p.key;
    e["label"] = tr(p.label());
    e["kind"] = name_of(p.kind);
    // A long value (a factor list) is sent whole: the form's text field holds exactly what the URL holds.
    e["value"] = p.text();
    e["shown"] = shown_keys.empty() || std::find(shown_keys.begin(), shown_keys.end(), p.key) != shown_keys.end();
    e["help"] = p.opt.help ? tr(p.opt.help) : "";
    std::string notice;
    for (const Notice& n : notices)
      if (n.key == p.key) notice += (notice.empty() ? "" : " ") + n.message;
    e["notice"] = notice;
    switch (p.kind) {
      case ParamKind::Integer:
      case ParamKind::Real:
        e["min"] = p.lo;
        e["max"] = p.hi;
        e["step"] = form_step(p);
        {
          // The values 1, 10 and 100 arrow-key steps away, both ways (the app's one step rule, step_value):
          // the form's arrows, Page Up/Down and Shift with them.
          const double v = p.kind == ParamKind::Integer ? double(*p.i) : *p.d;
          nlohmann::json steps;
          for (int n : {1, 10, 100}) {
            steps[std::to_string(n)] = step_value(p, v, n);
            steps[std::to_string(-n)] = step_value(p, v, -n);
          }
          e["steps"] = steps;
        }
        e["log"] = p.opt.log && p.lo > 0;
        if (p.kind == ParamKind::Integer) e["even"] = p.opt.even;
        break;
      case ParamKind::Choice: {
        nlohmann::json choices = nlohmann::json::array();
        for (size_t k = 0; k < p.names.size(); ++k)
          choices.push_back(
              {{"name", p.names[k]}, {"label", k < p.opt.labels.size() ? tr(p.opt.labels[k]) : tr_name(p.names[k])}});
        e["choices"] = choices;
        e["widget"] = name_of(p.opt.widget);
        break;
      }
      case ParamKind::Text:
        e["multiline"] = p.opt.multiline;
        if (p.opt.selects.key) e["selects"] = {{p.opt.selects.key, p.opt.selects.value}};
        break;
      case ParamKind::Numbers:
        e["count"] = p.count;
        e["min"] = p.lo;
        e["max"] = p.hi;
        break;
      default: break;
    }
    params.push_back(e);
  }
  // The language switch (the app-level key lang), after the view's own parameters.
  if (lang) {
    nlohmann::json choices = nlohmann::json::array();
    for (const LanguageRow& row : kLanguages) choices.push_back({{"name", row.code}, {"label", row.name}});
    params.push_back({{"key", "lang"},
                      {"label", tr(kLanguageLabel)},
                      {"kind", "choice"},
                      {"value", lang},
                      {"shown", true},
                      {"help", tr("the interface's language")},
                      {"notice", ""},
                      {"choices", choices},
                      {"widget", "combo"}});
  }
  out["params"] = params;
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace posenc::app
