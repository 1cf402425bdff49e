// The RoPE tensor check through the posenc binary: `posenc eval` op check produces every cause id as the top
// diagnosis for a tensor broken the way its bug report broke it; `posenc check` reads .npy, .safetensors,
// JSON and text files written here by the test (no committed binaries) and exits 0 / 1 / 2; and the eval
// input bounds (size from the length, nesting depth, capped echo, the key "").
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/encodings/rope.h"
#include "core/rng.h"
#include "../common/check_cases.h"
#include "../common/json_rows.h"
#include "rope_tables.h"
#include "process.h"

using nlohmann::json;
using namespace posenc;

namespace {

using posenc::test::Proc;
using Check = posenc::test::PosencBinary;
using posenc::test::case_randn;
using posenc::test::case_range;
using posenc::test::json_rows;

using posenc::test::run_posenc;

using Kind = posenc::test::TableKind;
using posenc::test::cos_sin;
using posenc::test::cos_sin_table;
using posenc::test::inv_freq_f32;
using posenc::test::to_bf16;

struct Case {
  std::string cause, fit_key;
  json fit_value;  // a number (compared within 1e-6 relative) or a string / bool
  json request;
};

json request(json reference, const std::string& kind, const Matrix& actual, const std::vector<int64_t>& pos) {
  json r = {{"op", "check"}, {"reference", std::move(reference)}, {"kind", kind}};
  r["actual"] = kind == "inv_freq" ? json_rows(actual)[0] : json_rows(actual);
  if (!pos.empty()) r["positions"] = pos;
  return r;
}

Matrix inv_row(const RopeFrequencies& f) {
  Matrix m(1, static_cast<Eigen::Index>(f.inv_freq.size()));
  for (Eigen::Index i = 0; i < m.cols(); ++i) m(0, i) = f.inv_freq[static_cast<size_t>(i)];
  return m;
}

Matrix logits(const Matrix& q, const Matrix& k, const std::vector<int64_t>& pos, const RopeFrequencies& f, double s) {
  return s * (rope_apply(q, pos, f, RopeLayout::Half) * rope_apply(k, pos, f, RopeLayout::Half).transpose());
}

// One broken tensor per cause id, built from the core's rope_frequencies / rope_apply as the bug did.
std::vector<Case> cases() {
  std::vector<Case> out;
  const json plain64 = {{"dim", 64}, {"base", 10000.0}};
  const auto pos = case_range(32);
  const RopeFrequencies f64 = rope_frequencies(64, 10000.0);
  {  // layout: interleaved rotation where the reference is half (transformers #25199)
    const Matrix x = case_randn(32, 64, 1);
    json r = request(plain64, "rotated", rope_apply(x, pos, f64, RopeLayout::Interleaved), pos);
    r["x"] = json_rows(x);
    out.push_back({"layout", "layout", "interleaved", r});
  }
  {  // angle_precision: angles in bfloat16 (transformers #29285)
    const auto p = case_range(128);
    const Matrix c = cos_sin_table(Kind::Cos, p, 32, 1.0, RopeLayout::Half, [&](int64_t q, int i) {
      return to_bf16(static_cast<double>(q) * f64.inv_freq[static_cast<size_t>(i)]);
    });
    out.push_back({"angle_precision", "dtype", "bfloat16", request(plain64, "cos", c, p)});
  }
  {  // base: rope_theta 10000 where the model has 500000
    const json ref = {{"dim", 64}, {"base", 500000.0}};
    out.push_back({"base", "base", 10000.0, request(ref, "sin", cos_sin(Kind::Sin, pos, f64), pos)});
  }
  const json linear = {{"dim", 64}, {"base", 10000.0}, {"scaling", {{"type", "linear"}, {"factor", 4.0}}}};
  // scaling_missing: the linear scaling not applied
  out.push_back({"scaling_missing", "factor", 1.0, request(linear, "cos", cos_sin(Kind::Cos, pos, f64), pos)});
  {  // scaling_factor: factor 2 where the config says 4
    RopeScaling s;
    s.type = RopeScalingType::Linear;
    s.factor = 2;
    out.push_back({"scaling_factor", "factor", 2.0, request(linear, "inv_freq", inv_row(rope_frequencies(64, 10000.0, s)), {})});
  }
  RopeScaling yarn;
  yarn.type = RopeScalingType::Yarn;
  yarn.factor = 32;
  yarn.original_max_position_embeddings = 4096;
  const json yarn_json = {{"type", "yarn"}, {"factor", 32.0}, {"original_max_position_embeddings", 4096}};
  {  // yarn_truncate: gpt-oss's truncate = false ignored (sglang #14270)
    json sc = yarn_json;
    sc["truncate"] = false;
    const json ref = {{"dim", 64}, {"base", 150000.0}, {"scaling", sc}};
    out.push_back(
        {"yarn_truncate", "truncate", true, request(ref, "inv_freq", inv_row(rope_frequencies(64, 150000.0, yarn)), {})});
  }
  const json yarn_ref = {{"dim", 64}, {"base", 10000.0}, {"scaling", yarn_json}};
  {  // attention_factor: YaRN cos without its magnitude (vLLM #48351)
    RopeFrequencies f = rope_frequencies(64, 10000.0, yarn);
    f.attention_scaling = 1.0;
    out.push_back({"attention_factor", "attention_factor", 1.0, request(yarn_ref, "cos", cos_sin(Kind::Cos, pos, f), pos)});
  }
  {  // softmax_scale: DeepSeek's mscale^2 missing from the softmax scale (sglang #33558)
    json sc = yarn_json;
    sc["mscale"] = 1.0;
    sc["mscale_all_dim"] = 1.0;
    const double ms = 0.1 * std::log(32.0) + 1;
    const json ref = {{"dim", 64}, {"base", 10000.0}, {"scaling", sc}, {"softmax_scale", ms * ms / std::sqrt(192.0)}};
    RopeScaling s = yarn;
    s.mscale = s.mscale_all_dim = 1.0;
    const Matrix q = case_randn(32, 64, 2), k = case_randn(32, 64, 3);
    json r = request(ref, "logits", logits(q, k, pos, rope_frequencies(64, 10000.0, s), 1 / std::sqrt(192.0)), pos);
    r["q"] = json_rows(q);
    r["k"] = json_rows(k);
    out.push_back({"softmax_scale", "softmax_scale", 1 / std::sqrt(192.0), r});
  }
  {  // longrope_switch: short factors past the original length (vLLM #27431)
    const std::vector<double> sf = {1.0, 1.0, 1.05, 1.1, 1.2, 1.3, 1.6, 2.0}, lf = {1.0, 1.2, 1.8, 3.0, 5.5, 9.0, 14.0, 20.0};
    const json ref = {{"dim", 16},
                      {"base", 10000.0},
                      {"scaling",
                       {{"type", "longrope"},
                        {"factor", 32.0},
                        {"original_max_position_embeddings", 4096},
                        {"short_factor", sf},
                        {"long_factor", lf}}}};
    RopeScaling s;
    s.type = RopeScalingType::Longrope;
    s.factor = 32;
    s.original_max_position_embeddings = 4096;
    s.short_factor = sf;
    s.long_factor = lf;
    s.seq_len = 100;
    const auto p = case_range(61, 100);
    out.push_back(
        {"longrope_switch", "factors", "short", request(ref, "cos", cos_sin(Kind::Cos, p, rope_frequencies(16, 10000.0, s)), p)});
  }
  {  // dynamic_seq_len: dynamic NTK at the constant length L * factor (vLLM #41236)
    const json ref = {{"dim", 64},
                      {"base", 10000.0},
                      {"scaling", {{"type", "dynamic"}, {"factor", 2.0}, {"original_max_position_embeddings", 2048}}}};
    RopeScaling s;
    s.type = RopeScalingType::Dynamic;
    s.factor = 2;
    s.original_max_position_embeddings = 2048;
    s.seq_len = 4096;
    const auto p = case_range(100, 30);
    out.push_back(
        {"dynamic_seq_len", "seq_len", 4096.0, request(ref, "sin", cos_sin(Kind::Sin, p, rope_frequencies(64, 10000.0, s)), p)});
  }
  {  // partial_rotary: exponent over head_dim (transformers #48652)
    const json ref = {{"dim", 128}, {"base", 10000.0}, {"rotary_dim", 32}};
    RopeFrequencies f = rope_frequencies(128, 10000.0);
    f.inv_freq.resize(16);
    out.push_back({"partial_rotary", "exponent_dim", 128.0, request(ref, "cos", cos_sin(Kind::Cos, pos, f), pos)});
  }
  // position_offset: position_ids from 1
  out.push_back({"position_offset", "offset", 1.0, request(plain64, "cos", cos_sin(Kind::Cos, case_range(32, 1, 1), f64), pos)});
  {  // rotation_direction: rotate_half with the sign flipped = rotation at -p
    const Matrix x = case_randn(32, 64, 4);
    std::vector<int64_t> neg;
    for (int64_t p : pos) neg.push_back(-p);
    json r = request(plain64, "rotated", rope_apply(x, neg, f64, RopeLayout::Half), pos);
    r["x"] = json_rows(x);
    out.push_back({"rotation_direction", "sin_sign", -1.0, r});
  }
  {  // row_constant: ALiBi's causal form (slope * j) vs the relative one (slope * (j - i))
    const Matrix q = case_randn(32, 64, 5), k = case_randn(32, 64, 6);
    Matrix lg = logits(q, k, pos, f64, 0.125);
    for (Eigen::Index i = 0; i < 32; ++i) lg.row(i).array() += 0.25 * static_cast<double>(i);
    json r = request(plain64, "logits", lg, pos);
    r["q"] = json_rows(q);
    r["k"] = json_rows(k);
    out.push_back({"row_constant", "slope", 0.25, r});
  }
  {  // unknown: noise
    Matrix c = cos_sin(Kind::Cos, pos, f64) + 0.2 * case_randn(32, 64, 7);
    out.push_back({"unknown", "", nullptr, request(plain64, "cos", c, pos)});
  }
  return out;
}

void expect_fit(const json& d, const Case& c) {
  if (c.fit_key.empty()) return;
  ASSERT_TRUE(d["fitted"].contains(c.fit_key)) << c.cause << ": " << d.dump();
  const json& v = d["fitted"][c.fit_key];
  if (c.fit_value.is_number())
    EXPECT_NEAR(v.get<double>(), c.fit_value.get<double>(), 1e-6 * std::fabs(c.fit_value.get<double>())) << c.cause;
  else EXPECT_EQ(v, c.fit_value) << c.cause;
}

std::string temp(const std::string& name) { return testing::TempDir() + "posenc_check_" + std::to_string(getpid()) + "_" + name; }

// NumPy .npy v1.0: magic, version, header dict padded with spaces to a multiple of 64, then the data.
void write_npy(const std::string& path, const Matrix& m, const std::string& descr, bool vector = false,
               const std::string& shape_override = "") {
  const std::string shape = !shape_override.empty() ? shape_override
                            : vector                ? "(" + std::to_string(m.size()) + ",)"
                                                    : "(" + std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + ")";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const uint16_t len = static_cast<uint16_t>(header.size());
  out.put(static_cast<char>(len & 0xFF)).put(static_cast<char>(len >> 8));
  out << header;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    if (descr == "<f4") {
      const float v = static_cast<float>(m.data()[i]);
      out.write(reinterpret_cast<const char*>(&v), 4);
    } else {
      const double v = m.data()[i];
      out.write(reinterpret_cast<const char*>(&v), 8);
    }
  }
}

// safetensors: u64 header length, JSON header {name: {dtype, shape, data_offsets}}, then the F32 data.
void write_safetensors(const std::string& path, const std::vector<std::pair<std::string, Matrix>>& tensors) {
  json header = json::object();
  std::string data;
  for (const auto& [name, m] : tensors) {
    const size_t begin = data.size();
    for (Eigen::Index i = 0; i < m.size(); ++i) {
      const float v = static_cast<float>(m.data()[i]);
      data.append(reinterpret_cast<const char*>(&v), 4);
    }
    header[name] = {{"dtype", "F32"}, {"shape", {m.rows(), m.cols()}}, {"data_offsets", {begin, data.size()}}};
  }
  const std::string h = header.dump();
  std::ofstream out(path, std::ios::binary);
  const uint64_t n = h.size();
  out.write(reinterpret_cast<const char*>(&n), 8);
  out << h << data;
}

json parse_err(const Proc& p) {
  json e;
  EXPECT_NO_THROW(e = json::parse(p.err)) << p.err;
  return e;
}

}  // namespace

TEST_F(Check, EveryCauseIsTopThroughEval) {
  for (const Case& c : cases()) {
    const Proc p = run_posenc("eval -", c.request.dump());
    ASSERT_EQ(p.exit_code, 0) << c.cause << ": " << p.err;
    const json r = json::parse(p.out);
    EXPECT_FALSE(r["match"].get<bool>()) << c.cause;
    ASSERT_FALSE(r["diagnosis"].empty()) << c.cause;
    EXPECT_EQ(r["diagnosis"][0]["cause"], c.cause) << p.out.substr(0, 2000);
    expect_fit(r["diagnosis"][0], c);
    for (const char* key : {"match", "max_abs_error", "max_rel_error", "tolerance", "worst", "diagnosis"})
      EXPECT_TRUE(r.contains(key)) << key;
    EXPECT_EQ(r.contains("equivalent_under_softmax"), c.request["kind"] == "logits");
    for (const char* key : {"cause", "explains", "fitted", "message", "fix"}) EXPECT_TRUE(r["diagnosis"][0].contains(key));
  }
}

TEST_F(Check, EveryCauseIsTopThroughPosencCheck) {
  // The same tensors as .npy (float64) files and `posenc check --json`: exit 1, the same top cause.
  int n = 0;
  for (const Case& c : cases()) {
    const json& q = c.request;
    const std::string kind = q["kind"];
    auto to_matrix = [](const json& a) {
      if (!a[0].is_array()) {
        Matrix m(1, static_cast<Eigen::Index>(a.size()));
        for (size_t i = 0; i < a.size(); ++i) m(0, static_cast<Eigen::Index>(i)) = a[i].get<double>();
        return m;
      }
      Matrix m(static_cast<Eigen::Index>(a.size()), static_cast<Eigen::Index>(a[0].size()));
      for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index cc = 0; cc < m.cols(); ++cc)
          m(r, cc) = a[static_cast<size_t>(r)][static_cast<size_t>(cc)].get<double>();
      return m;
    };
    const std::string actual = temp("actual" + std::to_string(n) + ".npy");
    write_npy(actual, to_matrix(q["actual"]), "<f8", kind == "inv_freq");
    std::string args = "check --json --reference " + posenc::test::shell_quote(q["reference"].dump()) + " --kind " + kind +
                       " --actual " + posenc::test::shell_quote(actual);
    std::vector<std::string> files = {actual};
    if (q.contains("positions")) {
      std::string list;
      for (const auto& p : q["positions"]) list += (list.empty() ? "" : ",") + std::to_string(p.get<int64_t>());
      args += " --positions " + list;
    }
    for (const char* t : {"x", "q", "k"})
      if (q.contains(t)) {
        const std::string f = temp(std::string(t) + std::to_string(n) + ".npy");
        write_npy(f, to_matrix(q[t]), "<f8");
        args += std::string(" --") + t + " " + posenc::test::shell_quote(f);
        files.push_back(f);
      }
    const Proc p = run_posenc(args);
    EXPECT_EQ(p.exit_code, 1) << c.cause << ": " << p.err;
    const json r = json::parse(p.out);
    EXPECT_EQ(r["diagnosis"][0]["cause"], c.cause);
    expect_fit(r["diagnosis"][0], c);
    for (const auto& f : files) std::remove(f.c_str());
    ++n;
  }
}

TEST_F(Check, Float32AndDoubleTensorsMatchInEveryFileFormat) {
  const int dim = 128;
  const auto pos = case_range(512);
  const std::vector<float> w = inv_freq_f32(dim, 500000.0);
  const Matrix c32 = cos_sin_table(Kind::Cos, pos, dim / 2, 1.0, RopeLayout::Half, [&](int64_t p, int i) {
    return static_cast<double>(static_cast<float>(p) * w[static_cast<size_t>(i)]);  // the float32 angle
  });
  const std::string ref = posenc::test::shell_quote(R"({"dim":128,"base":500000})");
  const std::string npy = temp("cos32.npy"), st = temp("cos.safetensors"), txt = temp("cos.txt");
  write_npy(npy, c32, "<f4");
  const Proc a = run_posenc("check --reference " + ref + " --kind cos --actual " + npy);
  EXPECT_EQ(a.exit_code, 0) << a.out << a.err;
  EXPECT_NE(a.out.find("MATCH"), std::string::npos);
  // How close the worst element came, not a raw relative error of a near-zero element.
  EXPECT_NE(a.out.find("worst element at "), std::string::npos) << a.out;
  EXPECT_NE(a.out.find(" of its float32 tolerance"), std::string::npos) << a.out;
  EXPECT_EQ(a.out.find("relative error"), std::string::npos) << a.out;
  // transformers' (1, n, dim) cos: the leading 1 is dropped.
  write_npy(npy, c32, "<f4", false, "(1, 512, 128)");
  EXPECT_EQ(run_posenc("check --reference " + ref + " --kind cos --actual " + npy).exit_code, 0);
  // The double tensor, as text (CSV) and in a safetensors file with two tensors (--name).
  const Matrix c64 = cos_sin(Kind::Cos, pos, rope_frequencies(dim, 500000.0));
  {
    std::ofstream t(txt);
    t.precision(17);
    t << "# cos, 512 x 128\n";
    for (Eigen::Index r = 0; r < c64.rows(); ++r)
      for (Eigen::Index cc = 0; cc < c64.cols(); ++cc) t << c64(r, cc) << (cc + 1 < c64.cols() ? "," : "\n");
  }
  EXPECT_EQ(run_posenc("check --reference " + ref + " --kind cos --actual " + txt).exit_code, 0);
  write_safetensors(st, {{"cos", c32}, {"sin", cos_sin(Kind::Sin, pos, rope_frequencies(dim, 500000.0))}});
  const Proc s = run_posenc("check --reference " + ref + " --kind sin --actual " + st + " --name sin --json");
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_TRUE(json::parse(s.out)["match"].get<bool>());
  // Without --name the file's two tensors are named in the error.
  const Proc amb = run_posenc("check --reference " + ref + " --kind sin --actual " + st);
  EXPECT_EQ(amb.exit_code, 2);
  EXPECT_EQ(parse_err(amb)["field"], "actual");
  // bfloat16 angles do not match; the human output names the cause, its fit and a fix.
  const Matrix bad = cos_sin_table(Kind::Cos, pos, dim / 2, 1.0, RopeLayout::Half,
                                   [&](int64_t p, int i) { return to_bf16(static_cast<double>(p) * w[static_cast<size_t>(i)]); });
  write_npy(npy, bad, "<f4");
  const Proc b = run_posenc("check --reference " + ref + " --kind cos --actual " + npy);
  EXPECT_EQ(b.exit_code, 1);
  EXPECT_NE(b.out.find("MISMATCH"), std::string::npos);
  EXPECT_NE(b.out.find("angle_precision"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("dtype=bfloat16"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("fix: "), std::string::npos);
  for (const auto& f : {npy, st, txt}) std::remove(f.c_str());
}

// The peak resident set of `posenc check <args>` (wait4's ru_maxrss of that one child) in KiB, when it exits
// 1 (a mismatch: every cause is fitted); -1 otherwise.
long check_peak_kib(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv{const_cast<char*>(posenc::test::kCliPath), const_cast<char*>("check")};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) _exit(127);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 1) return -1;
  return usage.ru_maxrss;
}

// A check holds the tensors it was given and the expected one, nothing else of their size (the tolerance is
// computed where it is read, each cause's tensor scored a block of rows at a time). 2^22 elements (32 MiB as
// doubles: above glibc's largest mmap threshold, so each tensor is mapped and unmapped whole) over a 16-row
// check of the same kind: cos about 2 tensors (actual and expected), rotated 3 in the check and 3.5 while x is
// read beside actual (x's float32 bytes, its values, its matrix). Before: 8 and 9 (the tolerance, every fit's
// whole tensor, two kept predictions); 1 GB for 2^24 elements.
TEST_F(Check, PeakMemoryIsTheGivenTensorsAndTheExpectedOne) {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer's shadow memory and freed-block quarantine add to the peak what the program never holds.
  GTEST_SKIP() << "peak memory is not the program's own under AddressSanitizer";
#endif
  const int dim = 128;
  const int64_t big = 32768;
  const long tensor_kib = big * dim * 8 / 1024;
  const RopeFrequencies wrong = rope_frequencies(dim, 20000.0);  // base 20000 against the reference's 10000
  long peak[2][2] = {};                                          // [small, big][cos, rotated]
  for (int size = 0; size < 2; ++size) {
    const auto pos = case_range(size ? big : 16);
    const Matrix x = case_randn(static_cast<Eigen::Index>(pos.size()), dim, 3);
    const std::string cos = temp("mem_cos.npy"), xf = temp("mem_x.npy"), rot = temp("mem_rot.npy");
    write_npy(cos, cos_sin(Kind::Cos, pos, wrong), "<f4");
    write_npy(xf, x, "<f4");
    write_npy(rot, posenc::test::rotate_span(x, pos, wrong.inv_freq, dim / 2), "<f4");
    const std::vector<std::string> ref{"--reference", R"({"dim":128,"base":10000})"};
    std::vector<std::string> a = ref, b = ref;
    a.insert(a.end(), {"--kind", "cos", "--actual", cos});
    b.insert(b.end(), {"--kind", "rotated", "--x", xf, "--actual", rot});
    peak[size][0] = check_peak_kib(a);
    peak[size][1] = check_peak_kib(b);
    for (const std::string& f : {cos, xf, rot}) std::remove(f.c_str());
  }
  for (int kind = 0; kind < 2; ++kind) {
    ASSERT_GT(peak[0][kind], 0) << "the small check did not run (or did not mismatch)";
    ASSERT_GT(peak[1][kind], 0) << "the big check did not run (or did not mismatch)";
    const double tensors = double(peak[1][kind] - peak[0][kind]) / double(tensor_kib);
    std::printf("# %s: %ld KiB peak for 2^22 elements, %ld KiB for 16 rows: %.2f tensors of 32 MiB\n", kind ? "rotated" : "cos",
                peak[1][kind], peak[0][kind], tensors);
    EXPECT_LE(tensors, kind ? 4.0 : 2.5) << (kind ? "rotated" : "cos");
  }
}

TEST_F(Check, ReferenceFromAConfig) {
  // A Llama-3-style config: head_dim 64 from hidden_size / heads, rope_theta 500000.
  const json config = {{"model_type", "llama"},
                       {"hidden_size", 512},
                       {"num_attention_heads", 8},
                       {"rope_theta", 500000.0},
                       {"max_position_embeddings", 8192}};
  const auto pos = case_range(16);
  const Matrix c = cos_sin(Kind::Cos, pos, rope_frequencies(64, 500000.0));
  json req = request({{"config", config}}, "cos", c, pos);
  const Proc p = run_posenc("eval -", req.dump());
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(json::parse(p.out)["match"].get<bool>());
  const std::string cfg = temp("config.json"), js = temp("cos.json");
  std::ofstream(cfg) << config.dump();
  std::ofstream(js) << json_rows(c).dump();
  EXPECT_EQ(run_posenc("check --config " + cfg + " --kind cos --actual " + js).exit_code, 0);
  req["reference"]["layer_type"] = "sliding_attention";
  EXPECT_EQ(json::parse(run_posenc("eval -", req.dump()).err)["field"], "reference.layer_type");
  std::remove(cfg.c_str());
  std::remove(js.c_str());
}

TEST_F(Check, MlaPortThroughTheConfig) {
  // DeepSeek-V3's attention keys (its published config.json): q.k spans 128 nope dims, then the 64 rope dims
  // (transformers modeling_deepseek_v3.py @c0ce2e40523611eb0eb5d2c03ba304371523a1fc: q_nope, q_pe =
  // torch.split(q, [qk_nope_head_dim, qk_rope_head_dim]), rotate_every_two on q_pe and k_pe; vLLM
  // deepseek_v2.py @b863fe5bf4e19680572603b4e166faefc5725551 the same split).
  const json config = {{"model_type", "deepseek_v3"},
                       {"hidden_size", 7168},
                       {"num_attention_heads", 128},
                       {"qk_nope_head_dim", 128},
                       {"qk_rope_head_dim", 64},
                       {"v_head_dim", 128},
                       {"max_position_embeddings", 163840},
                       {"rope_theta", 10000},
                       {"rope_scaling",
                        {{"type", "yarn"},
                         {"factor", 40},
                         {"original_max_position_embeddings", 4096},
                         {"beta_fast", 32},
                         {"beta_slow", 1},
                         {"mscale", 1.0},
                         {"mscale_all_dim", 1.0}}}};
  RopeScaling yarn;
  yarn.type = RopeScalingType::Yarn;
  yarn.factor = 40;
  yarn.original_max_position_embeddings = 4096;
  yarn.mscale = 1.0;
  yarn.mscale_all_dim = 1.0;
  const RopeFrequencies f = rope_frequencies(64, 10000.0, yarn);
  const auto pos = case_range(24);
  const Matrix x = case_randn(24, 192, 41);
  auto port = [&](int offset) {  // cat(nope, rope(pe)) with the rope dims at `offset`
    Matrix out = x;
    out.middleCols(offset, 64) = rope_apply(Matrix(x.middleCols(offset, 64)), pos, f, RopeLayout::Interleaved);
    return out;
  };
  const std::string cfg = temp("mla_config.json"), a = temp("mla_actual.npy"), xf = temp("mla_x.npy");
  std::ofstream(cfg) << config.dump();
  const std::string base = "check --config " + cfg + " --kind rotated --actual " + a + " --x " + xf;
  // Full width, the rope slice last: a match.
  write_npy(a, port(128), "<f8");
  write_npy(xf, x, "<f8");
  const Proc full = run_posenc(base);
  EXPECT_EQ(full.exit_code, 0) << full.out << full.err;
  // The rope slice alone (q_pe after RoPE, 24 x 64): a match.
  write_npy(a, Matrix(port(128).rightCols(64)), "<f8");
  write_npy(xf, Matrix(x.rightCols(64)), "<f8");
  const Proc alone = run_posenc(base);
  EXPECT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  // The front slice rotated: rotary_offset, offset 0.
  write_npy(a, port(0), "<f8");
  write_npy(xf, x, "<f8");
  const Proc front = run_posenc(base + " --json");
  EXPECT_EQ(front.exit_code, 1) << front.err;
  const json r = json::parse(front.out);
  EXPECT_EQ(r["diagnosis"][0]["cause"], "rotary_offset") << front.out.substr(0, 2000);
  EXPECT_EQ(r["diagnosis"][0]["fitted"]["offset"], 0);
  // Logits from the rope slice alone: exit 2 naming q.
  const std::string q = temp("mla_q.npy"), k = temp("mla_k.npy");
  write_npy(q, Matrix(x.rightCols(64)), "<f8");
  write_npy(k, Matrix(x.rightCols(64)), "<f8");
  write_npy(a, Matrix::Zero(24, 24), "<f8");
  const Proc lg = run_posenc("check --config " + cfg + " --kind logits --actual " + a + " --q " + q + " --k " + k);
  EXPECT_EQ(lg.exit_code, 2);
  EXPECT_EQ(parse_err(lg)["field"], "q");
  // inspect says where the slice sits; the model response carries rope.rotary_offset.
  const Proc ins = run_posenc("inspect " + cfg);
  EXPECT_NE(ins.out.find("64 of 192 (32 pairs, interleaved layout; dims 128..191, the last)"), std::string::npos) << ins.out;
  const Proc js = run_posenc("inspect --json " + cfg);
  ASSERT_EQ(js.exit_code, 0) << js.err;
  EXPECT_EQ(json::parse(js.out)["rope"]["rotary_offset"], 128) << js.out.substr(0, 1500);
  for (const auto& file : {cfg, a, xf, q, k}) std::remove(file.c_str());
}

TEST_F(Check, DeepseekV4LayerTypeNames) {
  // DeepSeek-V4's own layer types name the RoPE they rotate with (configuration_deepseek_v4.py
  // @015c078164151a049126942989817713e83a8f3e): sliding -> main, the compressed ones -> compress.
  const json config = {{"model_type", "deepseek_v4"},
                       {"hidden_size", 4096},
                       {"num_attention_heads", 64},
                       {"head_dim", 512},
                       {"qk_rope_head_dim", 64},
                       {"max_position_embeddings", 65536},
                       {"rope_theta", 10000},
                       {"compress_rope_theta", 160000},
                       {"compress_ratios", {0, 4, 128, 4}},
                       {"num_hidden_layers", 4},
                       {"sliding_window", 128}};
  const auto pos = case_range(8);
  json req = request({{"config", config}, {"layer_type", "main"}}, "inv_freq", inv_row(rope_frequencies(64, 10000.0)), {});
  auto top = [&](const std::string& type) {
    req["reference"]["layer_type"] = type;
    const Proc p = run_posenc("eval -", req.dump());
    return p.exit_code == 0 ? json::parse(p.out)["match"].dump() : p.err;
  };
  EXPECT_EQ(top("main"), "true");
  EXPECT_EQ(top("sliding_attention"), "true");
  EXPECT_EQ(top("compress"), "false");
  EXPECT_EQ(top("compressed_sparse_attention"), "false");
  EXPECT_EQ(top("heavily_compressed_attention"), "false");
  req["actual"] = json_rows(inv_row(rope_frequencies(64, 160000.0)))[0];
  EXPECT_EQ(top("heavily_compressed_attention"), "true");
  EXPECT_EQ(top("compressed_sparse_attention"), "true");
  const std::string err = top("full_attention");
  EXPECT_NE(err.find("reference.layer_type"), std::string::npos) << err;
  EXPECT_NE(err.find("compressed_sparse_attention"), std::string::npos) << err;
}

TEST_F(Check, DefaultPositionsLimitTheRowsOfActual) {
  // Without --positions row i is position i: a tensor with more rows than positions allow names actual and its
  // rows, not positions (which the user never gave).
  const std::string ref = posenc::test::shell_quote(R"({"dim":2,"base":10000})");
  const std::string a = temp("many_rows.npy");
  write_npy(a, Matrix::Zero(1000002, 2), "<f4");
  const Proc p = run_posenc("check --reference " + ref + " --kind cos --actual " + a);
  EXPECT_EQ(p.exit_code, 2);
  const json e = parse_err(p);
  EXPECT_EQ(e["field"], "actual");
  EXPECT_EQ(e["error"],
            "actual has 1000002 rows; without --positions row i is at position i, and positions stop at 10^6: at most "
            "1000001 rows (give --positions for others)")
      << p.err;
  // kind logits: at most 2048 positions, so at most 2048 rows.
  const std::string q = temp("many_q.npy");
  write_npy(a, Matrix::Zero(2049, 2049), "<f4");
  write_npy(q, Matrix::Zero(2049, 2), "<f4");
  const Proc l = run_posenc("check --reference " + ref + " --kind logits --actual " + a + " --q " + q + " --k " + q);
  EXPECT_EQ(l.exit_code, 2);
  const json le = parse_err(l);
  EXPECT_EQ(le["field"], "actual");
  EXPECT_NE(le["error"].get<std::string>().find("(actual has 2049 rows; without --positions row i is at position i)"),
            std::string::npos)
      << l.err;
  std::remove(a.c_str());
  std::remove(q.c_str());
}

TEST_F(Check, BadInputIsExit2NamingTheField) {
  const json ref = {{"dim", 16}, {"base", 10000.0}};
  auto field = [](const json& req) {
    const Proc p = run_posenc("eval -", req.dump());
    EXPECT_EQ(p.exit_code, 2) << req.dump() << " -> " << p.out;
    EXPECT_EQ(p.out, "");
    return parse_err(p)["field"];
  };
  const Matrix c = Matrix::Zero(4, 16);
  EXPECT_EQ(field(request(ref, "cos", Matrix::Zero(3, 16), case_range(4))), "actual");
  EXPECT_EQ(field(request(ref, "cos", Matrix::Zero(4, 10), case_range(4))), "actual");
  EXPECT_EQ(field(request(ref, "inv_freq", Matrix::Zero(1, 9), {})), "actual");
  json r = request(ref, "cos", c, case_range(4));
  r["x"] = json_rows(c);
  EXPECT_EQ(field(r), "x");
  r = request(ref, "rotated", c, case_range(4));
  r["x"] = json_rows(Matrix::Zero(4, 12));
  EXPECT_EQ(field(r), "x");
  r = request(ref, "logits", Matrix::Zero(4, 4), case_range(4));
  r["q"] = json_rows(c);
  r["k"] = json_rows(Matrix::Zero(5, 16));
  EXPECT_EQ(field(r), "k");
  EXPECT_EQ(field(request(ref, "tan", c, case_range(4))), "kind");
  r = request(ref, "cos", c, case_range(4));
  r["tolerence"] = 1;
  EXPECT_EQ(field(r), "tolerence");
  r = request(ref, "cos", c, case_range(4));
  r["tolerance"] = {{"abs", -1}};
  EXPECT_EQ(field(r), "tolerance.abs");
  r = request({{"dim", 16}, {"base", 10000.0}, {"scaling", {{"type", "linear"}, {"factor", 0.5}}}}, "cos", c, case_range(4));
  EXPECT_EQ(field(r), "reference.scaling.factor");
  r = request({{"dim", 16}, {"bsae", 10000.0}}, "cos", c, case_range(4));
  EXPECT_EQ(field(r), "reference.bsae");
  r = request(ref, "cos", c, {});
  EXPECT_EQ(field(r), "positions");
  // posenc check: a .npy whose header claims 10^12 elements in a tiny file, a safetensors header length
  // past the end: exit 2 naming actual, nothing allocated for them.
  const std::string npy = temp("huge.npy"), st = temp("bad.safetensors");
  write_npy(npy, Matrix::Zero(1, 4), "<f8", false, "(1000000, 1000000)");
  const std::string refq = posenc::test::shell_quote(ref.dump());
  Proc p = run_posenc("check --reference " + refq + " --kind cos --actual " + npy);
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(parse_err(p)["field"], "actual");
  write_npy(npy, Matrix::Zero(4, 16), "<f8", false, "(4, 17)");
  p = run_posenc("check --reference " + refq + " --kind cos --actual " + npy);
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(parse_err(p)["field"], "actual");
  {
    std::ofstream out(st, std::ios::binary);
    const uint64_t n = uint64_t{1} << 40;
    out.write(reinterpret_cast<const char*>(&n), 8);
    out << "{}";
  }
  p = run_posenc("check --reference " + refq + " --kind cos --actual " + st);
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(parse_err(p)["field"], "actual");
  p = run_posenc("check --reference " + refq + " --kind rotated --actual " + npy);
  EXPECT_EQ(p.exit_code, 2);
  std::remove(npy.c_str());
  std::remove(st.c_str());
}

TEST_F(Check, EvalInputBounds) {
  // An unknown key "" is named "" (not null).
  Proc p = run_posenc("eval -", R"({"op":"alibi_slopes","heads":4,"":1})");
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(parse_err(p)["field"], "");
  // Nesting is limited while parsing: 10^6 '[' are refused without building them.
  p = run_posenc("eval -", std::string(1'000'000, '['));
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_NE(parse_err(p)["error"].get<std::string>().find("nested deeper than 64"), std::string::npos) << p.err;
  EXPECT_EQ(parse_err(p)["field"], nullptr);
  // A 1 MB unknown key is echoed at most 256 bytes.
  const std::string key(1'000'000, 'k');
  p = run_posenc("eval -", "{\"op\":\"alibi_slopes\",\"heads\":4,\"" + key + "\":1}");
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_LT(p.err.size(), 2000u);
  const std::string f = parse_err(p)["field"];
  EXPECT_EQ(f.substr(0, 256), key.substr(0, 256));
  EXPECT_NE(f.find("1000000 bytes"), std::string::npos);
}
