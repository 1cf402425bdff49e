#include "presets.h"

#include <cstring>

#include "config_json.h"
#include "core/types.h"
#include "posenc_model_configs.h"

namespace posenc::model_io {
namespace {

constexpr ModelPreset kPresets[] = {
    {"llama-2-7b", "Llama-2-7B", "meta-llama/Llama-2-7b-hf", "llama-2-7b-hf.json", "", ""},
    {"llama-3.1-8b", "Llama-3.1-8B (llama3 scaling)", "meta-llama/Llama-3.1-8B", "llama-3.1-8b.json", "", ""},
    {"llama-3.2-1b", "Llama-3.2-1B (llama3 scaling)", "meta-llama/Llama-3.2-1B", "llama-3.2-1b.json", "", ""},
    {"mistral-7b", "Mistral-7B-v0.1", "mistralai/Mistral-7B-v0.1", "mistral-7b-v0.1.json", "", ""},
    {"mixtral-8x7b", "Mixtral-8x7B-v0.1", "mistralai/Mixtral-8x7B-v0.1", "mixtral-8x7b-v0.1.json", "", ""},
    {"qwen2-7b", "Qwen2-7B", "Qwen/Qwen2-7B", "qwen2-7b.json", "", ""},
    {"qwen2.5-7b", "Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b-instruct.json", "", ""},
    {"qwen2.5-7b-yarn", "Qwen2.5-7B-Instruct + 128K YaRN recipe", "Qwen/Qwen2.5-7B-Instruct",
     "qwen2.5-7b-instruct.json",
     R"({"rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}})",
     "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct (model card, 'Processing Long Texts')"},
    {"phi-3-mini-128k", "Phi-3-mini-128k-instruct (LongRoPE)", "microsoft/Phi-3-mini-128k-instruct",
     "phi-3-mini-128k-instruct.json", "", ""},
    {"gemma-2-9b", "Gemma-2-9B", "google/gemma-2-9b", "gemma-2-9b.json", "", ""},
    {"gemma-3-1b", "Gemma-3-1B-it (local/global layers)", "google/gemma-3-1b-it", "gemma-3-1b-it.json", "", ""},
    {"gpt-neox-20b", "GPT-NeoX-20B (rotary_pct 0.25)", "EleutherAI/gpt-neox-20b", "gpt-neox-20b.json", "", ""},
    {"gpt-j-6b", "GPT-J-6B (rotary_dim 64, interleaved)", "EleutherAI/gpt-j-6b", "gpt-j-6b.json", "", ""},
    {"falcon-7b", "Falcon-7B", "tiiuae/falcon-7b", "falcon-7b.json", "", ""},
    {"deepseek-v3", "DeepSeek-V3 (MLA, YaRN)", "deepseek-ai/DeepSeek-V3", "deepseek-v3.json", "", ""},
    {"bloom", "BLOOM-176B (ALiBi, 112 heads)", "bigscience/bloom", "bloom.json", "", ""},
    {"mpt-7b", "MPT-7B (ALiBi)", "mosaicml/mpt-7b", "mpt-7b.json", "", ""},
    {"t5-base", "T5-base (relative buckets)", "google-t5/t5-base", "t5-base.json", "", ""},
    {"deberta-v3-base", "DeBERTa-v3-base (disentangled)", "microsoft/deberta-v3-base", "deberta-v3-base.json", "",
     ""},
    {"gpt2", "GPT-2 (learned absolute)", "openai-community/gpt2", "gpt2.json", "", ""},
    {"bert-base", "BERT-base-uncased (learned absolute)", "google-bert/bert-base-uncased", "bert-base-uncased.json",
     "", ""},
};

}  // namespace

std::span<const ModelPreset> model_presets() { return kPresets; }

const ModelPreset* find_model_preset(const std::string& id) {
  for (const ModelPreset& p : kPresets)
    if (id == p.id) return &p;
  return nullptr;
}

std::optional<std::string> embedded_config_text(const std::string& file) {
  for (const auto& f : embedded::kConfigFiles)
    if (file == f.name) return std::string(f.text);
  return std::nullopt;
}

ConfigValue preset_config(const std::string& id) {
  const ModelPreset* p = find_model_preset(id);
  if (!p) {
    std::string names;
    for (const ModelPreset& q : kPresets) names += (names.empty() ? "" : ", ") + std::string(q.id);
    throw InvalidArgument("model", "unknown model preset '" + id + "' (one of " + names + ")");
  }
  const auto text = embedded_config_text(p->file);
  if (!text) throw InvalidArgument("model", std::string("preset file ") + p->file + " is not compiled in");
  ConfigValue config = parse_config_text(*text);
  if (std::strlen(p->overlay) > 0) {
    const ConfigValue overlay = parse_config_text(p->overlay);
    for (const auto& [k, v] : overlay.as_object()) config.set(k, v);
  }
  return config;
}

}  // namespace posenc::model_io
