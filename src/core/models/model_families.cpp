#include "core/models/model_families.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/number_text.h"
#include "posenc_model_families.h"

namespace posenc {
namespace {

std::vector<std::string> split_commas(const char* text) {
  std::vector<std::string> out;
  std::string item;
  for (const char* c = text; *c; ++c) {
    if (*c == ',') {
      out.push_back(item);
      item.clear();
    } else {
      item += *c;
    }
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

template <class Enum>
Enum named(const char* name, const char* field, const generated::FamilyRow& row) {
  if (const auto e = from_name<Enum>(name)) return *e;
  throw std::logic_error(std::string("data/model_families.json: family '") + row.family + "': " + field + " '" + name +
                         "' is not one of posenc's names");
}

ModelFamily read_row(const generated::FamilyRow& row) {
  ModelFamily f;
  f.family = row.family;
  f.model_types = split_commas(row.model_types);
  f.gguf_archs = split_commas(row.gguf);
  f.keys = split_commas(row.keys);
  f.position = named<PositionKind>(row.position, "position", row);
  f.alibi_key = row.alibi_key;
  f.layout = named<RopeLayout>(row.layout, "layout", row);
  f.base = row.base > 0 ? row.base : 10000.0;
  f.local_base = row.local_base;
  f.compress_base = row.compress_base;
  f.query_pre_attn_scalar = row.query_pre_attn_scalar;
  f.max_positions = row.max_positions;
  f.chunk = row.chunk;
  f.layers = named<LayerRule>(row.layers, "layers", row);
  f.pattern = row.pattern;
  f.nope_interval = row.nope_interval;
  f.gguf_swa_period = row.gguf_swa_period;
  f.rope_on = named<RopeOn>(row.rope_on, "rope_on", row);
  f.sliding_rope = named<SlidingRope>(row.sliding_rope, "sliding_rope", row);
  f.softmax = named<SoftmaxRule>(row.softmax, "softmax", row);
  f.mixer = row.mixer;
  f.parallel_mixer = row.parallel_mixer;
  f.direction = named<Direction>(row.direction, "direction", row);
  f.key_selection = named<KeySelectionRule>(row.key_selection, "key_selection", row);
  f.window_key = row.window_key;
  f.base_key = row.base_key;
  f.local_base_key = row.local_base_key;
  f.max_key = row.max_key;
  f.logit_scales = split_commas(row.logit_scales);
  for (const std::string& flag : split_commas(row.flags)) {
    const auto it = std::find(kFamilyFlagNames.begin(), kFamilyFlagNames.end(), flag);
    if (it == kFamilyFlagNames.end())
      throw std::logic_error(std::string("data/model_families.json: family '") + row.family + "': flag '" + flag + "'");
    f.flags |= 1u << (it - kFamilyFlagNames.begin());
  }
  f.source = row.source;
  // not_modelled: "what\tvalue\twhy\n" per entry (cmake/model_families.cmake).
  for (std::string_view rest = row.not_modelled; !rest.empty();) {
    const size_t end = rest.find('\n');
    const std::string_view entry = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    const size_t t1 = entry.find('\t'), t2 = t1 == std::string_view::npos ? t1 : entry.find('\t', t1 + 1);
    if (t2 == std::string_view::npos || t1 == 0 || t2 == t1 + 1 || t2 + 1 == entry.size())
      throw std::logic_error(std::string("data/model_families.json: family '") + row.family +
                             "': every not_modelled entry needs what, value and why");
    f.not_modelled.push_back(
        {std::string(entry.substr(0, t1)), std::string(entry.substr(t1 + 1, t2 - t1 - 1)), std::string(entry.substr(t2 + 1))});
  }
  if (f.model_types.empty() || f.source.empty())
    throw std::logic_error(std::string("data/model_families.json: family '") + row.family + "' needs model_types and a source");
  return f;
}

const std::vector<ModelFamily>& table() {
  static const std::vector<ModelFamily> rows = [] {
    std::vector<ModelFamily> out;
    for (const generated::FamilyRow& row : generated::kFamilyRows) out.push_back(read_row(row));
    return out;
  }();
  return rows;
}

bool listed(const char* list, std::string_view name) {
  for (const std::string& item : split_commas(list))
    if (item == name) return true;
  return false;
}

std::string cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string join(const std::vector<std::string>& items, const char* quote = "`") {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + std::string(quote) + s + quote;
  return out;
}

// What the row says about its layers, in words (the generated docs).
std::string layers_words(const ModelFamily& f) {
  std::string w = name_of(f.layers);
  if (f.pattern > 0) w += " (" + std::to_string(f.pattern) + ")";
  if (f.nope_interval > 0) w += "; NoPE every " + std::to_string(f.nope_interval) + "th layer";
  if (f.chunk > 0) w += "; chunk " + std::to_string(f.chunk);
  if (!f.mixer.empty()) w += "; linear mixer " + f.mixer;
  if (!f.parallel_mixer.empty()) w += "; parallel " + f.parallel_mixer;
  if (f.direction != Direction::Causal) w += std::string("; direction ") + name_of(f.direction);
  if (f.key_selection != KeySelectionRule::None) w += std::string("; key selection ") + name_of(f.key_selection);
  if (!f.logit_scales.empty()) w += "; logit scales " + join(f.logit_scales, "");
  return w;
}

}  // namespace

std::span<const ModelFamily> model_families() { return table(); }

const ModelFamily* find_model_family(std::string_view model_type) {
  for (const ModelFamily& f : table())
    if (std::find(f.model_types.begin(), f.model_types.end(), model_type) != f.model_types.end()) return &f;
  return nullptr;
}

const ModelFamily* find_gguf_family(std::string_view arch) {
  for (const ModelFamily& f : table())
    if (std::find(f.gguf_archs.begin(), f.gguf_archs.end(), arch) != f.gguf_archs.end()) return &f;
  return nullptr;
}

std::optional<std::string> llama_cpp_rope_type(const std::string& arch) {
  const generated::LlamaCppRopeTypes& t = generated::kLlamaCppRopeTypes;
  if (listed(t.none, arch)) return "none";
  if (listed(t.norm, arch)) return "norm";
  if (listed(t.neox, arch)) return "neox";
  if (listed(t.mrope, arch)) return "mrope";
  if (listed(t.imrope, arch)) return "imrope";
  return std::nullopt;
}

const char* llama_cpp_rope_type_source() { return generated::kLlamaCppRopeTypes.source; }

std::optional<RopeLayout> hf_rope_layout(const std::string& model_type) {
  if (const ModelFamily* f = find_model_family(model_type)) return f->layout;
  return std::nullopt;
}

std::string model_families_markdown() {
  std::string out =
      "| model_type | family | position | layout | default base | layers (rule) | RoPE on | keys | source |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  for (const ModelFamily& f : table()) {
    const bool rope = f.position == PositionKind::Rope || f.rope_on != RopeOn::All || f.layers != LayerRule::Generic;
    out += "| " + join(f.model_types) + " | " + cell(f.family) + " | " + position_kind_name(f.position) + " | ";
    out += (rope ? std::string(name_of(f.layout)) : std::string("—")) + " | ";
    out += (rope ? significant(f.base) : std::string("—")) + " | " + cell(layers_words(f)) + " | " + name_of(f.rope_on);
    if (f.sliding_rope != SlidingRope::Same) out += std::string("; sliding layers: ") + name_of(f.sliding_rope);
    for (size_t i = 0; i < f.not_modelled.size(); ++i) out += (i == 0 ? "; not modelled: " : ", ") + cell(f.not_modelled[i].what);
    out += " | " + cell(join(f.keys)) + " | " + cell(f.source) + " |\n";
  }
  return out;
}

}  // namespace posenc
