#include "eval.h"

#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "core/encodings/alibi.h"
#include "core/attention/attention.h"
#include "core/encodings/deberta.h"
#include "core/bounds.h"
#include "core/encodings/rope.h"
#include "core/encodings/sinusoidal.h"
#include "core/models/model_config.h"
#include "core/encodings/t5.h"
#include "core/analysis/rope_check.h"
#include "command.h"
#include "model_io/json_fields.h"
#include "model_io/check_json.h"
#include "model_io/check_request.h"
#include "model_io/config_json.h"
#include "model_io/json_request.h"
#include "model_io/rope_fields.h"

namespace posenc::cli {
namespace {

using model_io::Fields;
using model_io::parse_request;
using model_io::read_layout;
using model_io::read_scaling;

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// ---------------------------------------------------------------- input / output helpers

// Reads at most `limit` bytes; more is an error before anything is parsed.
std::string read_bounded(std::istream& in, std::size_t limit, const std::string& what, std::size_t known_size) {
  std::string text;
  // Known size: exactly that; unknown (a pipe): the limit, so the string never doubles past it.
  text.reserve(known_size ? known_size : limit + 1);
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    // Refused before appending past the limit (appending first would reallocate to twice the limit).
    if (text.size() + static_cast<std::size_t>(in.gcount()) > limit)
      throw InvalidArgument("", what + " is larger than " + std::to_string(limit >> 20) + " MiB");
    text.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  return text;
}

double finite(double x, const char* blame) {
  if (!std::isfinite(x)) throw InvalidArgument(blame, "the result is not finite: inputs too large");
  return x;
}

ojson matrix_json(const Matrix& m, const char* blame) {
  ojson rows = ojson::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    ojson row = ojson::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(finite(m(r, c), blame));
    rows.push_back(std::move(row));
  }
  return rows;
}

ojson vector_json(const std::vector<double>& v, const char* blame) {
  ojson a = ojson::array();
  for (double x : v) a.push_back(finite(x, blame));
  return a;
}

// ---------------------------------------------------------------- shared request pieces

// Core errors about "scaling.*", "base", "bias", ... are re-rooted under `prefix` (e.g. "position.").
template <class F>
auto under(const std::string& prefix, F&& f) {
  return rethrow_renamed(f, [&](const InvalidArgument& e) {
    if (prefix.empty() || e.field().rfind(prefix, 0) == 0) return e;
    return InvalidArgument(prefix + e.field(), e.what());
  });
}

int read_dim(const Fields& f) {
  const int64_t dim = f.integer("dim");
  require(dim >= 2 && dim <= kMaxDim, "dim", "dim must be in [2, 4096]");
  require(dim % 2 == 0, "dim", "dim must be even");
  return static_cast<int>(dim);
}

void check_positions(const std::vector<int64_t>& pos, const char* field) {
  for (int64_t p : pos)
    require(p >= -kMaxPosition && p <= kMaxPosition, field, std::string(field) + " must lie in [-10^6, 10^6]");
}

// Positions: one row ([p, ...]) or, for M-RoPE, three rows t, h, w ([[...], [...], [...]]).
struct Positions {
  std::vector<int64_t> t;              // the 1-D positions, or the t row
  std::optional<MropePositions> rows;  // set when three rows were given
};

Positions read_positions(const Fields& f, const char* key) {
  const json& v = f.raw().at(key);
  const std::string p = f.path(key);
  Positions out;
  if (v.is_array() && !v.empty() && v.front().is_array()) {
    if (v.size() != 3) throw InvalidArgument(p, p + " must be one row of integers, or three rows (t, h, w) for M-RoPE");
    MropePositions rows;
    for (std::size_t a = 0; a < 3; ++a) {
      if (!v[a].is_array()) throw InvalidArgument(p, p + " must be three arrays of integers (t, h, w)");
      if (v[a].size() > static_cast<std::size_t>(kMaxCells)) throw InvalidArgument(p, p + " is too long");
      for (const json& e : v[a]) {
        if (!e.is_number_integer()) throw InvalidArgument(p, p + " must be three arrays of integers (t, h, w)");
        rows[a].push_back(e.get<int64_t>());
      }
      if (rows[a].size() != rows[0].size()) throw InvalidArgument(p, p + " rows t, h, w must have the same length");
      check_positions(rows[a], p.c_str());
    }
    out.t = rows[0];
    out.rows = std::move(rows);
    return out;
  }
  out.t = f.int_array(key);
  return out;
}

// mrope_section / mrope_interleaved of a rope_apply request or a rope position: the axis of each pair.
std::vector<int> read_mrope_axes(const Fields& f, int rotary_dim, const std::string& prefix) {
  if (!f.has("mrope_section")) {
    f.forbid("mrope_interleaved", "a request without mrope_section");
    return {};
  }
  const std::vector<int64_t> sec = f.int_array("mrope_section");
  const std::string p = f.path("mrope_section");
  if (sec.size() != 3) throw InvalidArgument(p, p + " must have 3 entries (t, h, w)");
  std::vector<int> section;
  for (int64_t v : sec) {
    if (v < 0 || v > kMaxDim) throw InvalidArgument(p, p + " entries must be in [0, 4096]");
    section.push_back(static_cast<int>(v));
  }
  const bool interleaved = f.has("mrope_interleaved") ? f.boolean("mrope_interleaved") : false;
  return under(prefix, [&] { return rope_mrope_axes(section, rotary_dim / 2, interleaved); });
}

// ---------------------------------------------------------------- ops

ojson op_sinusoidal(const json& req) {
  const Fields f(req, "", {"op", "positions", "dim", "base"});
  const std::vector<int64_t> pos = f.int_array("positions");
  const int dim = read_dim(f);
  const double base = f.opt_number("base").value_or(10000.0);
  check_positions(pos, "positions");
  require(static_cast<int64_t>(pos.size()) * dim <= kMaxCells, "positions", "len(positions) * dim must be <= 2^24");
  return {{"values", matrix_json(sinusoidal_table(pos, dim, base), "positions")}};
}

ojson op_t5_bucket(const json& req) {
  const Fields f(req, "", {"op", "relative_positions", "bidirectional", "num_buckets", "max_distance"});
  const std::vector<int64_t> rel = f.int_array("relative_positions");
  const bool bidirectional = f.boolean("bidirectional");
  const int64_t nb = f.integer("num_buckets");
  const int64_t md = f.integer("max_distance");
  require(nb >= 1 && nb <= kMaxBuckets, "num_buckets", "num_buckets must be in [1, 2^20]");
  // Relative positions: any int64, as the reference takes (memory is bounded by the input size).
  return {{"buckets", t5_buckets(rel, bidirectional, static_cast<int>(nb), md)}};
}

ojson op_deberta_relative_positions(const json& req) {
  const Fields f(req, "", {"op", "query_size", "key_size", "bucket_size", "max_position"});
  const MatrixI R = deberta_relative_positions(f.integer("query_size"), f.integer("key_size"), f.integer("bucket_size"),
                                               f.integer("max_position"));
  ojson rows = ojson::array();
  for (Eigen::Index r = 0; r < R.rows(); ++r) {
    ojson row = ojson::array();
    for (Eigen::Index c = 0; c < R.cols(); ++c) row.push_back(R(r, c));
    rows.push_back(std::move(row));
  }
  return {{"relative_positions", std::move(rows)}};
}

ojson op_rope_frequencies(const json& req) {
  const Fields f(req, "", {"op", "dim", "base", "scaling"});
  const int dim = read_dim(f);
  const double base = f.number("base");
  const RopeScaling s = read_scaling(f, "scaling");
  const RopeFrequencies fr = rope_frequencies(dim, base, s);
  return {{"inv_freq", vector_json(fr.inv_freq, "base")}, {"attention_scaling", finite(fr.attention_scaling, "scaling")}};
}

ojson op_rope_apply(const json& req) {
  const Fields f(
      req, "", {"op", "x", "positions", "dim", "base", "scaling", "layout", "rotary_dim", "mrope_section", "mrope_interleaved"});
  Matrix x = f.matrix("x");
  const Positions positions = read_positions(f, "positions");
  const std::vector<int64_t>& pos = positions.t;
  const int dim = read_dim(f);
  const double base = f.number("base");
  const RopeScaling s = read_scaling(f, "scaling");
  const RopeLayout layout = read_layout(f);
  // Partial rotary: the first rotary_dim of the dim columns rotate, the rest pass through.
  int rotary_dim = dim;
  if (f.has("rotary_dim")) {
    const int64_t rd = f.integer("rotary_dim");
    require(rd >= 2 && rd <= dim && rd % 2 == 0, "rotary_dim", "rotary_dim must be even and in [2, dim]");
    rotary_dim = static_cast<int>(rd);
  }
  if (x.rows() == 0) x.resize(0, dim);
  require(x.cols() == dim, "x", "every row of x must have dim entries");
  require(static_cast<Eigen::Index>(pos.size()) == x.rows(), "positions", "positions must have one entry per row of x");
  check_positions(pos, "positions");
  const std::vector<int> axes = read_mrope_axes(f, rotary_dim, "");
  if (positions.rows && axes.empty()) throw InvalidArgument("mrope_section", "three position rows (t, h, w) need mrope_section");
  if (!axes.empty()) {
    // M-RoPE: one row means text positions (t = h = w).
    const MropePositions rows = positions.rows ? *positions.rows : MropePositions{pos, pos, pos};
    const RopeFrequencies fr = rope_frequencies(rotary_dim, base, with_seq_len_from_positions(s, pos));
    return {{"values", matrix_json(rope_apply_mrope(x, rows, fr, layout, axes), "x")}};
  }
  return {{"values", matrix_json(rope_apply_partial(x, pos, rotary_dim, base, s, layout), "x")}};
}

ojson op_alibi_slopes(const json& req) {
  const Fields f(req, "", {"op", "heads"});
  const int64_t heads = f.integer("heads");
  require(heads >= 1 && heads <= kMaxHeads, "heads", "heads must be in [1, 1024]");
  return {{"slopes", vector_json(alibi_slopes(static_cast<int>(heads)), "heads")}};
}

// The keys of `position` per scheme, besides "scheme" and "scale" (which every scheme takes).
const std::map<std::string, std::vector<const char*>>& position_keys() {
  static const std::map<std::string, std::vector<const char*>> keys = {
      {"none", {}},
      {"rope", {"base", "scaling", "layout", "rotary_dim", "mrope_section", "mrope_interleaved"}},
      {"t5", {"bidirectional", "num_buckets", "max_distance", "bias"}},
      {"alibi", {"slope"}},
      {"shaw", {"max_relative_position", "key_table", "value_table"}},
      {"deberta", {"bucket_size", "max_position", "pos_key", "pos_query"}},
      {"xl", {"u", "v", "r_proj", "base"}},
  };
  return keys;
}

PositionScheme read_position(const Fields& req, std::optional<double>& scale, int d) {
  const json& raw = req.raw().at("position");
  if (!raw.is_object()) throw InvalidArgument("position", "position must be a JSON object");
  if (!raw.contains("scheme")) throw InvalidArgument("position.scheme", "missing field 'position.scheme'");
  if (!raw.at("scheme").is_string()) throw InvalidArgument("position.scheme", "position.scheme must be a string");
  const std::string scheme = raw.at("scheme").get<std::string>();
  const auto keys = position_keys().find(scheme);
  if (keys == position_keys().end())
    throw InvalidArgument("position.scheme", "position.scheme must be one of none, rope, t5, alibi, shaw, deberta, xl");
  std::vector<const char*> allowed = {"scheme", "scale"};
  allowed.insert(allowed.end(), keys->second.begin(), keys->second.end());
  const Fields f = req.object("position", allowed);
  scale = f.opt_number("scale");
  if (scheme == "none") return NoPosition{};
  if (scheme == "alibi") return AlibiPosition{f.number("slope")};
  if (scheme == "rope") {
    RopePosition p;
    p.base = f.number("base");
    p.scaling = read_scaling(f, "scaling");
    p.layout = read_layout(f);
    if (f.has("rotary_dim")) {
      const int64_t rd = f.integer("rotary_dim");
      require(rd >= 2 && rd <= kMaxDim && rd % 2 == 0, "position.rotary_dim", "position.rotary_dim must be even and in [2, d]");
      p.rotary_dim = static_cast<int>(rd);
    }
    p.mrope_axes = read_mrope_axes(f, p.rotary_dim.value_or(d), "position.");
    return p;
  }
  if (scheme == "t5") {
    T5Position p;
    p.bidirectional = f.boolean("bidirectional");
    const int64_t nb = f.integer("num_buckets");
    require(nb >= 1 && nb <= kMaxBuckets, "position.num_buckets", "position.num_buckets must be in [1, 2^20]");
    p.num_buckets = static_cast<int>(nb);
    p.max_distance = f.integer("max_distance");
    p.bias = f.number_array("bias");
    under("position.", [&] {
      validate_t5_buckets(p.bidirectional, p.num_buckets, p.max_distance);
      return 0;
    });
    require(static_cast<int64_t>(p.bias.size()) == nb, "position.bias", "position.bias must have num_buckets entries");
    return p;
  }
  if (scheme == "shaw") {
    ShawPosition p;
    p.max_relative_position = f.integer("max_relative_position");
    require(p.max_relative_position >= 0 && p.max_relative_position <= kMaxPosition, "position.max_relative_position",
            "position.max_relative_position must be in [0, 10^6]");
    p.key_table = f.matrix("key_table");
    if (f.has("value_table")) p.value_table = f.matrix("value_table");
    return p;
  }
  if (scheme == "deberta")
    return DebertaPosition{.bucket_size = f.integer("bucket_size"),
                           .max_position = f.integer("max_position"),
                           .pos_key = f.matrix("pos_key"),
                           .pos_query = f.matrix("pos_query")};
  return XlPosition{.u = f.vector("u"), .v = f.vector("v"), .r_proj = f.matrix("r_proj"), .base = f.number("base")};
}

// Writes one matrix as JSON rows, one row at a time, so the response never exists as a whole in memory
// (a 4096 x 4096 attention is 2 x 16.7M numbers). null_masked writes null for masked logits.
void write_matrix(std::ostream& out, const Matrix& m, bool null_masked) {
  out << '[';
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    ojson row = ojson::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      if (null_masked && std::isinf(m(r, c)) && m(r, c) < 0) row.push_back(nullptr);
      else row.push_back(m(r, c));
    }
    out << (r ? "," : "") << row.dump();
  }
  out << ']';
}

void require_finite(const Matrix& m, const char* blame, bool allow_masked) {
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const double x = m.data()[i];
    if (allow_masked && std::isinf(x) && x < 0) continue;
    finite(x, blame);
  }
}

// `mask`: a layer's pattern beyond `causal` ({"attention": "full" | "sliding" | "chunked", "window": W,
// "sink": s}); window required for sliding / chunked, forbidden for full.
LayerMask read_layer_mask(const Fields& req) {
  LayerMask m;
  if (!req.has("mask")) return m;
  const Fields f = req.object("mask", {"attention", "window", "sink"});
  const std::string kind = f.has("attention") ? f.string("attention") : std::string("full");
  if (kind == "sliding") m.kind = MaskKind::Sliding;
  else if (kind == "chunked") m.kind = MaskKind::Chunked;
  else if (kind != "full") throw InvalidArgument("mask.attention", "mask.attention must be \"full\", \"sliding\" or \"chunked\"");
  if (m.kind == MaskKind::Full) f.forbid("window", "a full-attention mask");
  else if (!f.has("window")) throw InvalidArgument("mask.window", "missing field 'mask.window' (the " + kind + " size)");
  if (f.has("window")) m.window = f.integer("window");
  if (f.has("sink")) m.sink = f.number("sink");
  check_layer_mask(m, "mask.window", "mask.sink");
  return m;
}

// The attention op streams its response: everything is computed and checked first, then written.
void op_attention(const json& req, std::ostream& out) {
  const Fields f(req, "", {"op", "q", "k", "v", "query_positions", "key_positions", "causal", "position", "mask"});
  const Matrix q = f.matrix("q");
  const Matrix k = f.matrix("k");
  std::optional<Matrix> v;
  if (f.has("v")) v = f.matrix("v");
  const Positions qp = read_positions(f, "query_positions");
  const Positions kp = read_positions(f, "key_positions");
  const std::vector<int64_t>& qpos = qp.t;
  const std::vector<int64_t>& kpos = kp.t;
  AttentionSpec spec;
  // Reading: omitted `causal` means false and omitted `position` means {"scheme": "none"} (plain
  // scaled dot-product attention), the defaults of every reference attention module.
  spec.causal = f.has("causal") ? f.boolean("causal") : false;
  if (f.has("position")) spec.position = read_position(f, spec.scale, static_cast<int>(q.cols()));
  else spec.position = NoPosition{};
  // Three position rows (t, h, w) drive M-RoPE; the causal mask and every other term read the t row.
  auto* rope = std::get_if<RopePosition>(&spec.position);
  if ((qp.rows || kp.rows) && !(rope && !rope->mrope_axes.empty()))
    throw InvalidArgument(rope ? "position.mrope_section" : "position",
                          "three position rows (t, h, w) need a rope position with mrope_section");
  if (rope && !rope->mrope_axes.empty()) {
    rope->query_mrope = qp.rows ? *qp.rows : MropePositions{qpos, qpos, qpos};
    rope->key_mrope = kp.rows ? *kp.rows : MropePositions{kpos, kpos, kpos};
  }
  const LayerMask mask = read_layer_mask(f);
  const AttentionResult r = attention(q, k, v ? &*v : nullptr, qpos, kpos, spec, mask);
  require_finite(r.logits, "q", /*allow_masked=*/true);
  require_finite(r.weights, "q", false);
  if (r.output) require_finite(*r.output, "v", false);
  out << "{\"logits\":";
  write_matrix(out, r.logits, true);
  out << ",\"weights\":";
  write_matrix(out, r.weights, false);
  if (r.output) {
    out << ",\"output\":";
    write_matrix(out, *r.output, false);
  }
  if (r.sink_weight) {
    out << ",\"sink_weight\":[";
    for (Eigen::Index i = 0; i < r.sink_weight->size(); ++i) out << (i ? "," : "") << ojson((*r.sink_weight)[i]).dump();
    out << ']';
  }
  out << "}\n";
}

ojson op_model(const json& req) {
  const Fields f(req, "", {"op", "config", "seq_len"});
  if (!f.has("config")) throw InvalidArgument("config", "missing field 'config'");
  if (!req.at("config").is_object()) throw InvalidArgument("config", "config must be a JSON object (a Hugging Face config.json)");
  const std::optional<int64_t> seq_len = f.opt_integer("seq_len");
  if (seq_len) require(*seq_len >= 1 && *seq_len <= kMaxLength, "seq_len", "seq_len must be an integer in [1, 2^30]");
  const ConfigValue config = model_io::config_from_json(req.at("config"), "config");
  // read_hf_config names keys from the config's root: re-root them under "config.".
  const ModelPosition m = under("config.", [&] { return read_hf_config(config, seq_len); });
  return model_io::model_position_json(m);
}

ojson op_check(const json& req) {
  model_io::CheckRequest c = model_io::read_check_request(req);
  c.input.keep_tensors = false;  // the response is numbers only
  return model_io::check_response_json(rope_check(c.reference, std::move(c.input)));
}

using Op = std::function<ojson(const json&)>;

const std::map<std::string, Op>& op_table() {
  static const std::map<std::string, Op> table = {
      {"sinusoidal", op_sinusoidal},
      {"t5_bucket", op_t5_bucket},
      {"deberta_relative_positions", op_deberta_relative_positions},
      {"rope_frequencies", op_rope_frequencies},
      {"rope_apply", op_rope_apply},
      {"alibi_slopes", op_alibi_slopes},
      {"model", op_model},
      {"check", op_check},
  };
  return table;
}

}  // namespace

void evaluate_request_to(const std::string& text, std::ostream& out) {
  const json req = parse_request(text);
  if (!req.is_object()) throw InvalidArgument("", "the request must be a JSON object");
  if (!req.contains("op")) throw InvalidArgument("op", "missing field 'op'");
  if (!req.at("op").is_string()) throw InvalidArgument("op", "op must be a string");
  const std::string op = req.at("op").get<std::string>();
  if (op == "attention") return op_attention(req, out);
  const auto& table = op_table();
  const auto it = table.find(op);
  if (it == table.end()) {
    std::string names = "attention";
    for (const auto& [name, fn] : table) names += ", " + name;
    throw InvalidArgument("op", "unknown op '" + op + "' (one of " + names + ")");
  }
  out << it->second(req).dump() << "\n";
}

std::string evaluate_request(const std::string& text) {
  std::ostringstream out;
  evaluate_request_to(text, out);
  return out.str();
}

CLI::App* add_eval_command(CLI::App& app, EvalOptions& options) {
  CLI::App* cmd = app.add_subcommand("eval", "Evaluate one JSON request (a file, or - for stdin); see docs/cli.md");
  cmd->add_option("FILE", options.file, "Request file, or - for standard input")->required();
  return cmd;
}

int run_eval(const EvalOptions& options, std::ostream& out, std::ostream& err) {
  return run_command(err, "evaluating the request", "internal error: ", [&] {
    std::string text;
    // The size is refused from the length before reading: a regular file (or stdin redirected from one) is
    // stat-ed; a pipe is read into a buffer reserved at the limit (untouched pages cost nothing) and refused
    // as soon as it passes it.
    auto refuse_size = [](uint64_t size, const std::string& what) {
      if (size > kMaxRequestBytes) throw InvalidArgument("", what + " is " + std::to_string(size) + " bytes; the limit is 1 GiB");
    };
    if (options.file == "-") {
      struct stat st {};
      const bool regular = fstat(0, &st) == 0 && S_ISREG(st.st_mode);
      if (regular) refuse_size(static_cast<uint64_t>(st.st_size), "the request");
      text = read_bounded(std::cin, kMaxRequestBytes, "the request", regular ? static_cast<std::size_t>(st.st_size) : 0);
    } else {
      std::error_code ec;
      const auto size = std::filesystem::file_size(options.file, ec);
      if (!ec) refuse_size(size, "the request file");
      {
        std::ifstream scan(options.file, std::ios::binary);
        if (scan) model_io::scan_request(scan);  // counted streaming, before the text is held
      }
      std::ifstream in(options.file, std::ios::binary);
      if (!in) throw InvalidArgument("", "cannot read request file '" + options.file + "'");
      text = read_bounded(in, kMaxRequestBytes, "the request file", ec ? 0 : static_cast<std::size_t>(size));
    }
    // Errors are found before anything is written: every op computes and checks its whole result first
    // (attention then streams it row by row).
    evaluate_request_to(text, out);
    return flushed(out, err, "the response");
  });
}

}  // namespace posenc::cli
