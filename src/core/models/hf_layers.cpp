// config.json -> every layer (ModelPosition::per_layer), by the family table's layer rule (docs/models.md):
//   layer count     num_hidden_layers (Nemotron-H: the pattern's length)
//   kinds           layer_types (any family, names mapped below), else the rule's own keys
//   RoPE or not     no_rope_layers / no_rope_layer_interval, then the row's rope_on
//   windows         sliding_window, attention_chunk_size; DeepSeek-V4's compress ratios
//   query scales    Llama 4 temperature tuning, llama_4_scaling_beta; sinks
//   direction       causal, or bidirectional by the family (encoders, use_bidirectional_attention); T5's two stacks
//   key selection   DSA's index_topk, MiniMax-M3's sparse_attention_config
#include <algorithm>

#include "core/bounds.h"
#include "core/models/hf_reading.h"

namespace posenc::hf {
namespace {

constexpr int64_t kMaxLayers = 65536;

struct Layers {
  const Model& m;
  int n = 0;
  std::vector<LayerSpec> spec;
  bool sliding_window_set = false;

  const Reader& r() const { return m.r; }
  void count_check(const std::string& key, std::size_t size) const {
    if (static_cast<int64_t>(size) != n)
      throw InvalidArgument(r().path(key), r().path(key) + " must have num_hidden_layers = " + std::to_string(n) +
                                               " entries (it has " + std::to_string(size) + ")");
  }
  // The linear layers' mixer: the family's ("gated_deltanet", "mamba2", ...), else the name the config used.
  std::string mixer(const std::string& named) const { return m.fam && !m.fam->mixer.empty() ? m.fam->mixer : named; }
  void set(int i, LayerAttention a, std::string mixer_name = {}, int64_t ratio = 0) {
    spec[i].attention = a;
    spec[i].mixer = std::move(mixer_name);
    spec[i].ratio = ratio;
    spec[i].reason = a == LayerAttention::None ? "mlp_only" : "";
  }
  // A block that mixes no tokens, and why.
  void set_none(int i, std::string block, std::string reason) {
    set(i, LayerAttention::None, std::move(block));
    spec[i].reason = std::move(reason);
  }
};

int64_t checked_window(const Reader& r, const char* key) {
  const auto w = r.integer(key);
  if (!w) return 0;
  if (*w < 1 || *w > kMaxLength) r.fail(key, "must be in [1, 2^30]");
  return *w;
}

int64_t checked_interval(const Reader& r, const char* key, int64_t dflt) {
  const int64_t v = r.integer(key).value_or(dflt);
  if (v < 1 || v > kMaxLayers) r.fail(key, "must be in [1, 65536]");
  return v;
}

// DeepSeek-V4's compress rates (compress_rates, else the legacy compress_rate_csa / _hca, else 4 and 128).
int64_t compress_rate(const Reader& r, bool heavily) {
  const char* legacy = heavily ? "compress_rate_hca" : "compress_rate_csa";
  const char* name = heavily ? "heavily_compressed_attention" : "compressed_sparse_attention";
  int64_t rate = heavily ? 128 : 4;
  if (const auto rates = r.object("compress_rates"))
    if (const auto v = rates->integer(name)) rate = *v;
  if (const auto v = r.integer(legacy)) rate = *v;
  if (rate < 1 || rate > kMaxLength) r.fail(legacy, "must be in [1, 2^30]");
  return rate;
}

// One layer_types entry (transformers' names, and the hybrids' own: Granite's "mamba" / "attention", LFM2's
// "conv", Nemotron-H's "moe" / "mlp", DeepSeek-V4's compressed kinds).
bool layer_type_kind(Layers& L, int i, const std::string& t) {
  if (is_one_of(t, {"full_attention", "attention", "global", "global_attention"})) L.set(i, LayerAttention::Full);
  else if (is_one_of(t, {"sliding_attention", "sliding", "local", "local_attention"})) L.set(i, LayerAttention::Sliding);
  else if (t == "chunked_attention") L.set(i, LayerAttention::Chunked);
  else if (t == "linear_attention") L.set(i, LayerAttention::Linear, L.mixer("linear_attention"));
  else if (is_one_of(t, {"mamba", "mamba2"})) L.set(i, LayerAttention::Linear, "mamba2");
  else if (is_one_of(t, {"conv", "short_conv"})) L.set(i, LayerAttention::Linear, "conv");
  else if (t == "kda") L.set(i, LayerAttention::Linear, "kda");
  else if (t == "compressed_sparse_attention") L.set(i, LayerAttention::Compressed, "", compress_rate(L.r(), false));
  else if (t == "heavily_compressed_attention") L.set(i, LayerAttention::Compressed, "", compress_rate(L.r(), true));
  else if (is_one_of(t, {"moe", "mlp"})) L.set(i, LayerAttention::None, t);
  else return false;
  return true;
}

bool read_layer_types(Layers& L) {
  const auto lt = L.r().strings("layer_types");
  if (!lt) return false;
  // transformers derived layer_types from the family's own keys (and saves both): those are moot beside it,
  // their rule applied (the row's keys; an unknown family's stay unread).
  if (L.m.fam)
    for (const std::string& k : L.m.fam->keys)
      if (is_one_of(k, {"sliding_window_pattern", "use_sliding_window", "max_window_layers", "full_attention_interval",
                        "full_attn_idxs", "hybrid_override_pattern", "attn_type_list", "compress_ratios", "layers_block_type",
                        "global_attn_every_n_layers", "block_types"}))
        L.r().mark(k.c_str());
  L.count_check("layer_types", lt->size());
  for (int i = 0; i < L.n; ++i)
    if (!layer_type_kind(L, i, (*lt)[i]))
      L.r().fail("layer_types", "entry " + std::to_string(i) + " '" + (*lt)[i] +
                                    "' is not a layer type posenc knows (full_attention, sliding_attention, "
                                    "chunked_attention, linear_attention, mamba, conv, kda, moe, mlp, "
                                    "compressed_sparse_attention, heavily_compressed_attention)");
  return true;
}

void every_sliding_if_windowed(Layers& L, bool assumed) {
  if (!L.sliding_window_set) return;
  for (int i = 0; i < L.n; ++i) L.set(i, LayerAttention::Sliding);
  if (assumed)
    L.m.assume("layers", "every layer sliding", "sliding_window is set without layer_types, and " + L.m.not_in_table());
}

// sliding_window_pattern as an integer period (Gemma 2 / 3, Cohere2, EXAONE 4.0) or EXAONE's string of L / G.
void sliding_pattern(Layers& L, int64_t dflt) {
  const Reader& r = L.r();
  const ConfigValue* v = r.get("sliding_window_pattern");
  if (v && v->is_string()) {
    const std::string& s = v->as_string();
    if (s.empty() || s.find_first_not_of("LG") != std::string::npos)
      r.fail("sliding_window_pattern", "must be an integer or a string of L (local) and G (global)");
    for (int i = 0; i < L.n; ++i) L.set(i, s[i % s.size()] == 'L' ? LayerAttention::Sliding : LayerAttention::Full);
    return;
  }
  const int64_t pattern = checked_interval(r, "sliding_window_pattern", dflt);
  for (int i = 0; i < L.n; ++i) L.set(i, (i + 1) % pattern != 0 ? LayerAttention::Sliding : LayerAttention::Full);
}

// Nemotron-H's hybrid_override_pattern: one character per layer.
void nemotron_pattern(Layers& L, const std::string& pattern) {
  for (int i = 0; i < L.n; ++i) {
    switch (pattern[i]) {
      case 'M': L.set(i, LayerAttention::Linear, "mamba2"); break;
      case '*': L.set(i, LayerAttention::Full); break;
      case '-': L.set_none(i, "mlp", "mlp_only"); break;
      case 'E': L.set_none(i, "moe", "mlp_only"); break;
      default:
        L.r().fail("hybrid_override_pattern", "character " + std::to_string(i) + " '" + std::string(1, pattern[i]) +
                                                  "' is not M (mamba), * (attention), - (mlp) or E (moe)");
    }
  }
}

// Kimi Linear: linear_attn_config.kda_layers (1-based) are KDA layers, the others MLA.
void kimi_layers(Layers& L) {
  const auto cfg = L.r().object("linear_attn_config");
  for (int i = 0; i < L.n; ++i) L.set(i, LayerAttention::Full);
  if (!cfg) return;
  const auto kda = cfg->integers("kda_layers");
  (void)cfg->integers("full_attn_layers");
  for (int64_t k : kda.value_or(std::vector<int64_t>{})) {
    if (k < 1 || k > L.n) cfg->fail("kda_layers", "entries must be layer numbers in [1, num_hidden_layers] (1-based)");
    L.set(static_cast<int>(k - 1), LayerAttention::Linear, "kda");
  }
}

// DeepSeek-V4: compress_ratios (one per layer, then the MTP layers': transformers keeps the first
// num_hidden_layers), else the V4-Pro default (2 heavily compressed, then compressed / heavily compressed).
void deepseek_v4_layers(Layers& L) {
  const Reader& r = L.r();
  if (const auto ratios = r.integers("compress_ratios")) {
    if (static_cast<int64_t>(ratios->size()) < L.n)
      r.fail("compress_ratios", "must have at least num_hidden_layers = " + std::to_string(L.n) + " entries");
    for (int i = 0; i < L.n; ++i) {
      const int64_t c = (*ratios)[i];
      if (c == 0) L.set(i, LayerAttention::Sliding);
      else if (c == 4) L.set(i, LayerAttention::Compressed, "", compress_rate(r, false));
      else if (c == 128) L.set(i, LayerAttention::Compressed, "", compress_rate(r, true));
      else r.fail("compress_ratios", "entry " + std::to_string(i) + " = " + std::to_string(c) + " is not 0, 4 or 128");
    }
    return;
  }
  for (int i = 0; i < L.n; ++i) L.set(i, LayerAttention::Compressed, "", compress_rate(r, i < 2 || (i - 2) % 2 == 0));
}

// MiniMax: attn_type_list (1 softmax attention, 0 lightning linear attention); transformers' "minimax" alternates.
void minimax_layers(Layers& L) {
  const Reader& r = L.r();
  if (const auto list = r.integers("attn_type_list")) {
    L.count_check("attn_type_list", list->size());
    for (int i = 0; i < L.n; ++i) {
      if ((*list)[i] != 0 && (*list)[i] != 1) r.fail("attn_type_list", "entries must be 0 (linear) or 1 (full attention)");
      L.set(i, (*list)[i] == 1 ? LayerAttention::Full : LayerAttention::Linear, (*list)[i] == 1 ? "" : L.mixer("lightning"));
    }
  } else if (L.m.type == "minimax") {
    for (int i = 0; i < L.n; ++i)
      L.set(i, (i + 1) % 2 ? LayerAttention::Full : LayerAttention::Linear, (i + 1) % 2 ? "" : L.mixer("lightning"));
  } else {
    L.m.assume("layers", "every layer full attention", "the config has neither attn_type_list nor layer_types");
  }
}

// ModernBERT (ModernBertConfig): layer i is full attention iff i % global_attn_every_n_layers == 0.
void global_every_layers(Layers& L, int64_t dflt) {
  const int64_t every = checked_interval(L.r(), "global_attn_every_n_layers", dflt);
  for (int i = 0; i < L.n; ++i) L.set(i, i % every == 0 ? LayerAttention::Full : LayerAttention::Sliding);
}

// Nemotron NAS (DeciLM's block_configs): a block whose attention is no_op, or replaced by a per-token linear
// layer (replace_with_linear), mixes no tokens; the rest attend as Llama does.
void block_config_layers(Layers& L) {
  const auto blocks = L.r().objects("block_configs");
  if (!blocks) {
    for (int i = 0; i < L.n; ++i) L.set(i, LayerAttention::Full);
    return;
  }
  L.count_check("block_configs", blocks->size());
  for (int i = 0; i < L.n; ++i) {
    const Reader& b = (*blocks)[size_t(i)];
    const auto attention = b.object("attention");
    const auto ffn = b.object("ffn");
    const bool no_op = attention && attention->boolean("no_op").value_or(false);
    const bool linear = attention && attention->boolean("replace_with_linear").value_or(false);
    std::string block = "mlp";
    if (ffn && ffn->boolean("no_op").value_or(false)) block = "no_op";
    else if (ffn && ffn->boolean("replace_with_linear").value_or(false)) block = "linear";
    if (no_op) L.set_none(i, block, "no_op");
    else if (linear) L.set_none(i, block, "replace_with_linear");
    else L.set(i, LayerAttention::Full);
  }
}

// RecurrentGemma (RecurrentGemmaConfig.layers_block_type): block_types repeated over the layers, "recurrent" an
// RG-LRU block (no softmax, no position), "attention" local attention over attention_window_size keys.
void block_type_layers(Layers& L) {
  const Reader& r = L.r();
  const auto types = r.strings("block_types");
  const std::vector<std::string> pattern = types.value_or(std::vector<std::string>{"recurrent", "recurrent", "attention"});
  if (pattern.empty()) r.fail("block_types", "must not be empty");
  for (int i = 0; i < L.n; ++i) {
    const std::string& t = pattern[size_t(i) % pattern.size()];
    if (t == "recurrent") L.set(i, LayerAttention::Linear, "recurrent");
    else if (t == "attention") L.set(i, LayerAttention::Sliding);
    else r.fail("block_types", "entry '" + t + "' is neither \"recurrent\" nor \"attention\"");
  }
}

// The family rule's kinds, when layer_types did not give them.
void rule_kinds(Layers& L) {
  const Reader& r = L.r();
  const LayerRule rule = L.m.fam ? L.m.fam->layers : LayerRule::Generic;
  const int pattern = L.m.fam ? L.m.fam->pattern : 0;
  switch (rule) {
    case LayerRule::Generic: every_sliding_if_windowed(L, !L.m.fam); break;
    case LayerRule::QwenWindow:
      // Qwen2Config and kin: sliding_window only if use_sliding_window (default false), on layers >= max_window_layers.
      if (r.boolean("use_sliding_window").value_or(false) && L.sliding_window_set) {
        const int64_t from = r.integer("max_window_layers").value_or(0);
        for (int i = 0; i < L.n; ++i) L.set(i, i >= from ? LayerAttention::Sliding : LayerAttention::Full);
      } else {
        r.mark("max_window_layers");  // moot without use_sliding_window: the rule was applied
      }
      break;
    case LayerRule::FullInterval: {
      const int64_t every = checked_interval(r, "full_attention_interval", pattern);
      for (int i = 0; i < L.n; ++i)
        L.set(i, (i + 1) % every != 0 ? LayerAttention::Linear : LayerAttention::Full,
              (i + 1) % every ? L.mixer("linear_attention") : "");
      break;
    }
    case LayerRule::SlidingPattern: sliding_pattern(L, pattern); break;
    case LayerRule::Exaone4:
      if (L.sliding_window_set) sliding_pattern(L, pattern);
      else r.mark("sliding_window_pattern");  // moot without a window: every layer global (and rotating)
      break;
    case LayerRule::Llama4:
      // Llama4TextConfig: chunked_attention on RoPE layers, full_attention on NoPE layers (set after the NoPE rule).
      for (int i = 0; i < L.n; ++i) L.set(i, L.spec[i].rope ? LayerAttention::Chunked : LayerAttention::Full);
      break;
    case LayerRule::Lfm2:
      if (const auto idx = r.integers("full_attn_idxs")) {
        for (int i = 0; i < L.n; ++i) L.set(i, LayerAttention::Linear, "conv");
        for (int64_t k : *idx) {
          if (k < 0 || k >= L.n) r.fail("full_attn_idxs", "entries must be layer indices in [0, num_hidden_layers)");
          L.set(static_cast<int>(k), LayerAttention::Full);
        }
      }
      break;
    case LayerRule::NemotronH: break;  // read with the layer count
    case LayerRule::GraniteHybrid:
      for (int i = 0; i < L.n; ++i) L.set(i, LayerAttention::Linear, "mamba2");  // layers_block_type: all mamba
      break;
    case LayerRule::KimiLinear: kimi_layers(L); break;
    case LayerRule::DeepseekV4: deepseek_v4_layers(L); break;
    case LayerRule::Minimax: minimax_layers(L); break;
    case LayerRule::FalconH1: break;  // every layer full attention; its parallel mixer is set by read_layers
    case LayerRule::GlobalEvery: global_every_layers(L, pattern); break;
    case LayerRule::BlockConfigs: block_config_layers(L); break;
    case LayerRule::BlockTypes: block_type_layers(L); break;
  }
}

// RoPE or NoPE per layer: no_rope_layers (1 = RoPE, 0 = none; SmolLM3, Llama 4), else no_rope_layer_interval
// (every interval-th layer NoPE; Llama4TextConfig / SmolLM3Config default 4). Families whose configuration
// reads neither leave them unread; an unknown family's are applied and named as an assumption.
void nope_layers(Layers& L) {
  const Reader& r = L.r();
  const int dflt = L.m.fam ? L.m.fam->nope_interval : 0;
  if (L.m.fam && dflt == 0) return;
  if (const auto nrl = r.integers("no_rope_layers"); nrl && !nrl->empty()) {
    r.mark("no_rope_layer_interval");  // moot beside the list (the configuration derives the list from it)
    L.count_check("no_rope_layers", nrl->size());
    for (int i = 0; i < L.n; ++i) {
      if ((*nrl)[i] != 0 && (*nrl)[i] != 1) r.fail("no_rope_layers", "entries must be 0 (NoPE) or 1 (RoPE)");
      L.spec[i].rope = (*nrl)[i] == 1;
    }
  } else if (r.has("no_rope_layer_interval") || dflt > 0) {
    const int64_t interval = checked_interval(r, "no_rope_layer_interval", dflt);
    for (int i = 0; i < L.n; ++i) L.spec[i].rope = (i + 1) % interval != 0;
  } else {
    return;
  }
  if (!L.m.fam) L.m.assume("no_rope_layers", "read as SmolLM3 and Llama 4 read them", L.m.not_in_table());
}

bool attends(LayerAttention a) { return a != LayerAttention::Linear && a != LayerAttention::None; }

// The row's rope_on, after the NoPE keys; `rope`: the model has a position encoding at all.
void rope_on(Layers& L, bool rope) {
  const RopeOn on = L.m.fam ? L.m.fam->rope_on : RopeOn::All;
  const bool any_sliding =
      std::any_of(L.spec.begin(), L.spec.end(), [](const LayerSpec& l) { return l.attention == LayerAttention::Sliding; });
  for (LayerSpec& l : L.spec) {
    l.rope = l.rope && rope && attends(l.attention);
    if (on == RopeOn::Sliding || (on == RopeOn::SlidingIfWindowed && any_sliding))
      l.rope = l.rope && l.attention == LayerAttention::Sliding;
    if (on == RopeOn::None) l.rope = false;
  }
}

void windows(Layers& L) {
  const Reader& r = L.r();
  const bool chunked =
      std::any_of(L.spec.begin(), L.spec.end(), [](const LayerSpec& l) { return l.attention == LayerAttention::Chunked; });
  int64_t chunk = 0;
  if (chunked) {
    chunk = r.has("attention_chunk_size") ? checked_window(r, "attention_chunk_size") : (L.m.fam ? L.m.fam->chunk : 0);
    r.mark("attention_chunk_size");
    // attention_chunk_size: null turns chunked layers into full ones (create_chunked_causal_mask needs a size).
    if (chunk == 0)
      for (LayerSpec& l : L.spec)
        if (l.attention == LayerAttention::Chunked) l.attention = LayerAttention::Full;
  }
  const std::string window_key = L.m.fam ? L.m.fam->window_key : "sliding_window";
  int64_t window = checked_window(r, window_key.c_str());
  if (window == 0 && L.m.fam && L.m.fam->layers == LayerRule::DeepseekV4) window = 128;   // DeepseekV4Config default
  if (window == 0 && L.m.fam && L.m.fam->layers == LayerRule::GlobalEvery) window = 128;  // ModernBertConfig local_attention
  if (window == 0 && L.m.fam && L.m.fam->layers == LayerRule::BlockTypes) window = 2048;  // RecurrentGemmaConfig default
  for (LayerSpec& l : L.spec) {
    if (l.attention == LayerAttention::Sliding || l.attention == LayerAttention::Compressed) {
      if (window == 0) throw InvalidArgument(r.path(window_key), "missing " + r.path(window_key) + " for the sliding layers");
      // A bidirectional window reaches W // 2 keys each side, |i - j| <= W // 2: ModernBERT's sliding_window =
      // local_attention // 2 (distance <= it), Gemma's use_bidirectional_attention W // 2 + 1 as an exclusive bound.
      l.window = l.causal ? window : std::max<int64_t>(1, window / 2);
    }
    if (l.attention == LayerAttention::Chunked) l.window = chunk;
  }
}

// Llama 4's temperature tuning on NoPE layers, Ministral 3's llama_4_scaling_beta on every layer; sinks.
void query_scales(Layers& L, const RopeParams& p) {
  const Reader& r = L.r();
  QueryScale temp;
  if (L.m.flag(kFamilyLlama4Temperature) && r.truthy("attn_temperature_tuning").value_or(true)) {
    temp.rule = QueryScale::Rule::Llama4Temperature;
    temp.floor_scale = r.number("floor_scale").value_or(8192.0);
    temp.attn_scale = r.number("attn_scale").value_or(0.1);
    if (!(temp.floor_scale >= 1 && temp.floor_scale <= 1e9)) r.fail("floor_scale", "must be in [1, 10^9]");
    if (!(temp.attn_scale >= 0 && temp.attn_scale <= 1e3)) r.fail("attn_scale", "must be in [0, 1000]");
  }
  QueryScale beta;
  if (p.params && p.params->has("llama_4_scaling_beta")) {
    const Reader& q = *p.params;
    beta.rule = QueryScale::Rule::Llama4ScalingBeta;
    beta.beta = *q.number("llama_4_scaling_beta");
    if (!(beta.beta >= 0 && beta.beta <= 1e3)) q.fail("llama_4_scaling_beta", "must be in [0, 1000]");
    const auto orig = q.integer("original_max_position_embeddings");
    if (!orig)
      throw InvalidArgument(q.path("original_max_position_embeddings"), "missing " + q.path("original_max_position_embeddings") +
                                                                            " (llama_4_scaling_beta divides positions by it)");
    if (*orig < 1 || *orig > kMaxLength) q.fail("original_max_position_embeddings", "must be in [1, 2^30]");
    beta.original_max_position_embeddings = *orig;
  }
  for (LayerSpec& l : L.spec) {
    if (!attends(l.attention)) continue;
    if (!l.rope && temp.rule != QueryScale::Rule::None) l.query_scale = temp;
    if (beta.rule != QueryScale::Rule::None) l.query_scale = beta;
    l.sinks = L.m.flag(kFamilySinks);
  }
}

// The keys an attention layer selects before its softmax (the family's key_selection rule).
void key_selection(Layers& L) {
  const Reader& r = L.r();
  const KeySelectionRule rule = L.m.fam ? L.m.fam->key_selection : KeySelectionRule::None;
  if (rule == KeySelectionRule::IndexTopk) {
    // DSA (DeepSeek-V3.2, GLM-5): the lightning indexer keeps index_topk keys per query in every attention layer.
    const auto k = r.integer("index_topk");
    if (!k) return;
    if (*k < 1 || *k > kMaxLength) r.fail("index_topk", "must be in [1, 2^30]");
    for (LayerSpec& l : L.spec)
      if (attends(l.attention)) l.key_selection = {"indexer_topk", *k, 0, {r.path("index_topk")}};
  } else if (rule == KeySelectionRule::SparseAttentionConfig) {
    // MiniMax-M3's MSA: on the layers whose sparse_attention_freq entry is 1, sparse_topk_blocks blocks of
    // sparse_block_size keys per query.
    const auto cfg = r.object("sparse_attention_config");
    if (!cfg) return;
    if (!cfg->boolean("use_sparse_attention").value_or(true)) {
      for (const char* k : {"sparse_topk_blocks", "sparse_block_size", "sparse_attention_freq"}) cfg->mark(k);
      return;
    }
    const auto top = cfg->integer("sparse_topk_blocks");
    const auto block = cfg->integer("sparse_block_size");
    const int64_t t = cfg->needed(top, "sparse_topk_blocks", " (the blocks each query keeps)");
    const int64_t b = cfg->needed(block, "sparse_block_size", " (the keys per block)");
    if (t < 1 || t > kMaxLength) cfg->fail("sparse_topk_blocks", "must be in [1, 2^30]");
    if (b < 1 || b > kMaxLength) cfg->fail("sparse_block_size", "must be in [1, 2^30]");
    const auto freq = cfg->integers("sparse_attention_freq");
    if (freq) L.count_check(cfg->path("sparse_attention_freq").substr(r.path("").size()), freq->size());
    std::vector<std::string> keys{cfg->path("sparse_topk_blocks"), cfg->path("sparse_block_size")};
    if (freq) keys.push_back(cfg->path("sparse_attention_freq"));
    for (int i = 0; i < L.n; ++i) {
      if (freq && (*freq)[size_t(i)] != 0 && (*freq)[size_t(i)] != 1)
        cfg->fail("sparse_attention_freq", "entries must be 0 (full attention) or 1 (sparse)");
      if (attends(L.spec[size_t(i)].attention) && (!freq || (*freq)[size_t(i)] == 1))
        L.spec[size_t(i)].key_selection = {"block_topk", t, b, keys};
    }
  }
}

// Which of out.layers a rotating layer uses.
void rope_keys(Layers& L) {
  const auto& types = L.m.out.layers;
  if (types.empty()) return;
  auto has = [&](const std::string& name) {
    return std::any_of(types.begin(), types.end(), [&](const auto& e) { return e.first == name; });
  };
  for (LayerSpec& l : L.spec) {
    if (!l.rope) continue;
    if (has("main") && has("compress")) {
      l.rope_key = l.attention == LayerAttention::Compressed ? "compress" : "main";
      continue;
    }
    const char* names[] = {"full_attention",   "sliding_attention", "chunked_attention",
                           "linear_attention", "full_attention",    "full_attention"};
    const std::string want = names[static_cast<int>(l.attention)];
    l.rope_key = has(want) ? want : "full_attention";
  }
}

// The layer count: num_hidden_layers (or its aliases); Nemotron-H's pattern length wins (NemotronHConfig).
std::optional<int> layer_count(const Model& m) {
  const Reader& r = m.r;
  const char* n_key = "num_hidden_layers";
  const auto n = first_of<int64_t>(r, {"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, &Reader::integer, &n_key);
  if (m.fam && m.fam->layers == LayerRule::NemotronH)
    if (const auto pattern = r.string("hybrid_override_pattern")) {
      if (pattern->empty() || pattern->size() > kMaxLayers) r.fail("hybrid_override_pattern", "must have 1 to 65536 characters");
      return static_cast<int>(pattern->size());
    }
  if (!n) return std::nullopt;
  if (*n < 1 || *n > kMaxLayers) r.fail(n_key, "must be in [1, 65536]");
  return static_cast<int>(*n);
}

int checked_layers(const Reader& r, const char* key, int64_t n) {
  if (n < 0 || n > kMaxLayers) r.fail(key, "must be in [0, 65536]");
  return static_cast<int>(n);
}

}  // namespace

bool reads_causal(const Model& m) {
  if (!m.fam) return true;
  switch (m.fam->direction) {
    case Direction::Causal:
    case Direction::EncoderDecoder: return true;  // T5's stacks: read_plain_layers
    case Direction::Bidirectional: return false;
    case Direction::BidirectionalKey: {
      // Gemma 3 (a bool) / Gemma 4 ("vision" or "all"): true and "all" make every layer bidirectional; "vision"
      // lets only image tokens attend both ways (text tokens, which posenc draws, stay causal).
      const ConfigValue* v = m.r.get("use_bidirectional_attention");
      if (!v) return true;
      if (v->is_bool()) return !v->as_bool();
      if (v->is_string() && v->as_string() == "all") return false;
      if (v->is_string() && v->as_string() == "vision") return true;
      m.r.fail("use_bidirectional_attention", "must be true, false, \"all\" or \"vision\"");
    }
  }
  return true;
}

void read_plain_layers(const Model& m) {
  const Reader& r = m.r;
  auto layer = [&](bool causal, const char* stack) {
    LayerSpec l;
    l.rope = false;
    l.scheme = m.out.position;
    l.causal = causal;
    l.stack = stack;
    return l;
  };
  if (m.fam && m.fam->direction == Direction::EncoderDecoder) {
    // T5Config: num_layers encoder blocks (bidirectional), num_decoder_layers (default num_layers) decoder blocks
    // (causal self-attention; T5Attention's relative_attention_bidirectional = not is_decoder).
    const auto enc = r.integer("num_layers");
    if (!enc) return;
    const int encoder = checked_layers(r, "num_layers", *enc);
    const int decoder = checked_layers(r, "num_decoder_layers", r.integer("num_decoder_layers").value_or(*enc));
    m.out.num_hidden_layers = encoder;
    for (int i = 0; i < encoder; ++i) m.out.per_layer.push_back(layer(false, "encoder"));
    for (int i = 0; i < decoder; ++i) m.out.per_layer.push_back(layer(true, "decoder"));
    return;
  }
  const auto n = layer_count(m);
  if (!n) return;
  m.out.num_hidden_layers = *n;
  const bool causal = reads_causal(m);
  m.out.per_layer.assign(size_t(*n), layer(causal, ""));
}

void read_layers(const Model& m, const RopeParams& p, bool rope) {
  // A Mamba mixer's scan chunk is not an attention chunk: looked at, so not named as an unread position key.
  if (m.fam && !(m.fam->mixer.empty() && m.fam->parallel_mixer.empty()))
    for (const char* k : {"mamba_chunk_size", "chunk_size"}) m.r.mark(k);
  const auto n = layer_count(m);
  if (!n) return;
  Layers L{m, 0, {}, false};
  L.n = *n;
  L.spec.resize(L.n);
  m.out.num_hidden_layers = L.n;
  L.sliding_window_set = m.r.has("sliding_window");
  const bool causal = reads_causal(m);
  for (LayerSpec& l : L.spec) l.causal = causal, l.scheme = m.out.position;
  nope_layers(L);
  bool kinds = false;
  if (m.fam && m.fam->layers == LayerRule::NemotronH)
    if (const auto pattern = m.r.string("hybrid_override_pattern")) nemotron_pattern(L, *pattern), kinds = true;
  if (!kinds) kinds = read_layer_types(L);
  if (!kinds) rule_kinds(L);
  if (m.fam && m.fam->layers == LayerRule::FalconH1)
    for (LayerSpec& l : L.spec) l.parallel_mixer = m.fam->parallel_mixer;
  rope_on(L, rope);
  windows(L);
  query_scales(L, p);
  key_selection(L);
  rope_keys(L);
  m.out.per_layer = std::move(L.spec);
}

}  // namespace posenc::hf
