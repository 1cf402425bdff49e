#include "model_io/weights_session.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/text_split.h"
#include "model_io/config_json.h"
#include "model_io/json_read.h"
#include "model_io/weights_json.h"
#include "posenc_weight_tensors.h"

namespace posenc::model_io {
namespace {

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

uint64_t le64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

std::vector<WeightTensor> safetensors_weight_tensors(std::span<const uint8_t> header, uint64_t file_size, int file,
                                                     const std::string& file_name) {
  const std::string what = "'" + shown_text(file_name, 200) + "'";
  if (file_size < 8 || header.size() < 8)
    throw InvalidArgument(file_name, what + " is not a .safetensors file (shorter than its 8-byte header length)");
  const uint64_t n = le64(header.data());
  if (n > kMaxSafetensorsHeaderBytes)
    throw InvalidArgument(file_name, what + " declares a " + std::to_string(n) + "-byte .safetensors header (limit " +
                                         std::to_string(kMaxSafetensorsHeaderBytes) + ")");
  if (n > file_size - 8)
    throw InvalidArgument(file_name, what + " declares a " + std::to_string(n) +
                                         "-byte .safetensors header, past the end of the " + std::to_string(file_size) +
                                         "-byte file");
  if (header.size() < 8 + n) throw InvalidArgument(file_name, what + ": the .safetensors header was not read whole");
  const std::string_view text(reinterpret_cast<const char*>(header.data() + 8), n);
  const nlohmann::json j = parse_json_within_depth(text, 8, file_name, what + ": malformed .safetensors header JSON",
                                                   what + ": .safetensors header nested too deep");
  if (!j.is_object()) throw InvalidArgument(file_name, what + ": the .safetensors header is not a JSON object");
  const uint64_t data_start = 8 + n, data_size = file_size - data_start;
  std::vector<WeightTensor> out;
  for (const auto& [name, e] : j.items()) {
    if (name == "__metadata__") continue;
    const std::string q = "tensor '" + shown_text(name, 200) + "' in " + what;
    const bool is_entry = e.is_object() && e.contains("dtype") && e.contains("shape") && e.contains("data_offsets") &&
                          e["dtype"].is_string() && e["shape"].is_array() && e["data_offsets"].is_array() &&
                          e["data_offsets"].size() == 2 && e["shape"].size() <= 8;
    if (!is_entry) throw InvalidArgument(name, "malformed .safetensors entry for " + q + " (dtype, shape, data_offsets)");
    const nlohmann::json* dtype = &e["dtype"];
    const nlohmann::json* shape = &e["shape"];
    const nlohmann::json* offsets = &e["data_offsets"];
    WeightTensor t;
    t.name = name;
    t.file = file;
    t.dtype_name = dtype->get<std::string>();
    t.dtype = safetensors_dtype(t.dtype_name);
    for (const auto& d : *shape) {
      if (!d.is_number_unsigned() || d.get<uint64_t>() > (uint64_t{1} << 40))
        throw InvalidArgument(name, "malformed .safetensors shape of " + q);
      t.shape.push_back(d.get<int64_t>());
    }
    if (!(*offsets)[0].is_number_unsigned() || !(*offsets)[1].is_number_unsigned())
      throw InvalidArgument(name, "malformed .safetensors data_offsets of " + q);
    const uint64_t begin = (*offsets)[0].get<uint64_t>(), end = (*offsets)[1].get<uint64_t>();
    if (end < begin) throw InvalidArgument(name, ".safetensors data_offsets of " + q + " end before they begin");
    if (end > data_size)
      throw InvalidArgument(name, ".safetensors data_offsets of " + q + " end at byte " + std::to_string(end) +
                                      " of the data, past the end of the file (" + std::to_string(data_size) + " data bytes)");
    t.offset = data_start + begin;
    t.bytes = end - begin;
    t.file_size = file_size;
    out.push_back(std::move(t));
  }
  return out;
}

SafetensorsIndex parse_safetensors_index(std::string_view text) {
  const std::string field = "model.safetensors.index.json";
  if (text.size() > kMaxConfigBytes * 4)
    throw InvalidArgument(field, field + " is " + std::to_string(text.size()) + " bytes (limit 32 MiB)");
  const nlohmann::json j = parse_json_within_depth(text, 8, field, "malformed " + field, field + " is nested too deep");
  const auto map = j.is_object() ? j.find("weight_map") : j.end();
  if (map == j.end() || !map->is_object()) throw InvalidArgument(field, field + " has no weight_map object");
  SafetensorsIndex idx;
  std::set<std::string> seen;
  for (const auto& [tensor, file] : map->items()) {
    if (!file.is_string())
      throw InvalidArgument(field, field + ": weight_map['" + shown_text(tensor, 200) + "'] is not a file name");
    const std::string f = file.get<std::string>();
    if (f.empty() || f.find('/') != std::string::npos || f == "." || f == "..")
      throw InvalidArgument(field, field + ": weight_map['" + shown_text(tensor, 200) + "'] names '" + shown_text(f, 200) +
                                       "', not a file beside the index");
    idx.weight_map.emplace_back(tensor, f);
    if (seen.insert(f).second) idx.files.push_back(f);
  }
  return idx;
}

// ---------------------------------------------------------------- the tensor names table

namespace {

struct NamesRow {
  std::string family;
  QkTensorNames names;
  std::vector<std::string> qk_norm_model_types;  // "*": every model_type of the row's family
};

std::vector<std::string> expand(const nlohmann::json& row, const char* key, const std::vector<std::string>& prefixes) {
  std::vector<std::string> out;
  const auto it = row.find(key);
  if (it == row.end()) return out;
  for (const auto& pattern : *it) {
    const std::string p = pattern.get<std::string>();
    const std::size_t at = p.find("{p}");
    if (at == std::string::npos) {
      out.push_back(p);
      continue;
    }
    for (const std::string& prefix : prefixes) out.push_back(p.substr(0, at) + prefix + p.substr(at + 3));
  }
  return out;
}

std::vector<NamesRow> read_rows(const nlohmann::json& rows) {
  std::vector<NamesRow> out;
  for (const auto& row : rows) {
    NamesRow r;
    r.family = row.at("family").get<std::string>();
    const std::vector<std::string> prefixes = row.at("prefixes").get<std::vector<std::string>>();
    QkTensorNames& n = r.names;
    n.q = expand(row, "q", prefixes);
    n.k = expand(row, "k", prefixes);
    n.qkv = expand(row, "qkv", prefixes);
    n.input_norm = expand(row, "input_norm", prefixes);
    n.q_norm = expand(row, "q_norm", prefixes);
    n.k_norm = expand(row, "k_norm", prefixes);
    n.mla_q_a_norm = expand(row, "mla_q_a_norm", prefixes);
    n.mla_q_b = expand(row, "mla_q_b", prefixes);
    n.mla_kv_a = expand(row, "mla_kv_a", prefixes);
    const std::string split = row.value("qkv_split", std::string("blocks"));
    if (split == "blocks") n.qkv_split = QkTensorNames::Fused::Blocks;
    else if (split == "per_head") n.qkv_split = QkTensorNames::Fused::PerHead;
    else if (split == "mp_qvk") n.qkv_split = QkTensorNames::Fused::MpQvk;
    else throw std::logic_error("data/weight_tensors.json: " + r.family + ": qkv_split '" + split + "'");
    n.qkv_mp_num = row.value("mp_num", 0);
    if ((n.qkv_split == QkTensorNames::Fused::MpQvk) != (n.qkv_mp_num > 0))
      throw std::logic_error("data/weight_tensors.json: " + r.family + ": mp_num goes with qkv_split 'mp_qvk'");
    n.input_norm_required = row.value("input_norm_required", true);
    n.norm_one_plus = row.value("norm_one_plus", false);
    n.qk_norm_one_plus = row.value("qk_norm_one_plus", false);
    n.source = row.at("source").get<std::string>();
    r.qk_norm_model_types = row.value("qk_norm_model_types", std::vector<std::string>{});
    out.push_back(std::move(r));
  }
  return out;
}

const std::vector<NamesRow>& table(WeightFormat f) {
  static const std::pair<std::vector<NamesRow>, std::vector<NamesRow>> rows = [] {
    const nlohmann::json j = nlohmann::json::parse(generated::kWeightTensorsJson);
    return std::pair{read_rows(j.at("safetensors")), read_rows(j.at("gguf"))};
  }();
  return f == WeightFormat::Gguf ? rows.second : rows.first;
}

}  // namespace

QkTensorNames qk_tensor_names(const ModelPosition& m, WeightFormat format) {
  const std::vector<NamesRow>& rows = table(format);
  const NamesRow* chosen = nullptr;
  for (const NamesRow& r : rows) {
    if (!m.family.empty() && r.family == m.family) {
      chosen = &r;
      break;
    }
    if (r.family == "*" && !chosen) chosen = &r;
  }
  if (!chosen) throw std::logic_error("data/weight_tensors.json has no '*' row");
  QkTensorNames names = chosen->names;
  for (const std::string& t : chosen->qk_norm_model_types)
    if (t == m.model_type || (t == "*" && chosen->family != "*")) names.qk_norm_expected = true;
  return names;
}

// ---------------------------------------------------------------- the session

WeightsSession::WeightsSession() = default;
WeightsSession::~WeightsSession() = default;

uint64_t WeightsSession::add_file(const std::string& name, uint64_t size, std::span<const uint8_t> first) {
  if (analysis_) throw InvalidArgument("files", "files are added before the plan is made");
  File* f = nullptr;
  for (File& e : files_)
    if (e.name == name) f = &e;
  if (!f) {
    if (files_.size() >= 4096) throw InvalidArgument("files", "more than 4096 weight files");
    files_.push_back({name, size, 0, name.ends_with(".gguf"), false, nullptr});
    names_.push_back(name);
    f = &files_.back();
  }
  if (f->complete) throw InvalidArgument(name, "'" + shown_text(name, 200) + "' was added twice");
  if (first.size() > size) throw InvalidArgument(name, "'" + shown_text(name, 200) + "': more first bytes than the file has");
  if (first.size() > f->seen) {
    header_bytes_ += first.size() - f->seen;
    f->seen = first.size();
  }
  const int index = static_cast<int>(f - files_.data());
  if (!f->gguf) {
    if (size < 8)
      throw InvalidArgument(name,
                            "'" + shown_text(name, 200) + "' is not a .safetensors file (" + std::to_string(size) + " bytes)");
    if (first.size() < 8) return 8;
    const uint64_t n = le64(first.data());
    if (n <= kMaxSafetensorsHeaderBytes && n <= size - 8 && first.size() < 8 + n) return 8 + n;
    std::vector<WeightTensor> t = safetensors_weight_tensors(first, size, index, name);
    tensors_.insert(tensors_.end(), std::make_move_iterator(t.begin()), std::make_move_iterator(t.end()));
    f->complete = true;
    return 0;
  }
  if (first.empty()) return std::min(size, kGgufFirstPrefixBytes);
  try {
    f->gguf_header = std::make_unique<GgufHeader>(read_gguf_header(first));
  } catch (const GgufTruncated& e) {
    if (first.size() >= size)
      throw InvalidArgument(name,
                            "'" + shown_text(name, 200) + "': the GGUF header runs past the end of the file (" + e.what() + ")");
    if (first.size() >= kMaxGgufHeaderBytes)
      throw InvalidArgument(name, "'" + shown_text(name, 200) + "': the GGUF header is larger than " +
                                      std::to_string(kMaxGgufHeaderBytes >> 20) + " MiB");
    return std::min({size, kMaxGgufHeaderBytes, std::max<uint64_t>(first.size() * 4, kGgufFirstPrefixBytes)});
  }
  std::vector<WeightTensor> t = gguf_weight_tensors(*f->gguf_header, size, index);
  tensors_.insert(tensors_.end(), std::make_move_iterator(t.begin()), std::make_move_iterator(t.end()));
  f->complete = true;
  return 0;
}

void WeightsSession::set_config(std::string_view text) { config_ = parse_config_text(text); }

void WeightsSession::set_index(std::string_view text) { index_ = parse_safetensors_index(text); }

const std::vector<WeightRange>& WeightsSession::plan(const std::string& layers) {
  if (analysis_) return analysis_->plan();
  if (files_.empty()) throw InvalidArgument("files", "no weight files (a model folder, .safetensors files or a .gguf)");
  for (const File& f : files_)
    if (!f.complete) throw InvalidArgument(f.name, "the header of '" + shown_text(f.name, 200) + "' was not read whole");
  const auto ggufs = std::count_if(files_.begin(), files_.end(), [](const File& f) { return f.gguf; });
  WeightShapes shapes;
  WeightFormat format;
  if (ggufs > 0) {
    if (files_.size() != 1)
      throw InvalidArgument("files", "a .gguf is read alone (one file holding the whole model), not with other weight files");
    if (config_) throw InvalidArgument("config", "a .gguf carries its own configuration; --config is for .safetensors weights");
    model_ = read_gguf_model(*files_[0].gguf_header);
    shapes = weight_shapes_from_gguf(*files_[0].gguf_header, model_);
    format = WeightFormat::Gguf;
  } else {
    if (!config_)
      throw InvalidArgument(
          "config", "no config.json: .safetensors weights need the model's config.json (a model folder, or --config FILE)");
    model_ = read_hf_config(*config_);
    shapes = weight_shapes_from_config(*config_, model_);
    format = WeightFormat::Safetensors;
  }
  // A tensor name twice (two shards) would make "the tensor" ambiguous.
  std::set<std::string> seen;
  for (const WeightTensor& t : tensors_)
    if (!seen.insert(t.name).second)
      throw InvalidArgument(t.name, "tensor '" + shown_text(t.name, 200) + "' is declared by two files");
  if (index_) {
    const std::string field = "model.safetensors.index.json";
    for (const std::string& shard : index_->files)
      if (std::none_of(files_.begin(), files_.end(), [&](const File& f) { return base_name(f.name) == shard; }))
        throw InvalidArgument(field, field + " names shard '" + shown_text(shard, 200) + "', which is not among the files");
    std::unordered_map<std::string_view, int> file_of;  // tensor -> file (an index lists ~10^5 tensors)
    for (const WeightTensor& w : tensors_) file_of.emplace(w.name, w.file);
    for (const auto& [tensor, shard] : index_->weight_map) {
      const auto t = file_of.find(tensor);
      if (t == file_of.end() || base_name(files_[static_cast<std::size_t>(t->second)].name) != shard)
        throw InvalidArgument(tensor, field + " puts tensor '" + shown_text(tensor, 200) + "' in '" + shown_text(shard, 200) +
                                          "', whose header does not declare it");
    }
  }
  std::vector<int> layer_list;
  if (!layers.empty()) layer_list = parse_layer_list(layers, model_.num_hidden_layers, "layers");
  QkTensorNames names = qk_tensor_names(model_, format);
  if (model_.family.empty())
    model_.assumptions.push_back({"tensors", names.q.empty() ? std::string() : names.q.front(),
                                  "model_type '" + model_.model_type +
                                      "' is not in posenc's family table: the tensors are looked for under the default names "
                                      "(data/weight_tensors.json, family '*')"});
  analysis_ = std::make_unique<QkUsageAnalysis>(model_, shapes, names, tensors_, format, layer_list);
  return analysis_->plan();
}

uint64_t WeightsSession::total_bytes() const { return analysis_ ? analysis_->total_bytes() : 0; }
int WeightsSession::total_tensors() const { return analysis_ ? analysis_->total_tensors() : 0; }
uint64_t WeightsSession::bytes_done() const { return analysis_ ? analysis_->bytes_done() : 0; }
int WeightsSession::ranges_done() const { return analysis_ ? analysis_->ranges_done() : 0; }

void WeightsSession::feed(std::span<const uint8_t> bytes) {
  if (!analysis_) throw InvalidArgument("weights", "bytes fed before the plan was made");
  analysis_->feed(bytes);
}

nlohmann::ordered_json WeightsSession::finish() {
  if (!analysis_) throw InvalidArgument("weights", "finish before the plan was made");
  return weights_json(analysis_->finish(), header_bytes_);
}

}  // namespace posenc::model_io
