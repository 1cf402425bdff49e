// Views that take a real model: the Model view, and the RoPE and scores views, whose own declared keys a
// model fills (model=<preset id>, or model=custom for a loaded config.json / GGUF header). A loaded config
// (window.posenc.loadModel, the page's file picker, drop and paste) reaches every such view through
// load_model_bytes (below).
//
// ModelLinkedView follows the Model view's rule: choosing a model fills the view's keys; while they still
// hold what the model filled, the view is the model's (and says what of the model it cannot show, as
// notices naming `model`); once a key is edited, the key wins. The URL carries `model` and every key, so a
// link round-trips (a preset is filled again, then the keys after it are read over it).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/model_keys.h"
#include "app/notices.h"
#include "app/params.h"
#include "app/view.h"
#include "core/models/model_config.h"
#include "core/encodings/rope.h"
#include "core/noncopyable.h"

namespace posenc::app {

// Receives loaded models: the App lists its Model, RoPE and scores views (UiState::model_sinks).
class ModelSink : NonCopyable {
 public:
  ModelSink() = default;
  virtual ~ModelSink() = default;
  virtual void set_loaded_model(const ModelPosition& m) = 0;
  // A second model to show beside the first (the Model view's compare=custom); other views ignore it.
  virtual void set_compare_model(const ModelPosition& /*m*/) {}
  virtual void set_model_load_error(const Notice& n) = 0;
  virtual const char* sink_view_id() const = 0;
  // The view's whole state as a query ("view=<id>&model=custom&...").
  virtual std::string sink_query() const = 0;
};

class ModelLinkedView : public View, public ModelSink {
 public:
  explicit ModelLinkedView(ViewText text) : View(std::move(text)) {}
  void set_loaded_model(const ModelPosition& m) override;
  void set_model_load_error(const Notice& n) override;
  const char* sink_view_id() const override { return id(); }
  std::string sink_query() const override;
  // While the keys hold the model's: what the view cannot show of it. A failed load, while the state is
  // the one it failed in.
  void notes(Notices& out) const override;

 protected:
  // Declares `model` (call it first in params(): the keys declared after it are read over what it fills).
  void declare_model(ParamList& p);
  // Fills the view's keys from a model.
  virtual ModelFill fill_from_model(const ModelPosition& m) = 0;
  // The model's name ("" = none, a preset id, or "custom") and whether the keys still hold what it filled.
  const std::string& model_name() const { return model_; }
  bool model_exact() const;
  const std::optional<ModelPosition>& model_source() const { return source_; }
  // The model combo (none, the presets, custom), the file button and a status line.
  void draw_model_controls();
  // One line for the figure: "llama-3.1-8b: ..." (empty without a model).
  std::string model_caption() const;

 private:
  std::string parse_model(const std::string& s);
  void apply(const ModelPosition& m, const std::string& name);
  std::string filled_text() const;

  std::string model_;
  std::optional<ModelPosition> source_;
  ModelFill fill_;
  std::string snapshot_;
  std::optional<Notice> load_error_;
  std::string load_error_state_;
};

// The label of a preset id, the id itself for anything else ("custom").
std::string model_label(const std::string& id);
// Why model=<id> (or compare=<id>) is not read when `id` is no preset: the nearest preset ids
// (model_io::nearest_model_presets) and the model the view shows instead (`shown`: its id; "" for none).
// The notice names `id` once (its key=value part).
std::string unknown_preset_reason(const std::string& id, const std::string& shown);
// The RoPE of a model's layer types other than full_attention, for a view's note: "sliding_attention:
// base 10000, default; ...".
std::string other_layer_ropes(const ModelPosition& m);

// The page can open a file picker (the web build): the views that take models show a "Load config.json /
// GGUF" button; pressing it is taken once by the app (AppAction::OpenModelFile).
void set_model_file_picker(bool available);
// The desktop window takes a dropped config.json / .gguf (SDL's drop-file event): the views say so.
void set_model_file_drop(bool available);
// A model file that could not be read (the platform's own error, e.g. it cannot open it): the views that
// take models note it as a failed load; returns the state query to load (as load_model_bytes).
std::string model_load_failed(const Notice& error, const std::string& view);
bool take_model_file_request();
// The Model view's "Load second model" button: pressing it is taken once by the app
// (AppAction::OpenCompareFile); the page then loads the file with view "compare" (load_model_bytes).
bool take_compare_file_request();
void draw_compare_file_button();
// The button, or (without a picker) how to load a config.
void draw_model_file_button();

// A config.json text or GGUF header (window.posenc.loadModel, the page's file picker, drop and paste)
// loaded into every view that takes models (Model, RoPE, scores): on success model=custom
// with the view's keys filled; otherwise each shows the error as a notice naming the key path. Returns the
// state query of `view` when it takes models, else the Model view's, for the page to load. `prefix`: the
// bytes are the start of a larger file, and a GGUF header that goes on past them returns "" (read more).
// `view` "compare": the Model view's second model (compare=custom).
std::string load_model_bytes(const unsigned char* data, std::size_t size, const std::string& view = "model", bool prefix = false);

}  // namespace posenc::app
