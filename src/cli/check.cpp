#include "check.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "command.h"
#include "core/bounds.h"
#include "core/number_text.h"
#include "core/position_list.h"
#include "core/models/model_config.h"
#include "model_io/check_json.h"
#include "model_io/check_request.h"
#include "model_io/config_json.h"
#include "model_io/json_read.h"
#include "model_io/tensor_file.h"

namespace posenc::cli {
namespace {

// A file of integers (.npy, .safetensors, .json, text), or the position grammar (core/position_list.h).
std::vector<int64_t> parse_positions(const std::string& text) {
  std::error_code ec;  // a long list is no file name (is_regular_file would throw on it)
  if (!std::filesystem::is_regular_file(text, ec)) return parse_position_list(text, "positions");
  std::vector<int64_t> out;
  for (double v : model_io::read_tensor_file(text, "", "positions", "positions").values) {
    require(std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= static_cast<double>(kMaxPosition), "positions",
            "positions must be integers in [-10^6, 10^6]");
    out.push_back(static_cast<int64_t>(v));
  }
  return out;
}

// A tensor file; `heads` (for actual and x) reads an H x n x w tensor as its H blocks stacked.
Matrix read_matrix_file(const std::string& path, const std::string& name, const std::string& field, int* heads = nullptr) {
  return model_io::tensor_matrix(model_io::read_tensor_file(path, name, field, field), field, heads);
}

std::string read_config_text(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InvalidArgument("config", "cannot read config file '" + path + "'");
  if (size > model_io::kMaxConfigBytes)
    throw InvalidArgument("config", "config file is larger than " + std::to_string(model_io::kMaxConfigBytes >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  return text;
}

std::string index_text(const RopeCheckResult& r, const std::vector<int64_t>& index) {
  std::string s;
  for (int64_t i : index) s += (s.empty() ? "" : ", ") + std::to_string(i);
  s = "[" + s + "]";
  if (index.size() == 3) s += " (head " + std::to_string(index[0]) + ")";
  (void)r;
  return s;
}

// Causes explaining less than this are left out of the human output (the JSON keeps them).
constexpr double kShownExplains = 0.05;

void print_human(const RopeCheckResult& r, CheckKind kind, std::ostream& out) {
  const std::string shape = (r.heads > 0 ? std::to_string(r.heads) + " x " + std::to_string(r.actual.rows() / r.heads)
                                         : std::to_string(r.actual.rows())) +
                            " x " + std::to_string(r.actual.cols());
  out << "posenc check: " << (r.match ? "MATCH" : "MISMATCH") << " (" << check_kind_name(kind) << ", " << shape << ")\n";
  const std::string rule = r.default_tolerance ? "float32" : "given";
  if (r.match) {
    // How close the nearest element came to its tolerance (a relative error of a near-zero element would
    // read as alarm where there is none).
    out << "  worst element at " << significant(r.worst_ratio) << " of its " << rule << " tolerance, at "
        << index_text(r, r.worst_ratio_index) << "; max |error| " << significant(r.max_abs_error) << "\n";
  } else {
    out << "  max |error| " << significant(r.max_abs_error) << " at " << index_text(r, r.worst_index) << ": expected "
        << significant(r.worst_expected) << ", actual " << significant(r.worst_actual) << "; worst element at "
        << significant(r.worst_ratio) << " x its " << rule << " tolerance\n";
  }
  out << "  tolerance: "
      << (r.default_tolerance
              ? "float32 rounding of the angle at each position (docs/cli.md)"
              : "abs " + significant(r.given_tolerance.abs) + " + rel " + significant(r.given_tolerance.rel) + " x |expected|")
      << "\n";
  if (r.equivalent_under_softmax) out << "  equivalent under softmax: " << (*r.equivalent_under_softmax ? "yes" : "no") << "\n";
  int n = 0;
  for (const RopeCheckDiagnosis& d : r.diagnosis) {
    if (d.cause != CheckCause::Unknown && d.explains < kShownExplains) continue;
    if (++n > 3) break;
    out << "  " << n << ". " << check_cause_name(d.cause) << " (explains " << significant(100 * d.explains)
        << "% of the squared error)";
    for (const auto& [k, v] : d.fitted) out << " " << k << "=" << check_fit_text(v);
    out << "\n     " << d.message << "\n     fix: " << d.fix << "\n";
  }
}

}  // namespace

CLI::App* add_check_command(CLI::App& app, CheckOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("check",
                         "Check a RoPE tensor (inv_freq, cos, sin, rotated, logits) against the reference and diagnose the "
                         "difference; exit 0 match, 1 mismatch, 2 bad input (docs/cli.md)");
  auto* config = cmd->add_option("--config", o.config, "config.json of the model (the reference)");
  auto* reference = cmd->add_option("--reference", o.reference,
                                    "the reference as JSON: {\"dim\", \"base\", \"scaling\", \"layout\", \"rotary_dim\", "
                                    "\"softmax_scale\"}");
  config->excludes(reference);
  cmd->add_option("--layer-type", o.layer_type, "with --config: the layer type whose RoPE to use");
  cmd->add_option("--kind", o.kind, "inv_freq, cos, sin, rotated or logits")->required();
  cmd->add_option("--actual", o.actual, "the tensor: .npy, .safetensors, .json or text")->required();
  cmd->add_option("--name", o.name, "the tensor's name in a .safetensors file");
  cmd->add_option("--positions", o.positions, "0,1,2 or start:stop[:step] or a file (default 0 .. n-1)");
  cmd->add_option("--x", o.x, "kind rotated: the rows before rotation (file)");
  cmd->add_option("--q", o.q, "kind logits: queries (file)");
  cmd->add_option("--k", o.k, "kind logits: keys (file)");
  cmd->add_option("--tolerance-abs", o.tolerance_abs, "absolute tolerance (replaces the float32 rule)");
  cmd->add_option("--tolerance-rel", o.tolerance_rel, "relative tolerance (replaces the float32 rule)");
  cmd->add_flag("--json", o.json, "print the `check` response of posenc eval instead of text");
  return cmd;
}

int run_check(const CheckOptions& o, std::ostream& out, std::ostream& err) {
  return run_command(err, "checking the tensor", "internal error: ", [&] {
    RopeCheckReference ref;
    if (!o.config.empty()) {
      const ModelPosition m =
          rethrow_renamed([&] { return read_hf_config(model_io::parse_config_text(read_config_text(o.config))); },
                          [](const InvalidArgument& e) {
                            return InvalidArgument(e.field().empty() ? "config" : "config." + e.field(), e.what());
                          });
      ref = rope_check_reference(m, o.layer_type);
    } else if (!o.reference.empty()) {
      require(o.reference.size() <= (std::size_t{1} << 20), "reference", "--reference is larger than 1 MiB");
      ref = model_io::read_check_reference(model_io::parse_json_within_depth(
          o.reference, 64, "reference", "--reference is not valid JSON", "--reference is nested deeper than 64 levels"));
    } else {
      throw InvalidArgument("reference", "give the reference: --config FILE or --reference JSON");
    }
    require(o.layer_type.empty() || !o.config.empty(), "layer_type", "--layer-type needs --config");
    const auto kind = from_name<CheckKind>(o.kind);
    require(kind.has_value(), "kind", "kind must be one of inv_freq, cos, sin, rotated, logits");
    RopeCheckInput in;
    in.kind = *kind;
    in.keep_tensors = false;  // the output is numbers only
    in.actual = read_matrix_file(o.actual, o.name, "actual", &in.heads);
    if (in.kind == CheckKind::InvFreq && in.actual.cols() == 1) in.actual.transposeInPlace();
    require(o.x.empty() || in.kind == CheckKind::Rotated, "x", "--x is for kind rotated");
    require((o.q.empty() && o.k.empty()) || in.kind == CheckKind::Logits, o.q.empty() ? "k" : "q",
            "--q and --k are for kind logits");
    if (in.kind == CheckKind::Rotated) {
      require(!o.x.empty(), "x", "kind rotated needs --x FILE (the rows before rotation)");
      int x_heads = 0;
      in.x = read_matrix_file(o.x, "", "x", &x_heads);
      require(x_heads == in.heads, "x",
              "x must have the same heads axis as actual (" + std::to_string(in.heads) + " heads; x has " +
                  std::to_string(x_heads) + ")");
    }
    if (in.kind == CheckKind::Logits) {
      require(!o.q.empty(), "q", "kind logits needs --q FILE");
      require(!o.k.empty(), "k", "kind logits needs --k FILE");
      in.q = read_matrix_file(o.q, "", "q");
      in.k = read_matrix_file(o.k, "", "k");
    }
    const bool default_positions = o.positions.empty() && in.kind != CheckKind::InvFreq;
    const Eigen::Index rows = in.heads > 0 ? in.actual.rows() / in.heads : in.actual.rows();
    // Without --positions row i is position i: a position limit is a limit on actual's rows, and is named so.
    const std::string rows_text = "actual has " + std::to_string(rows) + " rows" + (in.heads > 0 ? " per head" : "") +
                                  "; without --positions row i is at position i";
    if (!o.positions.empty()) {
      in.positions = parse_positions(o.positions);
    } else if (default_positions) {
      require(rows <= kMaxPosition + 1, "actual",
              rows_text + ", and positions stop at 10^6: at most 1000001 rows (give --positions for others)");
      for (Eigen::Index i = 0; i < rows; ++i) in.positions.push_back(i);  // transformers' arange(n)
    }
    if (o.tolerance_abs || o.tolerance_rel)
      in.tolerance = RopeCheckTolerance{o.tolerance_abs.value_or(0.0), o.tolerance_rel.value_or(0.0)};
    const RopeCheckResult r = rethrow_renamed([&] { return rope_check(ref, std::move(in)); },
                                              [&](const InvalidArgument& e) {
                                                if (!default_positions || e.field() != "positions") return e;
                                                return InvalidArgument("actual", std::string(e.what()) + " (" + rows_text + ")");
                                              });
    if (o.json) out << model_io::check_response_json(r).dump() << "\n";
    else print_human(r, in.kind, out);
    const int flush = flushed(out, err, "the result");
    if (flush) return flush;
    return r.match ? 0 : 1;
  });
}

}  // namespace posenc::cli
