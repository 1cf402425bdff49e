// The current view's declared parameters as data for a form outside the canvas (the page's HTML form,
// web/param-form.js): the same declaration that drives the URL and the ImGui controls (params.h).
#pragma once

#include <string>
#include <vector>

#include "app/notices.h"
#include "app/params.h"

namespace posenc::app {

// JSON {view, title, heading ("<title> parameters"), words {exact (", exact value": the exact field's label
// after the parameter's), on, off, empty (how the status region says a flag or an empty text)}, shown,
// params: [...]}, its words in the interface's language: one entry per declared parameter in declaration order,
// {key, label, kind (integer|real|choice|flag|numbers|text), value (its URL text), shown (the current
// state's controls show it: it matters for the current scheme), help, notice (what a notice for this key
// says, "" when none)} and by kind: integer/real {min, max, step, log, steps} (integer: even; a
// logarithmic real's step is a factor; steps: {"1", "-1", "10", "-10", "100", "-100"} -> the value that
// many arrow-key steps away, params.h step_value), choice {choices: [{name, label}], widget (combo|radio|checkbox)},
// numbers {count, min, max}. `shown_keys` empty: every parameter is shown. `lang` (the app's lang value)
// adds the language switch after them: a choice keyed lang, en (English) or zh (中文).
std::string param_form_json(const std::string& view, const std::string& title, const ParamList& list,
                            const std::vector<std::string>& shown_keys, const Notices& notices, bool controls_shown,
                            const char* lang = nullptr);

// The step a form's range control takes for `p` (Integer: 1, or 2 when even; Real: the power of ten at or
// below 1/100 of the range, or for a logarithmic slider the factor (hi/lo)^(1/100)); 0 for other kinds.
double form_step(const Param& p);

}  // namespace posenc::app
