#include "app/model_link.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <span>

#include "app/controls.h"
#include "app/file_limits.h"
#include "app/i18n.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "app/text_hook.h"
#include "app/ui_state.h"
#include "core/models/gguf.h"
#include "model_io/config_json.h"
#include "model_io/presets.h"
#include "model_io/weights_session.h"

namespace posenc::app {
namespace {

constexpr const char* kCustom = "custom";

}  // namespace

void set_model_file_picker(bool available) { current_ui().file_picker = available; }
void set_model_file_drop(bool available) { current_ui().file_drop = available; }
bool take_model_file_request() {
  const bool r = current_ui().file_requested;
  current_ui().file_requested = false;
  return r;
}

bool take_compare_file_request() {
  const bool r = current_ui().compare_file_requested;
  current_ui().compare_file_requested = false;
  return r;
}

void draw_compare_file_button() {
  if (!current_ui().file_picker) return;  // without a picker, a second model is a preset (the combo above)
  if (ImGui::Button(tr_id("Load second model").c_str())) current_ui().compare_file_requested = true;
  probe_last_item("button.load_compare");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", tr("A config.json or .gguf to show beside the model (a link cannot carry it)."));
}

void draw_model_file_button() {
  if (!current_ui().file_picker) {
    // What loads a config on this platform (the desktop window takes a dropped file; a headless render
    // has no file at all), in full: wrapped, never cut.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", tr(current_ui().file_drop ? "Drop a config.json or .gguf on this window to load it (or start "
                                                         "with posenc-app --model FILE)."
                                                       : "A config.json or .gguf loads in the app (posenc-app --model FILE, "
                                                         "or the web page's Load button)."));
    ImGui::PopStyleColor();
    probe_last_item("text.load_model");
    return;
  }
  if (ImGui::Button(tr_id("Load config.json / GGUF").c_str())) current_ui().file_requested = true;
  probe_last_item("button.load_model");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", tr("A config.json or a .gguf file (only its header is read). Dropping a file on the page or "
                               "pasting config.json text works too."));
}

namespace {
// Every view that takes models gets the model (or the error); returns the state query the platform loads:
// `view` if it takes models, else the Model view.
std::string send_to_sinks(const ModelPosition* m, const std::optional<Notice>& error, const std::string& view) {
  const ModelSink* shown = nullptr;
  if (view == "compare") {  // the Model view's second model
    for (ModelSink* s : current_ui().model_sinks)
      if (std::strcmp(s->sink_view_id(), "model") == 0) {
        if (error) s->set_model_load_error(*error);
        else s->set_compare_model(*m);
        return s->sink_query();
      }
    return "view=model";
  }
  for (ModelSink* s : current_ui().model_sinks) {
    if (error) s->set_model_load_error(*error);
    else s->set_loaded_model(*m);
    if (view == s->sink_view_id() || (!shown && std::strcmp(s->sink_view_id(), "model") == 0)) shown = s;
  }
  return shown ? shown->sink_query() : std::string("view=model");
}
}  // namespace

std::string model_load_failed(const Notice& error, const std::string& view) { return send_to_sinks(nullptr, error, view); }

std::string load_model_bytes(const unsigned char* data, std::size_t size, const std::string& view, bool prefix) {
  ModelPosition m;
  std::optional<Notice> error;
  try {
    if (!data && size > 0)
      throw InvalidArgument("", "the file is " + std::to_string(size) + " bytes; the limit is " +
                                    limit_bytes_text(model_io::kMaxGgufHeaderBytes) + " for a GGUF header, " +
                                    limit_bytes_text(model_io::kMaxConfigBytes) + " for config.json");
    const std::span<const uint8_t> bytes(data, size);
    if (size >= 4 && std::memcmp(data, "GGUF", 4) == 0) {
      if (size > model_io::kMaxGgufHeaderBytes)
        throw InvalidArgument("gguf", "the GGUF metadata is larger than " + limit_bytes_text(model_io::kMaxGgufHeaderBytes));
      try {
        m = read_gguf_model(read_gguf_header(bytes));
      } catch (const GgufTruncated&) {
        if (prefix) return "";  // the header goes on past these bytes: the page reads a longer prefix
        throw;
      }
    } else {
      m = read_hf_config(model_io::parse_config_text(std::string_view(reinterpret_cast<const char*>(data), size)));
    }
  } catch (const InvalidArgument& e) {
    const std::string key = e.field().empty() ? "model" : e.field();
    error = Notice{key, std::string("loading the model: ") + e.what()};
  } catch (const std::exception& e) { error = Notice{"model", std::string("loading the model: ") + e.what()}; }
  return send_to_sinks(&m, error, view);
}

std::string other_layer_ropes(const ModelPosition& m) {
  std::string others;
  for (const auto& [type, lr] : m.layers)
    if (type != "full_attention")
      others += (others.empty() ? "" : "; ") + type + ": base " + format_number(lr.base) + ", " + rope_type_name(lr.scaling.type);
  return others;
}

std::string model_label(const std::string& id) {
  if (const auto* p = model_io::find_model_preset(id)) return p->label;
  return id;
}

std::string unknown_preset_reason(const std::string& id, const std::string& shown) {
  std::string nearest;
  for (const std::string& n : model_io::nearest_model_presets(id)) nearest += (nearest.empty() ? "" : ", ") + n;
  const std::string label =
      shown.empty() || !model_io::find_model_preset(shown) ? shown : model_label(shown) + " (" + shown + ")";
  if (nearest.empty())
    return label.empty() ? "is not a preset (docs/models.md lists them; showing none)"
                         : "is not a preset (docs/models.md lists them; showing " + label + ")";
  return label.empty() ? "is not a preset (nearest: " + nearest + "; showing none)"
                       : "is not a preset (nearest: " + nearest + "; showing " + label + ")";
}

// ---------------------------------------------------------------- ModelLinkedView

void ModelLinkedView::declare_model(ParamList& p) {
  p.text(
      "model", [this](const std::string& s) { return parse_model(s); }, [this] { return model_; },
      {.label = "Model",
       .help = "empty (none), a preset id (docs/models.md) or custom (a loaded config.json / GGUF): "
               "fills the keys below"});
}

std::string ModelLinkedView::parse_model(const std::string& s) {
  if (s.empty() || s == "none") {
    model_.clear();
    source_.reset();
    fill_ = {};
    return "";
  }
  if (s == kCustom) {
    // A loaded config's keys travel in the URL; without the config itself the keys are all there is.
    if (model_ != kCustom) source_.reset(), fill_ = {};
    model_ = kCustom;
    return "";
  }
  if (!model_io::find_model_preset(s)) return unknown_preset_reason(s, model_);
  if (s == model_ && model_exact()) return "";
  try {
    apply(read_hf_config(model_io::preset_config(s)), s);
  } catch (const InvalidArgument& e) { return std::string("preset \"") + s + "\" cannot be read: " + e.what(); }
  return "";
}

void ModelLinkedView::apply(const ModelPosition& m, const std::string& name) {
  fill_ = fill_from_model(m);
  for (Notice& n : fill_.gaps) n.message = "model=" + name + ": " + n.message;
  model_ = name;
  source_ = m;
  snapshot_ = filled_text();
}

void ModelLinkedView::set_loaded_model(const ModelPosition& m) {
  load_error_.reset();
  apply(m, kCustom);
  invalidate();
}

// A failed load changes nothing (the model shown stays, labelled as it was): a note while the state is
// the one it failed in.
void ModelLinkedView::set_model_load_error(const Notice& n) {
  load_error_ = n;
  StateMap s;
  save_state(s);
  load_error_state_ = to_query(s);
}

std::string ModelLinkedView::sink_query() const {
  StateMap s;
  s["view"] = id();
  save_state(s);
  return to_query(s);
}

std::string ModelLinkedView::filled_text() const {
  std::string out;
  const ParamList list = param_list();
  for (const std::string& key : fill_.keys)
    if (const Param* p = list.find(key)) out += key + '=' + p->text() + '&';
  return out;
}

bool ModelLinkedView::model_exact() const { return source_ && !model_.empty() && snapshot_ == filled_text(); }

void ModelLinkedView::notes(Notices& out) const {
  if (load_error_) {
    StateMap s;
    save_state(s);
    if (to_query(s) == load_error_state_) out.push_back(*load_error_);
  }
  if (model_exact())
    for (const Notice& n : fill_.gaps) out.push_back(n);
}

std::string ModelLinkedView::model_caption() const {
  if (model_.empty()) return "";
  const std::string label = model_ == kCustom ? std::string("custom (a loaded config.json / GGUF)") : model_label(model_);
  if (model_exact()) return "Model " + label + ": the keys hold its values.";
  if (source_) return "Model " + label + ", edited: computed from the keys.";
  return "Model " + label + ": computed from the keys.";
}

void ModelLinkedView::draw_model_controls() {
  note_shown_param("model");
  ImGui::TextUnformatted(tr("Model (fills the keys below)"));
  const std::string shown = model_.empty() ? tr("none") : model_label(model_);
  // A model's name is data (its published label), not interface text.
  const VerbatimText name(!model_.empty());
  if (ImGui::BeginCombo("##model", shown.c_str())) {
    if (ImGui::Selectable(tr_id("none").c_str(), model_.empty())) parse_model(""), load_error_.reset();
    {
      const VerbatimText labels;
      for (const auto& preset : model_io::model_presets())
        if (ImGui::Selectable(preset.label.c_str(), model_ == preset.id))
          parse_model(preset.id), load_error_.reset();  // again: refills edited keys
    }
    if (source_ && model_ == kCustom && ImGui::Selectable(tr_id("custom (loaded)").c_str(), true))
      apply(*source_, kCustom), load_error_.reset();
    ImGui::EndCombo();
  }
  probe_last_item("combo.model");
  draw_model_file_button();
  if (!model_.empty()) {
    if (model_exact()) ImGui::TextDisabled("%s", tr("keys filled from the model"));
    else if (source_) ImGui::TextDisabled("%s", tr("edited: computed from the keys"));
  }
  ImGui::Separator();
}

}  // namespace posenc::app
