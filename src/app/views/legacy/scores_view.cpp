#include "app/views/scores_view.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "app/controls.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "core/absolute_attention.h"
#include "core/alibi.h"
#include "core/deberta.h"
#include "core/relative_bias.h"
#include "core/rng.h"
#include "core/shaw.h"
#include "core/sinusoidal.h"
#include "core/t5.h"

namespace posenc::app {
namespace {

const char* const kSchemeNames[] = {"none", "sinusoidal", "rope", "t5", "alibi", "shaw", "deberta", "xl", "learned"};
const char* const kSchemeLabels[] = {"none (NoPE)",          "sinusoidal absolute (4 terms)",
                                     "RoPE",                 "T5 bucketed bias",
                                     "ALiBi",                "Shaw relative (keys)",
                                     "DeBERTa (c2p, p2c)",   "Transformer-XL (4 terms)",
                                     "learned relative bias"};
static_assert(std::size(kSchemeNames) == ScoresView::kSchemeCount);
const char* const kContentNames[] = {"random", "constant"};

Matrix seeded_normal(Eigen::Index rows, Eigen::Index cols, uint64_t seed, double stddev) {
  NormalRng rng(seed);
  Matrix m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = stddev * rng.normal();
  return m;
}

// Seeds of the different random tables drawn from one user seed.
uint64_t sub_seed(int seed, uint64_t which) { return uint64_t(seed) * 1000003ull + which; }

bool slider_even(const char* label, int& value, int lo, int hi, const char* fmt) {
  int v = value;
  if (!ImGui::SliderInt(label, &v, lo, hi, fmt, ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    return false;
  v = std::max(lo, v - v % 2);
  if (v == value) return false;
  value = v;
  return true;
}

}  // namespace

const char* ScoresView::caption() const {
  switch (scheme_) {
    case None: return "e_ij = q_i . k_j / sqrt(d), a_ij = softmax_j(e_ij): no position at all (NoPE)";
    case Sinusoidal:
      return "(x_i+p_i)W_Q . (x_j+p_j)W_K / sqrt(d) = content-content + content-position + position-content + "
             "position-position";
    case Rope: return "e_ij = (R_i q_i) . (R_j k_j) / sqrt(d) = q_i . R_(j-i) k_j / sqrt(d): depends on j - i only";
    case T5: return "e_ij = q_i . k_j + b[bucket(j - i)]  (no 1/sqrt(d): T5 folds it into W_Q's init)";
    case Alibi: return "e_ij = q_i . k_j / sqrt(d) - m_h |i - j|,  m_h = 2^(-8(h+1)/H)";
    case Shaw: return "e_ij = q_i . (k_j + a^K[clip(j - i, -K, K)]) / sqrt(d)";
    case Deberta: return "e_ij = (q_i.k_j + q_i.k^r[delta(i,j)] + k_j.q^r[delta(i,j)]) / sqrt(3d): c2p + p2c, no p2p";
    case Xl: return "e_ij = (q_i.k_j + q_i.W_R R_(i-j) + u.k_j + v.W_R R_(i-j)) / sqrt(d)";
    case Learned: return "e_ij = q_i . k_j / sqrt(d) + b[clip(j - i, -K, K)]  (Embedding(2K+1, heads))";
    default: return "";
  }
}

bool ScoresView::draw_controls() {
  bool changed = false;
  ImGui::TextUnformatted("Scheme");
  changed |= ImGui::Combo("##scheme", &scheme_, kSchemeLabels, kSchemeCount);
  probe_last_item("combo.scheme");
  ImGui::TextUnformatted("Sequence length n");
  changed |= ImGui::SliderInt("##n", &n_, 1, kMaxN, "n = %d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.n");
  if (n_ > kMaxHeatmapN) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.3f, 1.0f));
    ImGui::TextWrapped("n capped at %d: the score heatmaps show the first %d positions.", kMaxHeatmapN, kMaxHeatmapN);
    ImGui::PopStyleColor();
  }
  ImGui::TextUnformatted("Width d (even)");
  changed |= slider_even("##d", d_, 2, kMaxD, "d = %d");
  probe_last_item("slider.d");
  ImGui::TextUnformatted("Token content");
  int content = constant_content_ ? 1 : 0;
  changed |= ImGui::RadioButton("random", &content, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("constant", &content, 1);
  constant_content_ = content == 1;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("All tokens identical: only the position terms vary.");
  ImGui::TextUnformatted("Seed");
  if (ImGui::InputInt("##seed", &seed_)) {
    seed_ = std::clamp(seed_, 0, 1000000);
    changed = true;
  }
  changed |= ImGui::Checkbox("causal mask", &causal_);
  probe_last_item("check.causal");
  changed |= ImGui::Checkbox("one colour scale for all terms", &shared_scale_);
  ImGui::Separator();
  switch (scheme_) {
    case Sinusoidal:
    case Rope:
    case Xl:
      changed |= base_slider(base_);
      break;
    case T5:
      ImGui::TextUnformatted("Buckets (per direction: half)");
      changed |= slider_even("##buckets", t5_buckets_, 4, 256, "buckets = %d");
      probe_last_item("slider.buckets");
      ImGui::TextUnformatted("Max distance");
      changed |= ImGui::SliderInt("##maxdist", &t5_max_distance_, 2, 4096, "max_distance = %d",
                                  ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
      probe_last_item("slider.max_distance");
      ImGui::TextDisabled(causal_ ? "causal: unidirectional buckets" : "bidirectional buckets");
      break;
    case Deberta:
      ImGui::TextUnformatted("Bucket size (position_buckets)");
      changed |= slider_even("##dbuckets", deberta_buckets_, 2, 1024, "buckets = %d");
      probe_last_item("slider.deberta_buckets");
      ImGui::TextUnformatted("Max relative positions");
      changed |= ImGui::SliderInt("##dmax", &deberta_max_position_, 4, 4096, "max = %d",
                                  ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
      probe_last_item("slider.deberta_max_position");
      break;
    case Shaw:
    case Learned:
      ImGui::TextUnformatted("Clip distance K");
      changed |= ImGui::SliderInt("##clip", &clip_, 0, 64, "K = %d", ImGuiSliderFlags_AlwaysClamp);
      probe_last_item("slider.clip");
      break;
    case Alibi:
      ImGui::TextUnformatted("Heads H");
      if (ImGui::SliderInt("##heads", &heads_, 1, 64, "H = %d", ImGuiSliderFlags_AlwaysClamp)) {
        head_ = std::min(head_, heads_ - 1);
        changed = true;
      }
      ImGui::TextUnformatted("Head h");
      changed |= ImGui::SliderInt("##head", &head_, 0, heads_ - 1, "h = %d", ImGuiSliderFlags_AlwaysClamp);
      probe_last_item("slider.head");
      ImGui::Text("slope m_h = %.10g", alibi_slopes(heads_)[head_]);
      break;
    default:
      break;
  }
  error_text(error_);
  if (changed) dirty_ = true;
  return changed;
}

void ScoresView::recompute() {
  dirty_ = false;
  error_.clear();
  result_.reset();
  const int n = shown_n(), d = d_;
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), int64_t{0});

  // Token content x (n x d) and projections: the same q, k for every scheme, so schemes compare.
  Matrix x = seeded_normal(n, d, sub_seed(seed_, 0), 1.0);
  if (constant_content_)
    for (int r = 1; r < n; ++r) x.row(r) = x.row(0);
  const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
  const Matrix wq = seeded_normal(d, d, sub_seed(seed_, 1), inv_sqrt_d);
  const Matrix wk = seeded_normal(d, d, sub_seed(seed_, 2), inv_sqrt_d);
  Matrix q = x * wq;
  const Matrix k = x * wk;

  try {
    if (scheme_ == Sinusoidal) {
      result_ = absolute_attention(x, sinusoidal_table(pos, d, base_), wq, wk, nullptr, inv_sqrt_d, causal_);
    } else {
      AttentionSpec spec;
      spec.causal = causal_;
      switch (scheme_) {
        case None: spec.position = NoPosition{}; break;
        case Rope: spec.position = RopePosition{base_, {}, RopeLayout::Half}; break;
        case T5: {
          T5Position t;
          t.bidirectional = !causal_;
          t.num_buckets = t5_buckets_;
          t.max_distance = t5_max_distance_;
          const Matrix b = seeded_normal(t5_buckets_, 1, sub_seed(seed_, 3), 1.0);
          t.bias.assign(b.data(), b.data() + b.size());
          spec.position = std::move(t);
          q *= inv_sqrt_d;  // T5 has no 1/sqrt(d) in the logits: its W_Q init carries it
          break;
        }
        case Alibi:
          alibi_slope_ = alibi_slopes(heads_)[head_];
          spec.position = AlibiPosition{alibi_slope_};
          break;
        case Shaw: {
          ShawPosition s;
          s.max_relative_position = clip_;
          s.key_table = shaw_random_table(clip_, d, sub_seed(seed_, 4));
          spec.position = std::move(s);
          break;
        }
        case Deberta: {
          DebertaPosition p;
          p.bucket_size = deberta_buckets_;
          p.max_position = deberta_max_position_;
          const int64_t span = deberta_span(p.bucket_size, p.max_position);
          p.pos_key = seeded_normal(2 * span, d, sub_seed(seed_, 5), 1.0);
          p.pos_query = seeded_normal(2 * span, d, sub_seed(seed_, 6), 1.0);
          spec.position = std::move(p);
          break;
        }
        case Xl: {
          XlPosition p;
          p.u = seeded_normal(d, 1, sub_seed(seed_, 7), 1.0).col(0);
          p.v = seeded_normal(d, 1, sub_seed(seed_, 8), 1.0).col(0);
          p.r_proj = seeded_normal(d, d, sub_seed(seed_, 9), inv_sqrt_d);
          p.base = base_;
          spec.position = std::move(p);
          break;
        }
        case Learned:
          spec.position = LearnedBiasPosition{relative_bias_table(clip_, 1, sub_seed(seed_, 10)), 0};
          break;
        default: break;
      }
      result_ = attention(q, k, nullptr, pos, pos, spec);
    }
  } catch (const InvalidArgument& e) {
    error_ = "Cannot compute (" + e.field() + "): " + e.what();
    result_.reset();
  }

  // Tiles: the terms (when there is more than one), the total logits, the softmax weights.
  std::vector<std::unique_ptr<HeatmapWidget>> pool;
  for (Tile& t : tiles_) pool.push_back(std::move(t.heatmap));
  tiles_.clear();
  if (!result_) return;
  auto add_tile = [&](std::string title, std::string probe, const Matrix* values, bool weights) {
    Tile t{std::move(title), std::move(probe), values, weights, 0, 1, nullptr};
    if (!pool.empty()) {
      t.heatmap = std::move(pool.back());
      pool.pop_back();
    } else {
      t.heatmap = std::make_unique<HeatmapWidget>();
    }
    tiles_.push_back(std::move(t));
  };
  if (result_->terms.size() > 1)
    for (size_t i = 0; i < result_->terms.size(); ++i)
      add_tile(result_->terms[i].name, "heatmap.scores.term" + std::to_string(i), &result_->terms[i].values, false);
  add_tile(result_->terms.size() > 1 ? "total logits (sum of the terms)" : "logits e_ij", "heatmap.scores.logits",
           &result_->logits, false);
  add_tile("softmax weights a_ij", "heatmap.scores.weights", &result_->weights, true);
  upload_pending_ = true;
}

void ScoresView::prepare() {
  if (dirty_) recompute();
}

void ScoresView::export_data(std::vector<ExportTable>& tables) const {
  if (!result_) return;
  const int n = shown_n();
  // Masked cells (key after query under the causal mask) are undefined in every tile.
  auto table = [&](std::string name, const Matrix& m) {
    return matrix_table(std::move(name), "query i", "key j", "i", n, n,
                        [&](int i, int j) { return result_->masked(i, j) ? NAN : m(i, j); });
  };
  if (result_->terms.size() > 1)
    for (const AttentionTerm& t : result_->terms) tables.push_back(table("term: " + t.name, t.values));
  tables.push_back(table("logits", result_->logits));
  tables.push_back(table("weights", result_->weights));
}

void ScoresView::upload_heatmaps() {
  upload_pending_ = false;
  if (!result_) return;
  const int n = shown_n();
  std::vector<float> buffer(size_t(n) * n);
  double shared_max = 0;
  for (Tile& t : tiles_) {
    double mx = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double v = (*t.values)(i, j);
        const bool masked = result_->masked(i, j);
        buffer[size_t(i) * n + j] = masked ? kMaskedCell : float(v);
        if (!masked && std::isfinite(v)) mx = std::max(mx, std::abs(v));
      }
    if (mx == 0) mx = 1;  // all-zero matrix: any non-empty range
    if (t.weights) {
      t.vmin = 0;
      t.vmax = float(mx);
    } else {
      t.vmin = -float(mx);
      t.vmax = float(mx);
      shared_max = std::max(shared_max, mx);
    }
    t.heatmap->map().set_values(buffer.data(), n, n);
  }
  if (shared_scale_)
    for (Tile& t : tiles_)
      if (!t.weights) t.vmin = -float(shared_max), t.vmax = float(shared_max);
}

std::string ScoresView::bucket_text(int i, int j) const {
  char buf[160];
  switch (scheme_) {
    case T5:
      std::snprintf(buf, sizeof buf, "T5 bucket(j - i) = %d of %d (%s)",
                    t5_bucket(j - i, !causal_, t5_buckets_, t5_max_distance_), t5_buckets_,
                    causal_ ? "causal" : "bidirectional");
      return buf;
    case Deberta:
      std::snprintf(buf, sizeof buf, "DeBERTa delta = log-bucket(i - j) = %lld",
                    static_cast<long long>(deberta_relative_position(i, j, deberta_buckets_, deberta_max_position_)));
      return buf;
    case Shaw:
    case Learned:
      std::snprintf(buf, sizeof buf, "clip(j - i, -%d, %d) = %d", clip_, clip_, std::clamp(j - i, -clip_, clip_));
      return buf;
    case Xl:
      std::snprintf(buf, sizeof buf, "R_(i-j) with i - j = %d", i - j);
      return buf;
    case Alibi:
      std::snprintf(buf, sizeof buf, "bias -m |i - j| with m = %.10g", alibi_slope_);
      return buf;
    default:
      return "";
  }
}

void ScoresView::draw_hover(int i, int j) const {
  if (!result_) return;
  ImGui::BeginTooltip();
  ImGui::Text("query i = %d, key j = %d, relative distance j - i = %d", i, j, j - i);
  const std::string bucket = bucket_text(i, j);
  if (!bucket.empty()) ImGui::TextUnformatted(bucket.c_str());
  ImGui::Separator();
  for (const AttentionTerm& t : result_->terms) ImGui::Text("%-40s %.17g", t.name.c_str(), t.values(i, j));
  ImGui::Separator();
  if (result_->masked(i, j)) {
    ImGui::TextUnformatted("total: masked (key after query), weight 0");
  } else {
    ImGui::Text("total logit e_ij = %.17g", result_->logits(i, j));
    ImGui::Text("weight a_ij     = %.17g", result_->weights(i, j));
  }
  ImGui::EndTooltip();
}

void ScoresView::draw_content(ImVec2 size) {
  prepare();
  if (upload_pending_) upload_heatmaps();
  if (n_ > kMaxHeatmapN) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.3f, 1.0f));
    ImGui::Text("n = %d is above the heatmap cap: showing positions 0..%d.", n_, kMaxHeatmapN - 1);
    ImGui::PopStyleColor();
    size.y -= ImGui::GetTextLineHeightWithSpacing();
  }
  if (tiles_.empty()) {
    ImGui::TextWrapped("%s", error_.empty() ? "Nothing to show." : error_.c_str());
    return;
  }
  // Grid with the largest square cells.
  const int count = int(tiles_.size());
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float extra_w = 140, extra_h = 60 + line;  // axes, colorbar, title around the square image
  int best_cols = 1;
  float best_side = -1;
  for (int cols = 1; cols <= count; ++cols) {
    const int rows = (count + cols - 1) / cols;
    const float side = std::min(size.x / cols - extra_w, size.y / rows - extra_h);
    if (side > best_side) best_side = side, best_cols = cols;
  }
  const int rows = (count + best_cols - 1) / best_cols;
  const float tile_w = size.x / best_cols, tile_h = size.y / rows;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  int hover_i = -1, hover_j = -1;
  for (int t = 0; t < count; ++t) {
    Tile& tile = tiles_[t];
    const ImVec2 at(origin.x + (t % best_cols) * tile_w, origin.y + (t / best_cols) * tile_h);
    ImGui::SetCursorScreenPos(at);
    ImGui::TextUnformatted(tile.title.c_str());
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + line));
    const HeatmapAxes axes{"key j", "query i", 0, 0};
    // Square cells: the image is as wide as it is tall (axes and colorbar take ~140 x 60 px around it).
    const float hm_h = tile_h - line - 4;
    const float hm_w = std::min(tile_w - 8, hm_h - 60 + 140);
    const HeatmapHover h = tile.heatmap->draw(tile.probe.c_str(), ImVec2(hm_w, hm_h), axes,
                                              tile.weights ? Colormap::Viridis : Colormap::Diverging, tile.vmin,
                                              tile.vmax);
    if (h.active) hover_i = h.row, hover_j = h.col;
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
  if (hover_i >= 0) draw_hover(hover_i, hover_j);
}

void ScoresView::save_state(StateMap& out) const {
  out["scheme"] = kSchemeNames[scheme_];
  out["n"] = std::to_string(n_);
  out["d"] = std::to_string(d_);
  out["seed"] = std::to_string(seed_);
  out["content"] = kContentNames[constant_content_ ? 1 : 0];
  out["causal"] = causal_ ? "1" : "0";
  out["shared"] = shared_scale_ ? "1" : "0";
  out["base"] = format_number(base_);
  out["buckets"] = std::to_string(t5_buckets_);
  out["max_distance"] = std::to_string(t5_max_distance_);
  out["deberta_buckets"] = std::to_string(deberta_buckets_);
  out["deberta_max_position"] = std::to_string(deberta_max_position_);
  out["clip"] = std::to_string(clip_);
  out["heads"] = std::to_string(heads_);
  out["head"] = std::to_string(head_);
}

void ScoresView::load_state(const StateMap& in, std::string& notices) {
  read_choice(in, "scheme", kSchemeNames, kSchemeCount, scheme_, notices);
  read_int(in, "n", 1, kMaxN, n_, notices);
  read_int(in, "d", 2, kMaxD, d_, notices);
  if (d_ % 2) {
    notices += "d must be even: using " + std::to_string(d_ - 1) + ". ";
    d_ -= 1;
  }
  read_int(in, "seed", 0, 1000000, seed_, notices);
  int content = constant_content_ ? 1 : 0;
  read_choice(in, "content", kContentNames, 2, content, notices);
  constant_content_ = content == 1;
  read_flag(in, "causal", causal_, notices);
  read_flag(in, "shared", shared_scale_, notices);
  read_double(in, "base", kBaseMin, kBaseMax, base_, notices);
  read_int(in, "buckets", 4, 256, t5_buckets_, notices);
  if (t5_buckets_ % 2) {
    notices += "buckets must be even: using " + std::to_string(t5_buckets_ - 1) + ". ";
    t5_buckets_ -= 1;
  }
  read_int(in, "max_distance", 2, 4096, t5_max_distance_, notices);
  read_int(in, "deberta_buckets", 2, 1024, deberta_buckets_, notices);
  read_int(in, "deberta_max_position", 4, 4096, deberta_max_position_, notices);
  read_int(in, "clip", 0, 64, clip_, notices);
  read_int(in, "heads", 1, 64, heads_, notices);
  read_int(in, "head", 0, 63, head_, notices);
  if (head_ >= heads_) {
    if (in.count("head")) notices += "head=" + std::to_string(head_) + " needs head < heads: using " + std::to_string(heads_ - 1) + ". ";
    head_ = heads_ - 1;
  }
  dirty_ = true;
}

}  // namespace posenc::app
