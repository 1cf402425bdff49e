#include "app/controls.h"

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "app/i18n.h"
#include "app/probe.h"
#include "app/text_hook.h"
#include "app/ui_state.h"

namespace posenc::app {
namespace {

std::string probe_name(const char* kind, const Param& p) { return std::string(kind) + "." + p.key; }

ImGuiSliderFlags slider_flags(const Param& p) {
  return ImGuiSliderFlags_AlwaysClamp | (p.opt.log ? ImGuiSliderFlags_Logarithmic : 0);
}

// A declared format in the interface's language; the default one shows the URL key, which stays English.
std::string slider_format(const Param& p, const char* spec) { return p.opt.format ? tr(p.opt.format) : p.key + " = " + spec; }

// Arrow keys this frame as steps: Right/Up +1, Left/Down -1, times 10 with Shift. Keys reach the app only
// while the canvas has the keyboard focus; none while a text field is being edited or an item is held.
int arrow_steps() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive() || io.KeyCtrl || io.KeyAlt || io.KeySuper) return 0;
  auto pressed = [](ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), true); };
  int steps = 0;
  if (pressed(ImGuiKey_RightArrow) || pressed(ImGuiKey_UpArrow)) ++steps;
  if (pressed(ImGuiKey_LeftArrow) || pressed(ImGuiKey_DownArrow)) --steps;
  return io.KeyShift ? 10 * steps : steps;
}

// Right after a declared slider, through its Param like a drag. Returns whether an arrow key changed it.
bool focus_and_step(const Param& p) { return step_param(p, focused_slider_steps(p)); }

bool draw_integer(const Param& p) {
  const std::string format = slider_format(p, "%d");
  int value = *p.i;
  const bool moved = ImGui::SliderInt(("##" + p.key).c_str(), &value, int(p.lo), int(p.hi), format.c_str(), slider_flags(p));
  probe_last_item(probe_name("slider", p).c_str());
  if (focus_and_step(p)) return true;
  if (!moved) return false;
  value = std::clamp(value, int(p.lo), int(p.hi));  // typed text (ctrl+click) is clamped too
  if (p.opt.even && value % 2) value = value - 1 >= p.lo ? value - 1 : value + 1;
  const bool changed = value != *p.i;
  *p.i = value;
  return changed;
}

bool draw_real(const Param& p) {
  const std::string format = slider_format(p, "%.6g");
  const double before = *p.d;
  bool changed =
      ImGui::SliderScalar(("##" + p.key).c_str(), ImGuiDataType_Double, p.d, &p.lo, &p.hi, format.c_str(), slider_flags(p));
  probe_last_item(probe_name("slider", p).c_str());
  // Typed text (ctrl+click) that makes no finite number ("*1e999" of 0 is NaN, which no clamp catches)
  // leaves the value as it was.
  if (!std::isfinite(*p.d)) *p.d = before, changed = false;
  *p.d = std::clamp(*p.d, p.lo, p.hi);
  if (focus_and_step(p)) return true;
  return changed;
}

bool draw_choice(const Param& p) {
  // A declared label in the interface's language; without labels the URL name (translated when the catalogue
  // has it, i18n.h tr_name).
  const auto shown = [&](size_t k) -> std::string { return k < p.opt.labels.size() ? tr(p.opt.labels[k]) : tr_name(p.names[k]); };
  // The ImGui ID of an item stays the same whatever the language.
  const auto item = [&](size_t k) { return shown(k) + "###" + p.names[k]; };
  int index = std::clamp(p.get_index(), 0, int(p.names.size()) - 1);
  bool changed = false;
  switch (p.opt.widget) {
    case ChoiceWidget::Checkbox: {
      bool on = index == 1;
      changed = checkbox_fit(p.label(), &on);
      probe_last_item(probe_name("check", p).c_str());
      index = on ? 1 : 0;
      break;
    }
    case ChoiceWidget::Radio:
      for (size_t k = 0; k < p.names.size(); ++k) {
        changed |= ImGui::RadioButton(item(k).c_str(), &index, int(k));
        probe_last_item((probe_name("combo", p) + "." + p.names[k]).c_str());
      }
      break;
    case ChoiceWidget::Combo:
      if (ImGui::BeginCombo(("##" + p.key).c_str(), shown(size_t(index)).c_str())) {
        for (size_t k = 0; k < p.names.size(); ++k)
          if (ImGui::Selectable(item(k).c_str(), int(k) == index)) changed = int(k) != index, index = int(k);
        ImGui::EndCombo();
      }
      probe_last_item(probe_name("combo", p).c_str());
      break;
  }
  if (changed) p.set_index(index);
  return changed;
}

// Text and Numbers parameters: a text field (a click takes typing); what it cannot take is said at the
// field and in a notice, never dropped.
bool draw_text(const Param& p) {
  UiState& ui = current_ui();
  TextEdit& edit = ui.text_edits[ui.control_scope + "/" + p.key];
  const std::string current = p.text();
  // Not rejected any more once the value moved by other means.
  if (!edit.why.empty() && !edit.active && current != edit.value) edit.why.clear();
  if (!edit.active && edit.why.empty()) edit.text = current;
  bool changed = false;
  {
    const VerbatimText data;  // what the user typed
    if (ImGui::InputText(("##" + p.key).c_str(), &edit.text)) {
      edit.why = p.apply_text(edit.text);
      edit.value = p.text();
      changed = edit.why.empty() && edit.value != current;
    }
  }
  edit.active = ImGui::IsItemActive();
  probe_last_item(probe_name("input", p).c_str());
  if (!edit.why.empty())
    error_text(edit.active ? tr_message(edit.why) : trf("{0:tr}: not applied (the view uses {1})", {edit.why, edit.value}));
  return changed;
}

}  // namespace

Notices field_notices(const std::string& scope) {
  Notices out;
  const std::string prefix = scope + "/";
  for (const auto& [id, edit] : current_ui().text_edits)
    if (!edit.why.empty() && !edit.active && id.rfind(prefix, 0) == 0) {
      const std::string key = id.substr(prefix.size());
      out.push_back({key, key + "=\"" + quote_for_notice(edit.text) + "\" " + edit.why + ": not applied (" + key + " is " +
                              quote_for_notice(edit.value) + ")."});
    }
  return out;
}

namespace {}  // namespace

int focused_slider_steps(const Param& p) {
  // The focused slider: the declared slider last clicked, dragged or entered.
  UiState& ui = current_ui();
  const ImGuiID id = ImGui::GetItemID();
  // Held by the mouse or a finger (ctrl+click included); one activated by ImGui's keyboard navigation
  // is stepped by ImGui itself, and the arrows keep moving the navigation after it.
  if (ImGui::IsItemActive() && ImGui::GetCurrentContext()->ActiveIdSource != ImGuiInputSource_Nav)
    ui.focused_id = id, ui.focused_key = p.key;
  if (ui.focused_id != id || id == 0) return 0;
  const ImVec2 mn = ImGui::GetItemRectMin(), mx = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddRect(ImVec2(mn.x - 1, mn.y - 1), ImVec2(mx.x + 1, mx.y + 1),
                                      ImGui::GetColorU32(ImGuiCol_NavHighlight), ImGui::GetStyle().FrameRounding, 0, 2.0f);
  const int steps = arrow_steps();
  // The arrows step this slider: ImGui's keyboard navigation does not also move away from it.
  if (steps != 0) ImGui::NavMoveRequestCancel();
  return steps;
}

bool step_param(const Param& p, int steps) {
  if (steps == 0) return false;
  switch (p.kind) {
    case ParamKind::Integer: {
      const int v = int(step_value(p, *p.i, steps));
      if (v == *p.i) return false;
      *p.i = v;
      return true;
    }
    case ParamKind::Real: {
      const double v = step_value(p, *p.d, steps);
      if (v == *p.d) return false;
      *p.d = v;
      return true;
    }
    default: return false;
  }
}

void end_controls_frame() {
  // Another item held (a button, a checkbox, a plot...): no slider is focused any more.
  UiState& ui = current_ui();
  const ImGuiID active = ImGui::GetActiveID();
  if (active != 0 && active != ui.focused_id) ui.focused_id = 0, ui.focused_key.clear();
}

const std::string& focused_slider_key() { return current_ui().focused_key; }

void set_controls_columns(bool on) {
  current_ui().columns = on;
  current_ui().first_cell = true;
}

void note_shown_param(const std::string& key) {
  std::vector<std::string>& shown = current_ui().shown_now;
  if (std::find(shown.begin(), shown.end(), key) == shown.end()) shown.push_back(key);
}

bool controls_census() { return current_ui().census; }

const Param& Controls::param(const char* key) const {
  if (const Param* p = list_.find(key)) return note_shown_param(p->key), *p;
  throw std::logic_error(std::string("parameter not declared: ") + key);
}

bool Controls::draw(const char* key) {
  const Param& p = param(key);
  if (controls_census()) return false;
  if (UiState& ui = current_ui(); ui.control_scope = scope_, ui.columns) {
    if (!ui.first_cell) ImGui::TableNextColumn();
    ui.first_cell = false;
  }
  const bool own_label = p.kind == ParamKind::Flag || (p.kind == ParamKind::Choice && p.opt.widget == ChoiceWidget::Checkbox);
  if (!own_label) text_fit(tr(p.label()));
  switch (p.kind) {
    case ParamKind::Integer: return draw_integer(p);
    case ParamKind::Real: return draw_real(p);
    case ParamKind::Choice: return draw_choice(p);
    case ParamKind::Flag: {
      const bool changed = checkbox_fit(p.label(), p.b);
      probe_last_item(probe_name("check", p).c_str());
      return changed;
    }
    case ParamKind::Numbers:
    case ParamKind::Text: return draw_text(p);
  }
  return false;
}

ImVec4 error_color() {
  const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  const bool dark_bg = bg.x + bg.y + bg.z < 1.5f;
  return dark_bg ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.70f, 0.08f, 0.04f, 1.0f);
}

ImVec4 warning_color() {
  const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  const bool dark_bg = bg.x + bg.y + bg.z < 1.5f;
  return dark_bg ? ImVec4(1.0f, 0.75f, 0.3f, 1.0f) : ImVec4(0.58f, 0.27f, 0.0f, 1.0f);
}

std::string ellipsised(const std::string& text, float room) {
  if (ImGui::CalcTextSize(text.c_str()).x <= room) return text;
  static const char* const kEllipsis = "\u2026";
  // The longest prefix (on a UTF-8 character boundary) that fits with the ellipsis.
  size_t lo = 0, hi = text.size();
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (ImGui::CalcTextSize((text.substr(0, mid) + kEllipsis).c_str()).x <= room) lo = mid;
    else hi = mid - 1;
  }
  while (lo > 0 && (static_cast<unsigned char>(text[lo]) & 0xC0) == 0x80) --lo;
  return text.substr(0, lo) + kEllipsis;
}

bool checkbox_fit(const char* label, bool* v) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float room = ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - style.ItemInnerSpacing.x;
  // Shown in the interface's language; the ID is the full English label's whatever is shown ("###"), so
  // state survives a resize and a change of language.
  const std::string text = tr(label);
  const std::string shown = ellipsised(text, room);
  const bool changed = ImGui::Checkbox((shown + "###" + label).c_str(), v);
  if (shown.size() != text.size() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
  return changed;
}

void text_fit(const std::string& text, const ImVec4* color) {
  const std::string shown = ellipsised(text, ImGui::GetContentRegionAvail().x);
  if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
  ImGui::TextUnformatted(shown.c_str());
  if (color) ImGui::PopStyleColor();
  if (shown.size() != text.size() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

ImVec4 good_color() {
  const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  const bool dark_bg = bg.x + bg.y + bg.z < 1.5f;
  return dark_bg ? ImVec4(0.4f, 0.85f, 0.5f, 1.0f) : ImVec4(0.0f, 0.40f, 0.20f, 1.0f);
}

void error_text(const std::string& message) {
  if (message.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, error_color());
  ImGui::TextWrapped("%s", message.c_str());
  ImGui::PopStyleColor();
}

}  // namespace posenc::app
