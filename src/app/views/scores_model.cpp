// What the scores view computes (scores_model.h).
//
// Index of this file:
// [SECTION] the scheme table
//     one row per scheme: names, formulas, keys, the position it adds, the readout
// [SECTION] keys and layers
//     the ALiBi head, the layer's mask and words
// [SECTION] filling from a model
//     the model's scheme and numbers into the keys, gaps as notices
// [SECTION] computing
//     the content (x, W_Q, W_K), the float32 job, the pictures, the masked cells
// [SECTION] exact values
//     double rows for readouts and numbers; the export's tables
#include "app/views/scores_model.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>

#include "app/i18n.h"
#include "app/masked_cell.h"
#include "core/attention/absolute_attention.h"
#include "core/encodings/absolute.h"
#include "core/encodings/alibi.h"
#include "core/encodings/deberta.h"
#include "core/encodings/relative_bias.h"
#include "core/encodings/shaw.h"
#include "core/encodings/sinusoidal.h"
#include "core/encodings/t5.h"
#include "core/rng.h"

namespace posenc::app {
namespace {

using namespace scores_limits;

// Seeds of the different random tables drawn from one user seed.
uint64_t sub_seed(int seed, uint64_t which) { return uint64_t(seed) * 1000003ull + which; }

std::string printed(const char* format, auto... args) {
  char buf[160];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

std::vector<const char*> no_keys(const ScoresKeys&) { return {}; }
std::string no_note(const ScoresKeys&) { return ""; }
std::string no_bucket(const ScoresKeys&, int, int) { return ""; }
std::string clip_bucket(const ScoresKeys& k, int i, int j) {
  return printed("clip(j - i, -%d, %d) = %d", k.clip, k.clip, std::clamp(j - i, -k.clip, k.clip));
}

// [SECTION] the scheme table

constexpr ScoresSchemeRow kSchemes[] = {
    {ScoresScheme::None, name_of(PositionSchemeKind::None), "none (NoPE)",
     "eᵢⱼ = qᵢ · kⱼ / √d, aᵢⱼ = softmaxⱼ(eᵢⱼ): no position at all (NoPE)",
     "The score of query i and key j is their dot product over the square root of d; nothing depends on position.", no_keys,
     no_note, [](const ScoresKeys&, int, const std::optional<RopePosition>&) -> PositionScheme { return NoPosition{}; }, false,
     no_bucket},
    {ScoresScheme::Sinusoidal, name_of(AbsoluteScheme::Sinusoidal), "sinusoidal absolute (4 terms)",
     "(xᵢ+pᵢ)W_Q · (xⱼ+pⱼ)W_K / √d = content-content + content-position + position-content + position-position",
     "Position vectors are added to the tokens, so the score splits into four terms: content-content, "
     "content-position, position-content and position-position.",
     [](const ScoresKeys&) -> std::vector<const char*> { return {"base"}; }, no_note, nullptr, false, no_bucket},
    {ScoresScheme::Rope, name_of(PositionSchemeKind::Rope), "RoPE",
     "eᵢⱼ = (Rᵢ qᵢ) · (Rⱼ kⱼ) / √d = qᵢ · R₍ⱼ₋ᵢ₎ kⱼ / √d: depends on j − i only",
     "Query and key are rotated by their positions, so the score depends only on the distance j - i.",
     [](const ScoresKeys& k) {
       std::vector<const char*> keys = {"base", "rotary_dim", "layout", "scaling"};
       if (k.scaling != RopeScalingType::None) keys.insert(keys.end(), {"factor", "orig"});
       const std::vector<const char*> extra = RopeExtraKeys::keys_of(k.scaling);
       keys.insert(keys.end(), extra.begin(), extra.end());
       return keys;
     },
     no_note,
     // DroPE / a NoPE layer: the same q, k unrotated.
     [](const ScoresKeys&, int, const std::optional<RopePosition>& rope) -> PositionScheme {
       if (rope) return *rope;
       return NoPosition{};
     },
     false, no_bucket},
    {ScoresScheme::T5, name_of(PositionSchemeKind::T5), "T5 bucketed bias",
     "eᵢⱼ = qᵢ · kⱼ + b[bucket(j − i)]  (no 1/√d: T5 folds it into W_Q's init)",
     "A learned bias chosen by the bucket of the distance j - i is added to the dot product.",
     [](const ScoresKeys&) -> std::vector<const char*> {
       return {"buckets", "max_distance"};
     },
     [](const ScoresKeys& k) -> std::string { return k.causal ? "causal: unidirectional buckets" : "bidirectional buckets"; },
     [](const ScoresKeys& k, int, const std::optional<RopePosition>&) -> PositionScheme {
       T5Position t;
       t.bidirectional = !k.causal;
       t.num_buckets = k.t5_buckets;
       t.max_distance = k.t5_max_distance;
       const Matrix b = seeded_normal_matrix(k.t5_buckets, 1, sub_seed(k.seed, 3), 1.0);
       t.bias.assign(b.data(), b.data() + b.size());
       return t;
     },
     true,
     [](const ScoresKeys& k, int i, int j) {
       return printed("T5 bucket(j - i) = %d of %d (%s)", t5_bucket(j - i, !k.causal, k.t5_buckets, k.t5_max_distance),
                      k.t5_buckets, k.causal ? "causal" : "bidirectional");
     },
     true},
    {ScoresScheme::Alibi, name_of(PositionSchemeKind::Alibi), "ALiBi",
     "eᵢⱼ = qᵢ · kⱼ / √d − mₕ |i − j|,  mₕ = 2^(−8(h+1)/H) (H a power of two; else Press et al.'s interleaving)",
     "The score is the dot product minus a head's slope m_h times the distance |i - j|.",
     [](const ScoresKeys&) -> std::vector<const char*> {
       return {"heads", "head"};
     },
     [](const ScoresKeys& k) { return printed("slope m_h = %.10g", k.alibi_slope()); },
     [](const ScoresKeys& k, int, const std::optional<RopePosition>&) -> PositionScheme {
       return AlibiPosition{k.alibi_slope()};
     },
     false, [](const ScoresKeys& k, int, int) { return printed("bias -m |i - j| with m = %.10g", k.alibi_slope()); }},
    {ScoresScheme::Shaw, name_of(PositionSchemeKind::Shaw), "Shaw relative (keys)",
     "eᵢⱼ = qᵢ · (kⱼ + a^K[clip(j − i, −K, K)]) / √d",
     "Each key gets a learned vector chosen by the distance clipped to plus or minus K.",
     [](const ScoresKeys&) -> std::vector<const char*> { return {"clip"}; }, no_note,
     [](const ScoresKeys& k, int d, const std::optional<RopePosition>&) -> PositionScheme {
       ShawPosition s;
       s.max_relative_position = k.clip;
       s.key_table = shaw_random_table(k.clip, d, sub_seed(k.seed, 4));
       return s;
     },
     false, clip_bucket},
    {ScoresScheme::Deberta, name_of(PositionSchemeKind::Deberta), "DeBERTa (c2p, p2c)",
     "eᵢⱼ = (qᵢ·kⱼ + qᵢ·kʳ[δ(i,j)] + kⱼ·qʳ[δ(i,j)]) / √(3d): c2p + p2c, no p2p",
     "The score adds content-to-position and position-to-content terms on bucketed relative distances.",
     [](const ScoresKeys&) -> std::vector<const char*> {
       return {"deberta_buckets", "deberta_max_position"};
     },
     no_note,
     [](const ScoresKeys& k, int d, const std::optional<RopePosition>&) -> PositionScheme {
       DebertaPosition p;
       p.bucket_size = k.deberta_buckets;
       p.max_position = k.deberta_max_position;
       const int64_t span = deberta_span(p.bucket_size, p.max_position);
       p.pos_key = seeded_normal_matrix(2 * span, d, sub_seed(k.seed, 5), 1.0);
       p.pos_query = seeded_normal_matrix(2 * span, d, sub_seed(k.seed, 6), 1.0);
       return p;
     },
     false,
     [](const ScoresKeys& k, int i, int j) {
       return printed("DeBERTa delta = log-bucket(i - j) = %lld",
                      static_cast<long long>(deberta_relative_position(i, j, k.deberta_buckets, k.deberta_max_position)));
     }},
    {ScoresScheme::Xl, name_of(PositionSchemeKind::Xl), "Transformer-XL (4 terms)",
     "eᵢⱼ = (qᵢ·kⱼ + qᵢ·W_R R₍ᵢ₋ⱼ₎ + u·kⱼ + v·W_R R₍ᵢ₋ⱼ₎) / √d",
     "Transformer-XL's four terms: content, content-position, a global content bias and a global position bias.",
     [](const ScoresKeys&) -> std::vector<const char*> { return {"base"}; }, no_note,
     [](const ScoresKeys& k, int d, const std::optional<RopePosition>&) -> PositionScheme {
       XlPosition p;
       p.u = seeded_normal_matrix(d, 1, sub_seed(k.seed, 7), 1.0).col(0);
       p.v = seeded_normal_matrix(d, 1, sub_seed(k.seed, 8), 1.0).col(0);
       p.r_proj = seeded_normal_matrix(d, d, sub_seed(k.seed, 9), 1.0 / std::sqrt(double(d)));
       p.base = k.base;
       return p;
     },
     false, [](const ScoresKeys&, int i, int j) { return printed("R_(i-j) with i - j = %d", i - j); }},
    {ScoresScheme::Learned, name_of(PositionSchemeKind::Learned), "learned relative bias",
     "eᵢⱼ = qᵢ · kⱼ / √d + b[clip(j − i, −K, K)]  (Embedding(2K+1, heads))",
     "A learned bias per clipped distance j - i is added to the dot product.",
     [](const ScoresKeys&) -> std::vector<const char*> { return {"clip"}; }, no_note,
     [](const ScoresKeys& k, int, const std::optional<RopePosition>&) -> PositionScheme {
       return LearnedBiasPosition{relative_bias_table(k.clip, 1, sub_seed(k.seed, 10)), 0};
     },
     false, clip_bucket},
};
constexpr size_t kSchemeCount = std::size(kSchemes);
constexpr bool in_enum_order() {
  for (size_t i = 0; i < kSchemeCount; ++i)
    if (kSchemes[i].scheme != ScoresScheme(i)) return false;
  return true;
}
static_assert(in_enum_order() && kSchemeCount == size_t(ScoresScheme::Learned) + 1, "kSchemes: one row per scheme, in order");

template <class Field>
std::array<const char*, kSchemeCount> scheme_column(Field field) {
  std::array<const char*, kSchemeCount> out{};
  for (size_t i = 0; i < kSchemeCount; ++i) out[i] = kSchemes[i].*field;
  return out;
}

constexpr const char* kContentNames[] = {"random", "constant"};
constexpr auto kScalingNames = names_of<RopeScalingType>().first(size_t(RopeScalingType::Longrope));

}  // namespace

const ScoresSchemeRow& scores_scheme(ScoresScheme s) { return kSchemes[size_t(s)]; }
std::span<const char* const> scores_scheme_names() {
  static const auto names = scheme_column(&ScoresSchemeRow::name);
  return names;
}
std::span<const char* const> scores_scheme_labels() {
  static const auto labels = scheme_column(&ScoresSchemeRow::label);
  return labels;
}
std::span<const char* const> scores_content_names() { return kContentNames; }
std::span<const char* const> scores_scaling_names() { return kScalingNames; }

std::string term_figure(const std::string& name) {
  std::string rest = name;
  if (rest.size() > 4 && rest[0] == '(' && rest[2] == ')') rest = rest.substr(4);
  std::vector<std::string> words;
  std::string word;
  for (char ch : rest + " ") {
    if (ch == ' ') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_') {
      word += char(std::tolower(static_cast<unsigned char>(ch)));
    }
  }
  if (words.empty()) return "term";
  if (words[0].find('-') != std::string::npos || words.size() == 1) return words[0];
  return words[0] + "-" + words[1];
}

// [SECTION] keys and layers

int ScoresKeys::shown_head() const { return std::clamp(head, 0, heads - 1); }
double ScoresKeys::alibi_slope() const { return alibi_slopes(heads)[size_t(shown_head())]; }

LayerMask ScoresModel::layer_mask(const LayerSpec* l) const {
  LayerMask m;
  if (!l || keys.scheme == ScoresScheme::Sinusoidal) return m;
  if (l->attention == LayerAttention::Sliding || l->attention == LayerAttention::Compressed)
    m.kind = MaskKind::Sliding, m.window = l->window;
  if (l->attention == LayerAttention::Chunked) m.kind = MaskKind::Chunked, m.window = l->window;
  if (l->sinks) m.sink = keys.sink_logit;
  return m;
}

bool ScoresModel::rope_dropped(const LayerSpec* l) const {
  return keys.scheme == ScoresScheme::Rope && (keys.drop_rope || (l && !l->rope));
}

std::string ScoresModel::layer_text(const LayerSpec* l, int layer_count) const {
  if (!l) return "";
  // Drawn only (never exported): composed in the interface's language, as one text: the first template
  // takes the rest (each part already in the language) as its {2}.
  std::string t;
  switch (l->attention) {
    case LayerAttention::Full: t += tr("full attention"); break;
    case LayerAttention::Sliding:
      t += l->causal ? trf("sliding window W = {0} (query i sees keys i - W < j <= i)", {std::to_string(l->window)})
                     : trf("bidirectional window W = {0} (query i sees keys |i - j| <= W)", {std::to_string(l->window)});
      break;
    case LayerAttention::Chunked:
      t += trf("chunked C = {0} (keys j <= i in the query's chunk floor(j / C) = floor(i / C))", {std::to_string(l->window)});
      break;
    case LayerAttention::Linear: t += tr("linear attention (no softmax scores)"); break;
    case LayerAttention::Compressed:
      t += trf("compressed: sliding window W = {0} drawn (its pooled keys, one per {1}, not modelled)",
               {std::to_string(l->window), std::to_string(l->ratio)});
      break;
    case LayerAttention::None: t += trf("no token mixing ({0}: no scores)", {l->reason}); break;
  }
  if (l->attention != LayerAttention::Linear && l->attention != LayerAttention::None)
    t += tr(l->causal ? ", causal" : ", bidirectional (no causal mask)");
  if (!l->stack.empty()) t += trf(", {0} stack", {l->stack});
  if (!l->key_selection.kind.empty())
    t += trf(", keys selected per query ({0} {1}: not modelled, every key the mask allows is drawn)",
             {l->key_selection.kind, std::to_string(l->key_selection.top_k)});
  t += l->rope ? (l->rope_key.empty() ? std::string(tr(", RoPE")) : trf(", RoPE ({0})", {l->rope_key}))
               : std::string(tr(", NoPE (no rotation)"));
  if (l->rope && keys.drop_rope && keys.scheme == ScoresScheme::Rope) t += tr(" dropped");
  if (l->sinks) t += trf(", attention sink: an extra softmax column with logit s = {0}", {format_number(keys.sink_logit)});
  const std::string qs = query_scale_text(l);
  if (!qs.empty()) t += tr("; ") + qs;
  return trf("layer {0} of {1}: {2}", {std::to_string(keys.layer), std::to_string(layer_count), t});
}

// The layer's query scale: its rule and its values over the shown rows (drawn only: in the interface's language).
std::string ScoresModel::query_scale_text(const LayerSpec* l) const {
  if (!l || l->query_scale.rule == QueryScale::Rule::None || query_scales_.empty()) return "";
  const QueryScale& q = l->query_scale;
  std::string t = q.rule == QueryScale::Rule::Llama4Temperature
                      ? trf("query scale s_p = log(floor((p + 1) / {0}) + 1) * {1} + 1 (Llama 4 attn_temperature_tuning)",
                            {format_number(q.floor_scale), format_number(q.attn_scale)})
                      : trf("query scale s_p = 1 + {0} ln(1 + floor(p / {1})) (llama_4_scaling_beta)",
                            {format_number(q.beta), std::to_string(q.original_max_position_embeddings)});
  const double first = query_scales_.front(), last = query_scales_.back();
  const int n = int(query_scales_.size());
  if (first == last) return trf("{0}: s = {1} on every row p = 0..{2}", {t, format_number(first), std::to_string(n - 1)});
  return trf("{0}: per row, from s = {1} at p = 0 to {2} at p = {3}",
             {t, format_number(first), format_number(last), std::to_string(n - 1)});
}

// [SECTION] filling from a model

// The model's scheme and its numbers into the keys. What the keys cannot hold (LongRoPE's factors, other
// layer types, a softmax factor beyond 1/sqrt(d), learned absolute tables) is a notice naming `model`.
ModelFill ScoresModel::fill_from_model(const ModelPosition& m) {
  ModelFill f;
  ScoresKeys& k = keys;
  const std::string name = m.model_type.empty() ? std::string("the model") : m.model_type;
  auto clamped = [&](const char* what, double v, double lo, double hi) {
    if (v < lo || v > hi)
      f.gap(name + "'s " + what + " " + format_number(v) + " is outside the scores view's range [" + format_number(lo) + ", " +
            format_number(hi) + "]: shown at " + format_number(std::clamp(v, lo, hi)) + ".");
    return std::clamp(v, lo, hi);
  };
  // d: the width of the heads the keys' RoPE rotates (Gemma 4's full_attention layers: global_head_dim 512, not
  // head_dim 256), else head_dim.
  const bool own_width = m.position == PositionKind::Rope && m.rope && rope_head_dim(m, *m.rope) != m.head_dim;
  const int width = m.position == PositionKind::Rope && m.rope ? rope_head_dim(m, *m.rope) : m.head_dim;
  const char* width_name = own_width ? "full_attention head width" : "head_dim";
  k.d = int(clamped(width_name, width, 2, kMaxWidth));
  if (k.d % 2) {
    f.gap(name + "'s " + width_name + " " + std::to_string(width) + " is odd: the scores view's width d is even, shown at " +
          std::to_string(k.d - 1) + ".");
    k.d -= 1;
  }
  f.keys = {"scheme", "d"};
  const double plain = 1.0 / std::sqrt(double(width));
  switch (m.position) {
    case PositionKind::Rope: {
      const ModelRope& r = *m.rope;
      const RopeScaling& s = r.scaling;
      k.scheme = ScoresScheme::Rope;
      k.base = clamped("base", r.base, kBaseMin, kBaseMax);
      k.rotary_dim = r.rotary_dim >= width ? 0 : std::min(r.rotary_dim, k.d);
      k.layout = r.layout;
      const bool no_keys = s.type == RopeScalingType::Longrope || s.type == RopeScalingType::Proportional;
      k.scaling = no_keys ? RopeScalingType::None : s.type;
      f.keys.insert(f.keys.end(), {"base", "rotary_dim", "layout", "scaling"});
      if (k.scaling != RopeScalingType::None) {
        k.factor = clamped("factor", s.factor, 1.0, kMaxFactor);
        k.orig = int(clamped("original length", double(s.original_max_position_embeddings), 1, kMaxLength));
        f.keys.insert(f.keys.end(), {"factor", "orig"});
      }
      RopeScaling shown = s;
      shown.type = k.scaling;  // the keys of the scaling the view shows (none for LongRoPE and p-RoPE)
      k.extra.fill(shown, f.keys);
      if (s.type == RopeScalingType::Longrope)
        f.gap(name + " uses LongRoPE: per-pair short/long factors (" + std::to_string(s.short_factor.size()) +
              " each), which the scores view has no keys for: it shows unscaled RoPE. view=model shows LongRoPE "
              "exactly.");
      if (s.type == RopeScalingType::Proportional)
        f.gap(name +
              " uses proportional RoPE (zero frequencies beyond a fraction of the pairs), which the scores "
              "view has no keys for: it shows unscaled RoPE. view=model shows it exactly.");
      if (!m.layers.empty())
        f.gap(name +
              " has layer types with their own RoPE: the keys show the full_attention layers'; a layer of another "
              "type (layer=<i>) is scored with its own RoPE while the keys hold the model's.");
      if (std::abs(r.softmax_scale - plain) > 1e-12 * plain)
        f.gap(name + " multiplies q.k by " + format_number(r.softmax_scale) + " = " + format_number(r.softmax_scale / plain) +
              " / sqrt(head_dim): the scores view scales by 1/sqrt(d) only.");
      break;
    }
    case PositionKind::Alibi:
      k.scheme = ScoresScheme::Alibi;
      k.heads = int(clamped("head count", double(m.alibi_slopes.size()), 1, kMaxHeadCount));
      k.head = 0;
      f.keys.insert(f.keys.end(), {"heads", "head"});
      break;
    case PositionKind::T5:
      k.scheme = ScoresScheme::T5;
      k.t5_buckets = int(clamped("num_buckets", m.t5_num_buckets, 4, 256)) & ~1;
      k.t5_max_distance = int(clamped("max_distance", double(m.t5_max_distance), 2, 4096));
      k.causal = !m.t5_bidirectional;
      f.keys.insert(f.keys.end(), {"buckets", "max_distance", "causal"});
      if (k.t5_buckets != m.t5_num_buckets)
        f.gap(name + "'s num_buckets " + std::to_string(m.t5_num_buckets) + " is not an even count in [4, 256].");
      break;
    case PositionKind::Deberta:
      k.scheme = ScoresScheme::Deberta;
      if (m.deberta_bucket_size < 1)
        f.gap(name +
              " does not bucket relative positions (position_buckets <= 0), which the scores view always "
              "does: shown with bucket_size = max_position.");
      k.deberta_max_position = int(clamped("max_position", double(m.deberta_max_position), 4, 4096));
      k.deberta_buckets = int(
          clamped("bucket_size", double(m.deberta_bucket_size < 1 ? k.deberta_max_position : m.deberta_bucket_size), 2, 1024));
      f.keys.insert(f.keys.end(), {"deberta_buckets", "deberta_max_position"});
      break;
    case PositionKind::Learned:
      k.scheme = ScoresScheme::Sinusoidal;
      f.gap(name + " learns its absolute position vectors (a table of " + std::to_string(m.learned_max_position_embeddings) +
            " trained rows that posenc does not have): the scores view shows the same four terms with the sinusoidal "
            "table in its place.");
      break;
    case PositionKind::None: k.scheme = ScoresScheme::None; break;
  }
  k.head = std::min(k.head, k.heads - 1);
  k.layer = std::clamp(k.layer, 0, std::max(0, int(m.per_layer.size()) - 1));
  // The mask is the layer's direction: causal for a decoder's layers (their sliding windows, chunks and sinks
  // are defined over it), none for an encoder's (ModernBERT, BERT, T5's encoder stack).
  if (!m.per_layer.empty()) {
    const LayerSpec& l = m.per_layer[size_t(k.layer)];
    k.causal = l.causal;
    if (std::find(f.keys.begin(), f.keys.end(), "causal") == f.keys.end()) f.keys.push_back("causal");
    if (!l.key_selection.kind.empty())
      f.gap(name + " attends only to the keys its " + l.key_selection.kind + " selection keeps (" +
            std::to_string(l.key_selection.top_k) +
            " per query): posenc does not have the indexer's weights, so every key the mask allows is drawn.");
  }
  if (m.rope && !m.rope->mrope_section.empty())
    f.gap(name +
          " uses M-RoPE (sections over t, h, w positions): the scores view's tokens are text, t = h = w = p, "
          "which rotate exactly as 1-D RoPE.");
  return f;
}

// [SECTION] computing

// Token content x (n x d) and projections: the same q, k for every scheme, so schemes compare. They
// depend on n, d, seed and content only: kept across recomputes of the other keys (a dragged base or
// bucket count recomputes the scores, not the random draws and the n d^2 double products).
void ScoresModel::compute_content(int n, int d) {
  const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
  const std::array<int, 4> content_key{n, d, keys.seed, keys.content};
  if (content_key == content_key_ && content_x_.rows() == n) return;
  content_key_ = {};
  content_x_ = seeded_normal_matrix(n, d, sub_seed(keys.seed, 0), 1.0);
  if (keys.content == 1)
    for (int r = 1; r < n; ++r) content_x_.row(r) = content_x_.row(0);
  content_wq_ = seeded_normal_matrix(d, d, sub_seed(keys.seed, 1), inv_sqrt_d);
  content_wk_ = seeded_normal_matrix(d, d, sub_seed(keys.seed, 2), inv_sqrt_d);
  content_q_ = content_x_ * content_wq_;
  content_k_ = content_x_ * content_wk_;
  content_key_ = content_key;
}

void ScoresModel::compute(int n, int stride, const LayerSpec* layer, const RopePosition& rope) {
  computed_ = false;
  result_f_.reset();
  term_names_.clear();
  exact_rows_.clear();
  exact_kx_.resize(0, 0);
  exact_kp_.resize(0, 0);
  pictures_.clear();
  sink_tiles_.clear();
  const int d = keys.d;
  const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
  compute_content(n, d);
  Matrix q = content_q_;
  Matrix pe;
  AttentionSpec spec;
  rope_ = rope;
  // The layer: its mask and sink over the scores, its query scale on q's rows (Llama 4 multiplies
  // query_states by the scale before q.k).
  mask_ = layer_mask(layer);
  query_scales_.assign(size_t(n), 1.0);
  if (layer && keys.scheme != ScoresScheme::Sinusoidal && layer->query_scale.rule != QueryScale::Rule::None)
    for (int i = 0; i < n; ++i) {
      query_scales_[size_t(i)] = query_scale_at(layer->query_scale, i);
      q.row(i) *= query_scales_[size_t(i)];
    }

  // The grid of the pictures: every position, or while a drag is previewed every stride-th (and the last).
  std::vector<int> grid;
  for (int i = 0; i < n; i += stride) grid.push_back(i);
  if (grid.back() != n - 1) grid.push_back(n - 1);
  grid_pos_.assign(grid.begin(), grid.end());
  auto rows_of = [&](const Matrix& m) -> MatrixF {
    if (stride == 1) return m.cast<float>();
    return m(grid, Eigen::all).cast<float>();
  };

  // Under the causal mask alone the hidden cells are not computed: the job fills them with the pictures'
  // masked-cell marker (about half the work of a square job at any n).
  const bool fill_masked = keys.causal && !mask_.active();
  const std::optional<float> masked_fill = fill_masked ? std::optional<float>(kMaskedCell) : std::nullopt;
  const ScoresSchemeRow& row = scores_scheme(keys.scheme);
  if (!row.position) {  // sinusoidal: position vectors added to the tokens, absolute attention's four terms
    std::vector<int64_t> pos(n);
    std::iota(pos.begin(), pos.end(), int64_t{0});
    pe = sinusoidal_table(pos, d, keys.base);
    result_f_ =
        kernels::absolute_attention_f(rows_of(content_x_), rows_of(pe), content_wq_.cast<float>(), content_wk_.cast<float>(),
                                      inv_sqrt_d, keys.causal, kernels::Path::Best, masked_fill);
  } else {
    spec.causal = keys.causal;
    spec.position = row.position(keys, d, rope_dropped(layer) ? std::nullopt : std::optional<RopePosition>(rope));
    if (row.q_carries_scale) q *= inv_sqrt_d;
    result_f_ = kernels::attention_f(rows_of(q), rows_of(content_k_), grid_pos_, grid_pos_, spec, kernels::Path::Best, mask_,
                                     masked_fill);
  }
  x_ = content_x_;
  wq_ = content_wq_;
  wk_ = content_wk_;
  q_ = std::move(q);
  k_ = content_k_;
  pe_ = std::move(pe);
  spec_ = std::move(spec);
  computed_ = true;
  for (const kernels::TermF& t : result_f_->terms) term_names_.push_back(t.name);
  make_pictures(fill_masked);
}

// Pictures: the terms (when there is more than one), the total logits, the softmax weights.
void ScoresModel::make_pictures(bool masked) {
  kernels::AttentionF& r = *result_f_;
  auto add = [&](std::string title, std::string figure, std::string probe, MatrixF* values, bool weights) {
    pictures_.push_back(ScoresPicture{std::move(title), std::move(figure), std::move(probe), values, weights, masked});
  };
  if (r.terms.size() > 1)
    for (size_t i = 0; i < r.terms.size(); ++i)
      add(r.terms[i].name, term_figure(r.terms[i].name), "heatmap.scores.term" + std::to_string(i), &r.terms[i].values, false);
  // With a sink: the logits and weights get it as an extra last column (gpt-oss concatenates the sink
  // logit to each row before the softmax; its weight there is 1 - the row's sum).
  MatrixF* logits = &r.logits;
  MatrixF* weights = &r.weights;
  if (mask_.sink) {
    // One column, drawn ~1/24 of the keys wide so it can be seen (and hovered) beside many keys.
    const Eigen::Index rows = r.logits.rows(), cols = r.logits.cols(), wide = sink_cells();
    sink_tiles_.reserve(2);
    sink_tiles_.emplace_back(rows, cols + wide);
    sink_tiles_.emplace_back(rows, cols + wide);
    sink_tiles_[0].leftCols(cols) = r.logits;
    sink_tiles_[0].rightCols(wide).setConstant(float(*mask_.sink));
    sink_tiles_[1].leftCols(cols) = r.weights;
    for (Eigen::Index i = 0; i < rows; ++i)
      sink_tiles_[1].row(i).tail(wide).setConstant(float(1.0 - r.weights.row(i).cast<double>().sum()));
    logits = &sink_tiles_[0];
    weights = &sink_tiles_[1];
  }
  add(r.terms.size() > 1 ? "total logits (sum of the terms)" : "logits eᵢⱼ", "total", "heatmap.scores.logits", logits, false);
  add("softmax weights aᵢⱼ", "weights", "heatmap.scores.weights", weights, true);
}

void ScoresModel::release_pictures() {
  result_f_.reset();
  sink_tiles_.clear();
  for (ScoresPicture& p : pictures_) p.values = nullptr;
}

void ScoresModel::mask_picture(ScoresPicture& p) const {
  if (p.masked || !p.values) return;
  // In place: the float matrix becomes the texture's input, masked cells marked. A sink adds a last
  // column (never masked).
  const int n = int(grid_pos_.size());
  float* data = p.values->data();
  const size_t cols = size_t(p.values->cols());
  if (mask_.kind != MaskKind::Full) {  // the layer's sliding window or chunks (over the causal mask)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (!layer_mask_allows(mask_, keys.causal, grid_pos_[size_t(i)], grid_pos_[size_t(j)]))
          data[size_t(i) * cols + size_t(j)] = kMaskedCell;
  } else if (keys.causal) {  // keys after the query are masked
    for (int i = 0; i + 1 < n; ++i) std::fill(data + size_t(i) * cols + i + 1, data + size_t(i) * cols + n, kMaskedCell);
  }
  p.masked = true;
}

// [SECTION] exact values

AttentionResult ScoresModel::exact(int row) const {
  const int n = int(q_.rows());
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), int64_t{0});
  const bool sinusoidal = keys.scheme == ScoresScheme::Sinusoidal;
  if (row < 0) {
    if (sinusoidal) return absolute_attention(x_, pe_, wq_, wk_, nullptr, 1.0 / std::sqrt(double(keys.d)), keys.causal);
    return attention(q_, k_, nullptr, pos, pos, spec_, mask_);
  }
  const std::array<int64_t, 1> qpos{row};
  if (!sinusoidal) return attention(q_.row(row), k_, nullptr, qpos, pos, spec_, mask_);
  // absolute_attention's four terms for one query row (its products, in the same order).
  const double scale = 1.0 / std::sqrt(double(keys.d));
  if (exact_kx_.rows() != n) {  // the keys' projections: the same for every row of one computation
    exact_kx_ = x_ * wk_;
    exact_kp_ = pe_ * wk_;
  }
  const Matrix qx = x_.row(row) * wq_, qp = pe_.row(row) * wq_;
  const Matrix &kx = exact_kx_, &kp = exact_kp_;
  AttentionResult out;
  out.scale = scale;
  out.terms.push_back({term_names_.at(0), scale * (qx * kx.transpose())});
  out.terms.push_back({term_names_.at(1), scale * (qx * kp.transpose())});
  out.terms.push_back({term_names_.at(2), scale * (qp * kx.transpose())});
  out.terms.push_back({term_names_.at(3), scale * (qp * kp.transpose())});
  out.logits = out.terms[0].values + out.terms[1].values + out.terms[2].values + out.terms[3].values;
  if (keys.causal) apply_causal_mask(out.logits, qpos, pos);
  out.weights = softmax_rows(out.logits);
  return out;
}

const AttentionResult& ScoresModel::exact_row(int row) const {
  for (auto it = exact_rows_.begin(); it != exact_rows_.end(); ++it)
    if (it->first == row) {
      exact_rows_.splice(exact_rows_.begin(), exact_rows_, it);
      return it->second;
    }
  exact_rows_.emplace_front(row, exact(row));
  if (exact_rows_.size() > kCachedRows) exact_rows_.pop_back();  // never the row just asked for
  return exact_rows_.front().second;
}

void ScoresModel::export_tables(std::vector<ExportTable>& tables, const LayerSpec* layer) const {
  const int n = rows();
  // The whole matrix in double precision through the core (the pictures are float32).
  AttentionResult result = exact(-1);
  // Masked cells (key after query under the causal mask) are undefined in every tile.
  auto table = [&](std::string name, const Matrix& m) {
    return matrix_table(std::move(name), "query i", "key j", "i", n, n,
                        [&](int i, int j) { return result.masked(i, j) ? NAN : m(i, j); });
  };
  // Each term freed once its table holds it: the result and its tables are never both held whole.
  if (result.terms.size() > 1)
    for (AttentionTerm& t : result.terms) {
      tables.push_back(table("term: " + t.name, t.values));
      t.values = Matrix();
    }
  tables.push_back(table("logits", result.logits));
  tables.push_back(table("weights", result.weights));
  // The position numbers behind the picture: RoPE's frequencies (as the core computes them for these
  // positions), ALiBi's slope.
  if (keys.scheme == ScoresScheme::Rope) {
    std::vector<int64_t> pos(static_cast<size_t>(n));
    std::iota(pos.begin(), pos.end(), int64_t{0});
    const RopeFrequencies f =
        rope_frequencies(rope_.rotary_dim.value_or(keys.d), rope_.base, with_seq_len_from_positions(rope_.scaling, pos));
    ExportTable t{"rope: frequencies (" + std::string(name_of(rope_.layout)) + ", attention_scaling " +
                      format_number(f.attention_scaling) + ")",
                  "pair k",
                  "inv_freq",
                  {"pair", "inv_freq"},
                  {}};
    for (size_t k = 0; k < f.inv_freq.size(); ++k) t.rows.push_back({double(k), f.inv_freq[k]});
    tables.push_back(std::move(t));
  } else if (keys.scheme == ScoresScheme::Alibi) {
    tables.push_back(ExportTable{"alibi: slope",
                                 "",
                                 "",
                                 {"heads", "head", "slope"},
                                 {{double(keys.heads), double(keys.shown_head()), keys.alibi_slope()}}});
  }
  // The layer's extra softmax column and query scale, per query row.
  if (result.sink_weight) {
    ExportTable t{"sink: weight per query (logit s = " + format_number(*mask_.sink) + ")",
                  "query i",
                  "sink weight",
                  {"i", "sink_weight"},
                  {}};
    for (int i = 0; i < n; ++i) t.rows.push_back({double(i), (*result.sink_weight)[i]});
    tables.push_back(std::move(t));
  }
  if (layer && layer->query_scale.rule != QueryScale::Rule::None && !query_scales_.empty()) {
    ExportTable t{"query scale per position", "query i", "s_i", {"i", "query_scale"}, {}};
    for (int i = 0; i < n; ++i) t.rows.push_back({double(i), query_scales_[size_t(i)]});
    tables.push_back(std::move(t));
  }
}

}  // namespace posenc::app
