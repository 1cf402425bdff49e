#include "inspect.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "command.h"
#include "core/analysis/rope_analysis.h"
#include "core/models/gguf.h"
#include "core/analysis/model_compare.h"
#include "core/models/model_families.h"
#include "core/models/rope_assembly.h"
#include "core/bounds.h"
#include "core/number_text.h"
#include "core/text_split.h"
#include "model_io/config_json.h"
#include "model_io/weights_session.h"

namespace posenc::cli {
namespace {

std::vector<uint8_t> read_prefix(const std::string& path, std::size_t limit, bool& whole) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument("file", "cannot read '" + path + "'");
  // In pieces, never the whole limit up front: a config.json is a few KiB, the GGUF header limit 64 MiB
  // (zeroing that cost every inspect ~0.2 s).
  std::vector<uint8_t> bytes;
  char piece[1 << 16];
  while (bytes.size() < limit && in) {
    in.read(piece, static_cast<std::streamsize>(std::min(sizeof(piece), limit - bytes.size())));
    bytes.insert(bytes.end(), piece, piece + in.gcount());
  }
  whole = in.peek() == std::char_traits<char>::eof();
  return bytes;
}

void rope_lines(std::ostringstream& o, const ModelRope& r, int head_dim, const std::string& indent) {
  const RopeScaling& s = r.scaling;
  o << indent << "rotary dims      " << rope_width_text(r, head_dim) << "\n";
  o << indent << "base (theta)     " << significant(r.base) << "\n";
  o << indent << "rope_type        " << rope_type_name(s.type);
  if (s.type != RopeScalingType::None) o << ", factor " << significant(s.factor);
  if (s.type == RopeScalingType::Yarn)
    o << ", beta_fast " << significant(s.beta_fast) << ", beta_slow " << significant(s.beta_slow)
      << (s.truncate ? "" : ", truncate false");
  if (s.type == RopeScalingType::Llama3)
    o << ", low_freq_factor " << significant(s.low_freq_factor) << ", high_freq_factor " << significant(s.high_freq_factor);
  if (s.type == RopeScalingType::Longrope)
    o << ", " << (r.frequencies.long_factors ? "long" : "short") << " factors (long iff seq_len > "
      << s.original_max_position_embeddings << ")";
  o << "\n";
  o << indent << "lengths          max_position_embeddings " << r.max_position_embeddings << ", original "
    << r.original_max_position_embeddings << "\n";
  o << indent << "cos/sin scale    " << significant(r.frequencies.attention_scaling) << " (attention_factor";
  if (s.mscale || s.mscale_all_dim)
    o << "; mscale " << significant(s.mscale.value_or(0)) << ", mscale_all_dim " << significant(s.mscale_all_dim.value_or(0));
  o << ")\n";
  o << indent << "softmax scale    " << significant(r.softmax_scale)
    << " (1/sqrt(head_dim) = " << significant(1.0 / std::sqrt(head_dim)) << "), from ";
  for (std::size_t i = 0; i < r.softmax_scale_from.size(); ++i) o << (i ? " x " : "") << r.softmax_scale_from[i];
  o << (r.softmax_scale_from.empty() ? "1\n" : "\n");
  // What the pairs do (the core's pair_behaviour) at a length, with the frequencies in force at that length
  // whatever --seq-len chose: LongRoPE past its original length twice, its short factors at the original
  // length and its long ones at the max; dynamic NTK with its base rescaled at the max.
  const std::vector<double> plain = rope_unscaled_inv_freq(r.rotary_dim, r.base, s);
  const int64_t trained = r.original_max_position_embeddings, switch_at = s.original_max_position_embeddings;
  auto pairs_line = [&](int64_t length, const char* factors) {
    const std::vector<double> inv = inv_freq_at_length(r.rotary_dim, r.base, s, length, r.frequencies.inv_freq);
    const PairBehaviourCounts counts = count_pair_behaviours(plain, inv, trained, length);
    std::ostringstream head;
    head << "pairs at " << length << (*factors ? std::string(" (") + factors + ")" : std::string());
    o << indent << head.str() << std::string(head.str().size() < 17 ? 17 - head.str().size() : 1, ' ');
    o << pair_behaviour_counts_text(counts, length, trained);
    o << "\n";
  };
  if (s.type == RopeScalingType::Longrope && r.max_position_embeddings > switch_at) {
    pairs_line(std::min(trained, switch_at), "short factors");
    pairs_line(r.max_position_embeddings, "long factors");
  } else {
    pairs_line(r.max_position_embeddings, "");
  }
  if (!r.mrope_section.empty())
    o << indent << "M-RoPE sections  t " << r.mrope_section[0] << ", h " << r.mrope_section[1] << ", w " << r.mrope_section[2]
      << " pairs (" << (r.mrope_interleaved ? "interleaved, Qwen3-VL" : "contiguous, Qwen2-VL") << ")\n";
}

// The layer pattern in short, then one line per run of equal layers ("0-2  sliding 128, rope") when the runs
// are few (per_layer of the model op).
void layer_lines(std::ostringstream& o, const ModelPosition& m) {
  auto describe = [](const LayerSpec& l) {
    std::string d = layer_attention_name(l.attention);
    if (l.attention == LayerAttention::Compressed)
      d += " " + std::to_string(l.ratio) + " (window " + std::to_string(l.window) + ")";
    else if (l.window > 0) d += " " + std::to_string(l.window);
    if (!l.mixer.empty()) d += " " + l.mixer;
    if (l.attention == LayerAttention::None && !l.reason.empty()) d += " (" + l.reason + ")";
    if (!l.parallel_mixer.empty()) d += " + " + l.parallel_mixer;
    const bool mixes = l.attention != LayerAttention::Linear && l.attention != LayerAttention::None;
    if (mixes && l.scheme != PositionKind::Rope && l.scheme != PositionKind::None)
      d += std::string(", ") + position_kind_name(l.scheme);
    else d += l.rope ? ", rope" : ", no position";
    if (!l.rope_key.empty()) d += " (" + shown_text(l.rope_key, std::string::npos) + ")";
    if (mixes) d += l.causal ? ", causal" : ", bidirectional";
    if (!l.key_selection.kind.empty())
      d += ", keys " + l.key_selection.kind + " top " + std::to_string(l.key_selection.top_k) +
           (l.key_selection.block ? " blocks of " + std::to_string(l.key_selection.block) : "");
    if (!l.stack.empty()) d = l.stack + ": " + d;
    if (l.query_scale.rule != QueryScale::Rule::None)
      d += ", query scale " + std::string(query_scale_rule_name(l.query_scale.rule));
    if (l.sinks) d += ", sinks";
    return d;
  };
  o << "layers           " << m.per_layer.size() << ": " << layer_pattern_text(m.per_layer) << "\n";
  std::vector<std::pair<std::string, std::pair<std::size_t, std::size_t>>> runs;
  for (std::size_t i = 0; i < m.per_layer.size();) {
    const std::string d = describe(m.per_layer[i]);
    std::size_t j = i;
    while (j + 1 < m.per_layer.size() && describe(m.per_layer[j + 1]) == d) ++j;
    runs.push_back({d, {i, j}});
    i = j + 1;
  }
  if (runs.size() > 12) return;  // the pattern line says it
  for (const auto& [d, r] : runs)
    o << "  " << r.first << (r.second > r.first ? "-" + std::to_string(r.second) : "") << "  " << d << "\n";
}

}  // namespace

ModelPosition inspect_file(const std::string& path, std::optional<int64_t> seq_len) {
  bool whole = false;
  const std::vector<uint8_t> bytes = read_prefix(path, model_io::kMaxGgufHeaderBytes, whole);
  if (bytes.size() >= 4 && std::equal(bytes.begin(), bytes.begin() + 4, "GGUF")) {
    try {
      return read_gguf_model(read_gguf_header(bytes), seq_len);
    } catch (const GgufTruncated& e) {
      // The header (metadata and tensor infos) goes on past the bytes read.
      if (!whole)
        throw InvalidArgument("gguf", "the GGUF header is larger than " + std::to_string(model_io::kMaxGgufHeaderBytes >> 20) +
                                          " MiB (" + std::string(e.what()) + ")");
      throw;
    }
  }
  if (!whole || bytes.size() > model_io::kMaxConfigBytes)
    throw InvalidArgument("file", "'" + path + "' is neither a GGUF file nor a config.json of at most " +
                                      std::to_string(model_io::kMaxConfigBytes >> 20) + " MiB");
  const std::string text(bytes.begin(), bytes.end());
  return read_hf_config(model_io::parse_config_text(text), seq_len);
}

// A name from the file (model_type, a layer type, a key) as the text output prints it: control characters
// escaped, \xNN, so a newline or an escape sequence in a name neither breaks the summary nor drives the terminal.
static std::string shown(const std::string& name) { return shown_text(name, std::string::npos); }

std::string inspect_summary(const ModelPosition& m) {
  std::ostringstream o;
  o << "model_type       " << shown(m.model_type) << (m.family.empty() ? std::string() : " (" + m.family + ")") << "\n";
  o << "position         " << position_kind_name(m.position) << "\n";
  o << "head_dim         " << m.head_dim << " (" << m.num_attention_heads << " heads";
  // A layer type whose heads are wider or narrower than head_dim (Gemma 4's full layers: global_head_dim).
  for (const auto& [name, r] : m.layers)
    if (rope_head_dim(m, r) != m.head_dim) o << "; '" << shown(name) << "' layers " << rope_head_dim(m, r) << " wide";
  o << ")\n";
  switch (m.position) {
    case PositionKind::Rope:
      if (m.layers.empty()) {
        rope_lines(o, *m.rope, rope_head_dim(m, *m.rope), "");
      } else {
        for (const auto& [name, r] : m.layers) {
          o << "layers '" << shown(name) << "':\n";
          rope_lines(o, r, rope_head_dim(m, r), "  ");
        }
      }
      break;
    case PositionKind::Alibi: {
      o << "alibi slopes     " << m.alibi_slopes.size() << " heads, from " << significant(m.alibi_slopes.front()) << " to "
        << significant(*std::min_element(m.alibi_slopes.begin(), m.alibi_slopes.end())) << "\n";
      break;
    }
    case PositionKind::T5:
      o << "t5 buckets       " << m.t5_num_buckets << ", max_distance " << m.t5_max_distance
        << (m.t5_bidirectional ? ", bidirectional (encoder)" : ", causal") << "\n";
      break;
    case PositionKind::Deberta:
      o << "deberta          bucket_size " << m.deberta_bucket_size << ", max_position " << m.deberta_max_position << "\n";
      break;
    case PositionKind::Learned: o << "learned table    " << m.learned_max_position_embeddings << " positions\n"; break;
    case PositionKind::None: break;
  }
  if (!m.per_layer.empty()) layer_lines(o, m);
  if (!m.unread_keys.empty()) {
    o << "unread keys      ";
    for (std::size_t i = 0; i < m.unread_keys.size(); ++i) o << (i ? ", " : "") << shown(m.unread_keys[i]);
    o << " (positional keys posenc does not model)\n";
  }
  for (const Assumption& a : m.assumptions)
    o << "assumed          " << shown(a.what) << " = " << shown(a.value) << " (" << shown(a.why) << ")\n";
  return o.str();
}

CLI::App* add_inspect_command(CLI::App& app, InspectOptions& options) {
  CLI::App* cmd =
      app.add_subcommand("inspect", "A model's positional encoding from config.json or a .gguf header (two: compared)");
  cmd->add_option("FILE", options.files, "config.json or .gguf file; a second one compares the two")->required()->expected(1, 2);
  cmd->add_flag("--json", options.json,
                "Print the `model` response (docs/cli.md) instead of the summary; two files: {a, b, differences}");
  cmd->add_option("--seq-len", options.seq_len, "Current sequence length (dynamic NTK, LongRoPE short/long)");
  cmd->add_option("--target-len", options.target_len,
                  "Two files: count extrapolated pairs at this length (default: the larger max length)");
  return cmd;
}

namespace {

int run_compare(const InspectOptions& options, const std::optional<int64_t>& seq_len, std::ostream& out) {
  const ModelPosition a = inspect_file(options.files[0], seq_len);
  const ModelPosition b = inspect_file(options.files[1], seq_len);
  // The Model view's compare= uses the same length (compare_length) unless --target-len says another.
  int64_t target = options.target_len;
  if (target == 0) target = compare_length(a, b);
  if (target < 1 || target > kMaxLength) throw InvalidArgument("target_len", "--target-len must be in [1, 2^30]");
  const std::vector<ModelDifference> diffs = compare_models(a, b, target);
  if (options.json) {
    nlohmann::ordered_json o;
    o["a"] = model_io::model_position_json(a);
    o["b"] = model_io::model_position_json(b);
    o["differences"] = model_io::differences_json(diffs);
    out << o.dump() << "\n";
    return 0;
  }
  out << "A: " << options.files[0] << "\n" << inspect_summary(a) << "\nB: " << options.files[1] << "\n" << inspect_summary(b);
  out << "\ndifferences (A vs B; extrapolated pairs at " << target << ")\n";
  out << (diffs.empty() ? std::string("  none\n") : differences_text(diffs));
  return 0;
}

}  // namespace

int run_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
  return run_command(err, "reading the model", "internal error: ", [&] {
    std::optional<int64_t> seq_len;
    if (options.seq_len != 0) seq_len = options.seq_len;
    if (options.files.size() == 2) {
      run_compare(options, seq_len, out);
      return flushed(out, err, "the output");
    }
    const ModelPosition m = inspect_file(options.files.at(0), seq_len);
    if (options.json) out << model_io::model_position_json(m).dump() << "\n";
    else out << inspect_summary(m);
    return flushed(out, err, "the output");
  });
}

CLI::App* add_families_command(CLI::App& app, FamiliesOptions& options) {
  CLI::App* cmd = app.add_subcommand("families", "The model families posenc reads by their reference (data/model_families.json)");
  cmd->add_flag("--markdown", options.markdown, "The table as docs/models.md carries it");
  return cmd;
}

int run_families(const FamiliesOptions& options, std::ostream& out) {
  if (options.markdown) {
    out << model_families_markdown();
  } else {
    for (const ModelFamily& f : model_families()) {
      out << f.family << ":";
      for (const std::string& t : f.model_types) out << " " << t;
      out << "\n";
    }
  }
  return out.good() ? 0 : 1;
}

}  // namespace posenc::cli
