#include "weights.h"

#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include "command.h"
#include "core/number_text.h"
#include "core/types.h"
#include "model_io/config_json.h"
#include "model_io/weights_session.h"

namespace posenc::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kChunkBytes = std::size_t{4} << 20;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string read_text(const std::string& path, std::uintmax_t limit, const std::string& field) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InvalidArgument(field, "cannot read '" + path + "'");
  if (size > limit)
    throw InvalidArgument(field, "'" + path + "' is " + std::to_string(size) + " bytes (limit " + std::to_string(limit) + ")");
  std::ifstream in(path, std::ios::binary);
  std::string text(static_cast<std::size_t>(size), '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(size))) throw InvalidArgument(field, "cannot read '" + path + "'");
  return text;
}

struct Inputs {
  std::vector<std::string> files;
  std::string config, index;  // paths ("" : none)
};

// PATH arguments as weight files, a config and an index.
Inputs gather(const WeightsOptions& o) {
  Inputs in;
  for (const std::string& p : o.paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      const fs::path dir(p);
      if (fs::exists(dir / "config.json")) in.config = (dir / "config.json").string();
      std::vector<std::string> st, gg;
      if (fs::exists(dir / "model.safetensors.index.json")) {
        in.index = (dir / "model.safetensors.index.json").string();
        const model_io::SafetensorsIndex idx =
            model_io::parse_safetensors_index(read_text(in.index, std::uintmax_t{32} << 20, "model.safetensors.index.json"));
        for (const std::string& f : idx.files) st.push_back((dir / f).string());
      } else {
        for (const auto& e : fs::directory_iterator(dir, ec)) {
          const std::string name = e.path().filename().string();
          if (ends_with(name, ".safetensors")) st.push_back(e.path().string());
          if (ends_with(name, ".gguf")) gg.push_back(e.path().string());
        }
        std::sort(st.begin(), st.end());
        std::sort(gg.begin(), gg.end());
      }
      if (st.empty() && gg.empty()) throw InvalidArgument("path", "'" + p + "' holds no .safetensors or .gguf files");
      const std::vector<std::string>& chosen = st.empty() ? gg : st;
      in.files.insert(in.files.end(), chosen.begin(), chosen.end());
    } else if (ends_with(p, ".safetensors") || ends_with(p, ".gguf")) {
      if (!fs::is_regular_file(p, ec)) throw InvalidArgument("path", "cannot read '" + p + "'");
      in.files.push_back(p);
    } else if (ends_with(p, "model.safetensors.index.json")) {
      in.index = p;
      const model_io::SafetensorsIndex idx =
          model_io::parse_safetensors_index(read_text(p, std::uintmax_t{32} << 20, "model.safetensors.index.json"));
      for (const std::string& f : idx.files) in.files.push_back((fs::path(p).parent_path() / f).string());
    } else {
      throw InvalidArgument("path", "'" + p + "' is not a model folder, a .safetensors file, an index or a .gguf file");
    }
  }
  if (!o.config.empty()) in.config = o.config;
  return in;
}

// Reads `n` bytes at `offset` of `in` into `buf` (resized).
void read_at(std::ifstream& in, uint64_t offset, std::size_t n, std::vector<uint8_t>& buf, const std::string& path) {
  buf.resize(n);
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  if (!in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(n)))
    throw InvalidArgument(
        "path", "cannot read " + std::to_string(n) + " bytes at offset " + std::to_string(offset) + " of '" + path + "'");
}

std::string bytes_text(uint64_t b) {
  std::ostringstream o;
  if (b >= (uint64_t{1} << 30)) o << std::fixed << std::setprecision(2) << static_cast<double>(b) / (1 << 30) << " GiB";
  else if (b >= (uint64_t{1} << 20)) o << std::fixed << std::setprecision(1) << static_cast<double>(b) / (1 << 20) << " MiB";
  else o << b << " bytes";
  return o.str();
}

// The human table: layers x frequency bands, each cell the mean over heads of the band's qk_share.
std::string table_text(const nlohmann::ordered_json& j) {
  std::ostringstream o;
  const auto& pairs = j["pairs"];
  const std::size_t n = pairs["inv_freq"].size();
  o << "model_type " << j["model_type"].get<std::string>() << ", rotary_dim " << j["rotary_dim"].get<int>() << " (" << n
    << " pairs, " << j["layout"].get<std::string>() << " layout)\n";
  o << "read " << j["read"]["tensors"].get<uint64_t>() << " tensors, " << bytes_text(j["read"]["bytes"].get<uint64_t>()) << "\n";
  const std::size_t bands = std::min<std::size_t>(8, n);
  auto band_of = [&](std::size_t p) { return p * bands / n; };
  o << "share of q.k weight norm by frequency band (mean over heads, %); semantic: pairs under one turn over the trained "
       "length\n";
  o << "bands (pair index, shortest wavelength first):";
  for (std::size_t b = 0; b < bands; ++b) {
    std::size_t lo = n, hi = 0;
    for (std::size_t p = 0; p < n; ++p)
      if (band_of(p) == b) lo = std::min(lo, p), hi = std::max(hi, p);
    o << " " << char('A' + b) << "=" << lo << "-" << hi;
  }
  o << "\n";
  o << std::left << std::setw(7) << "layer" << std::setw(10) << "kind";
  for (std::size_t b = 0; b < bands; ++b) o << std::right << std::setw(6) << std::string(1, char('A' + b));
  o << std::right << std::setw(10) << "semantic"
    << "\n";
  for (const auto& l : j["layers"]) {
    o << std::left << std::setw(7) << l["layer"].get<int>() << std::setw(10) << l["kind"].get<std::string>();
    if (l["position"] == "none") {
      o << "  no RoPE\n";
      continue;
    }
    std::vector<double> band(bands, 0.0);
    double semantic = 0;
    int counted = 0;
    for (const auto& h : l["heads"]) {
      if (h["semantic_share"].is_null()) continue;
      ++counted;
      semantic += h["semantic_share"].get<double>();
      const auto& share = h["qk_share"];
      for (std::size_t p = 0; p < share.size() && p < n; ++p) band[band_of(p)] += share[p].get<double>();
    }
    for (std::size_t b = 0; b < bands; ++b) {
      std::ostringstream cell;
      if (counted) cell << std::fixed << std::setprecision(1) << 100 * band[b] / counted;
      else cell << "-";
      o << std::right << std::setw(6) << cell.str();
    }
    std::ostringstream cell;
    if (counted) cell << std::fixed << std::setprecision(1) << 100 * semantic / counted;
    else cell << "-";
    o << std::right << std::setw(10) << cell.str() << "\n";
  }
  for (const auto& a : j["assumptions"])
    o << "assumed " << a["what"].get<std::string>() << " = " << a["value"].get<std::string>() << " ("
      << a["why"].get<std::string>() << ")\n";
  if (!j["unread_keys"].empty()) {
    o << "unread keys";
    for (const auto& k : j["unread_keys"]) o << " " << k.get<std::string>();
    o << " (positional keys posenc does not model)\n";
  }
  return o.str();
}

}  // namespace

CLI::App* add_weights_command(CLI::App& app, WeightsOptions& options) {
  CLI::App* cmd = app.add_subcommand("weights", "Which rotary frequencies a model's q/k weights use, per layer, head and pair");
  cmd->add_option("PATH", options.paths, "A model folder, .safetensors files (with an index) or one .gguf")->required();
  cmd->add_option("--config", options.config, "config.json for .safetensors files given one by one");
  cmd->add_option("--layers", options.layers, "Layers to read, 0-based, like 0,3,5-7 (default: all)");
  cmd->add_flag("--json", options.json, "Print the JSON result (docs/weights.md) instead of the table");
  return cmd;
}

int run_weights(const WeightsOptions& options, std::ostream& out, std::ostream& err, bool progress) {
  return run_command(err, "reading the weights", "internal error: ", [&] {
    const Inputs in = gather(options);
    model_io::WeightsSession session;
    std::vector<std::ifstream> streams;
    std::vector<uint8_t> buf;
    for (const std::string& path : in.files) {
      std::error_code ec;
      const uint64_t size = fs::file_size(path, ec);
      if (ec) throw InvalidArgument("path", "cannot read '" + path + "'");
      streams.emplace_back(path, std::ios::binary);
      if (!streams.back()) throw InvalidArgument("path", "cannot read '" + path + "'");
      buf.clear();
      // Only the bytes beyond those read before are read: a header is read once.
      for (uint64_t need = session.add_file(path, size, buf); need > 0; need = session.add_file(path, size, buf)) {
        const std::size_t had = buf.size();
        std::vector<uint8_t> more;
        read_at(streams.back(), had, static_cast<std::size_t>(need - had), more, path);
        buf.insert(buf.end(), more.begin(), more.end());
      }
    }
    if (!in.config.empty()) session.set_config(read_text(in.config, model_io::kMaxConfigBytes, "config"));
    if (!in.index.empty()) session.set_index(read_text(in.index, std::uintmax_t{32} << 20, "model.safetensors.index.json"));
    const std::vector<WeightRange>& plan = session.plan(options.layers);
    const uint64_t total = session.total_bytes();
    // Progress in tensors: a tensor counts as done once the last of its ranges is read.
    std::unordered_map<std::string, std::size_t> last_range;
    for (std::size_t i = 0; i < plan.size(); ++i) last_range[plan[i].tensor] = i;
    std::vector<int> done_after(plan.size(), 0);  // tensors done once range i is read
    for (std::size_t i = 0, done = 0; i < plan.size(); ++i)
      done_after[i] = static_cast<int>(done += last_range[plan[i].tensor] == i);
    auto tensors_done = [&](std::size_t ranges_read) { return ranges_read ? done_after[ranges_read - 1] : 0; };
    std::size_t r = 0;
    for (const WeightRange& range : plan) {
      ++r;
      for (uint64_t done = 0; done < range.length;) {
        const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(kChunkBytes, range.length - done));
        read_at(streams[static_cast<std::size_t>(range.file)], range.offset + done, n, buf,
                in.files[static_cast<std::size_t>(range.file)]);
        session.feed(buf);
        done += n;
        if (progress)
          err << "\rreading tensors " << tensors_done(done == range.length ? r : r - 1) << "/" << session.total_tensors() << ", "
              << bytes_text(session.bytes_done()) << " of " << bytes_text(total) << "   " << std::flush;
      }
    }
    if (progress) err << "\n";
    const nlohmann::ordered_json j = session.finish();
    if (options.json) out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else out << table_text(j);
    return flushed(out, err, "the result");
  });
}

// Whether standard error is a terminal (a character device: a tty, or /dev/null where progress goes nowhere).
bool stderr_is_terminal() {
  struct stat st;
  return fstat(2, &st) == 0 && S_ISCHR(st.st_mode);
}

}  // namespace posenc::cli
