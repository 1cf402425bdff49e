// The `posenc eval` contract, in-process (native builds only: nlohmann-json is not visible to emcc).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "cli/eval.h"
#include "core/encodings/rope.h"
#include "core/encodings/sinusoidal.h"

using nlohmann::json;
using posenc::InvalidArgument;
using posenc::cli::evaluate_request;

namespace {

json eval(const std::string& request) { return json::parse(evaluate_request(request)); }

// The field an InvalidArgument names ("" = null), or "<ok>" when the request succeeds.
std::string bad_field(const std::string& request) {
  try {
    evaluate_request(request);
  } catch (const InvalidArgument& e) { return e.field(); }
  return "<ok>";
}

const char* kAttentionHead =
    R"("op":"attention","q":[[1,0],[0,1]],"k":[[1,0],[0,1]],"query_positions":[0,1],"key_positions":[0,1],"causal":false,)";

std::string attention_with(const std::string& position) {
  return std::string("{") + kAttentionHead + R"("position":)" + position + "}";
}

}  // namespace

TEST(Eval, SinusoidalValuesRoundTripExactly) {
  const json r = eval(R"({"op":"sinusoidal","positions":[0,1,7,1000000,-3],"dim":6,"base":500})");
  const std::vector<int64_t> pos{0, 1, 7, 1000000, -3};
  const posenc::Matrix ref = posenc::sinusoidal_table(pos, 6, 500);
  ASSERT_EQ(r["values"].size(), 5u);
  for (int p = 0; p < 5; ++p)
    for (int c = 0; c < 6; ++c) EXPECT_EQ(r["values"][p][c].get<double>(), ref(p, c));  // bit-exact
  // base defaults to 10000; an integer is accepted where a float is expected.
  EXPECT_EQ(eval(R"({"op":"sinusoidal","positions":[2],"dim":2})")["values"][0][0].get<double>(), std::sin(2.0));
  EXPECT_EQ(eval(R"({"op":"sinusoidal","positions":[],"dim":2})")["values"], json::array());
}

TEST(Eval, T5Bucket) {
  const json r = eval(
      R"({"op":"t5_bucket","relative_positions":[-128,-16,-1,0,1,16,128],"bidirectional":true,"num_buckets":32,"max_distance":128})");
  EXPECT_EQ(r["buckets"], json({15, 10, 1, 0, 17, 26, 31}));
  const json c =
      eval(R"({"op":"t5_bucket","relative_positions":[3,0,-20],"bidirectional":false,"num_buckets":32,"max_distance":128})");
  EXPECT_EQ(c["buckets"], json({0, 0, 17}));
}

TEST(Eval, DebertaRelativePositions) {
  const json r = eval(R"({"op":"deberta_relative_positions","query_size":2,"key_size":3,"bucket_size":-1,"max_position":-1})");
  EXPECT_EQ(r["relative_positions"], json({{0, -1, -2}, {1, 0, -1}}));
  const json b = eval(R"({"op":"deberta_relative_positions","query_size":17,"key_size":1,"bucket_size":8,"max_position":16})");
  EXPECT_EQ(b["relative_positions"][16][0], 8);
  EXPECT_EQ(b["relative_positions"][15][0], 7);
}

TEST(Eval, RopeFrequenciesWithEveryScaling) {
  const json r = eval(R"({"op":"rope_frequencies","dim":8,"base":10000})");
  EXPECT_EQ(r["inv_freq"].size(), 4u);
  EXPECT_EQ(r["attention_scaling"].get<double>(), 1.0);
  const json y = eval(
      R"({"op":"rope_frequencies","dim":8,"base":10000,"scaling":{"type":"yarn","factor":4,"original_max_position_embeddings":2048}})");
  EXPECT_DOUBLE_EQ(y["attention_scaling"].get<double>(), 0.1 * std::log(4.0) + 1);
  EXPECT_NEAR(y["inv_freq"][2].get<double>(), 0.00625, 1e-17);
  for (const char* s :
       {R"({"type":"none"})", R"({"type":"linear","factor":2})", R"({"type":"ntk","factor":2})",
        R"({"type":"dynamic","factor":2,"original_max_position_embeddings":16,"seq_len":64})",
        R"({"type":"yarn","factor":2,"original_max_position_embeddings":16,"beta_fast":16,"beta_slow":2})",
        R"({"type":"llama3","factor":8,"original_max_position_embeddings":64,"low_freq_factor":1,"high_freq_factor":4})"}) {
    const json out = eval(std::string(R"({"op":"rope_frequencies","dim":16,"base":10000,"scaling":)") + s + "}");
    EXPECT_EQ(out["inv_freq"].size(), 8u) << s;
  }
}

TEST(Eval, RopeApplyMatchesCore) {
  const json r = eval(
      R"({"op":"rope_apply","x":[[1,2,3,4],[5,6,7,8]],"positions":[3,900000],"dim":4,"base":10000,"layout":"interleaved","scaling":{"type":"yarn","factor":2,"original_max_position_embeddings":8}})");
  posenc::Matrix x(2, 4);
  x << 1, 2, 3, 4, 5, 6, 7, 8;
  posenc::RopeScaling s;
  s.type = posenc::RopeScalingType::Yarn;
  s.factor = 2;
  s.original_max_position_embeddings = 8;
  const std::vector<int64_t> pos{3, 900000};
  const posenc::Matrix ref = posenc::rope_apply(x, pos, 4, 10000, s, posenc::RopeLayout::Interleaved);
  for (int i = 0; i < 2; ++i)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(r["values"][i][c].get<double>(), ref(i, c));
}

TEST(Eval, AlibiSlopes) { EXPECT_EQ(eval(R"({"op":"alibi_slopes","heads":3})")["slopes"], json({0.0625, 0.00390625, 0.25})); }

TEST(Eval, AttentionMaskedLogitsAreNull) {
  const json r = eval(
      R"({"op":"attention","q":[[1,0],[0,1]],"k":[[1,0],[0,1]],"v":[[1,2],[3,4]],"query_positions":[0,1],"key_positions":[0,1],"causal":true,"position":{"scheme":"none"}})");
  EXPECT_TRUE(r["logits"][0][1].is_null());
  EXPECT_EQ(r["weights"][0][1].get<double>(), 0.0);
  EXPECT_EQ(r["weights"][0][0].get<double>(), 1.0);
  EXPECT_EQ(r["output"][0], json({1.0, 2.0}));
  EXPECT_FALSE(eval(attention_with(R"({"scheme":"none"})")).contains("output"));
}

TEST(Eval, AttentionEverySchemeAnswers) {
  for (
      const char* p :
      {R"({"scheme":"none","scale":1})", R"({"scheme":"rope","base":10000,"layout":"half"})",
       R"({"scheme":"rope","base":10000,"layout":"interleaved","scaling":{"type":"linear","factor":2}})",
       R"({"scheme":"t5","bidirectional":true,"num_buckets":4,"max_distance":8,"bias":[0,1,2,3]})",
       R"({"scheme":"alibi","slope":0.5})",
       R"({"scheme":"shaw","max_relative_position":1,"key_table":[[1,0],[0,0],[0,1]],"value_table":[[1],[2],[3]]})",
       R"({"scheme":"deberta","bucket_size":-1,"max_position":2,"pos_key":[[1,0],[0,1],[1,1],[0,0]],"pos_query":[[0,0],[1,1],[0,1],[1,0]]})",
       R"({"scheme":"xl","u":[0,1],"v":[1,0],"r_proj":[[1,0],[0,1]],"base":10000})"}) {
    const json r = eval(attention_with(p));
    EXPECT_EQ(r["logits"].size(), 2u) << p;
    EXPECT_NEAR(r["weights"][0][0].get<double>() + r["weights"][0][1].get<double>(), 1.0, 1e-15) << p;
  }
  // T5 is unscaled: logits = q.k + bias[bucket].
  const json t5 =
      eval(attention_with(R"({"scheme":"t5","bidirectional":true,"num_buckets":4,"max_distance":8,"bias":[0,10,20,30]})"));
  EXPECT_EQ(t5["logits"][0][0].get<double>(), 1.0);
  EXPECT_EQ(t5["logits"][0][1].get<double>(), 30.0);  // r = +1 -> bucket 2 + 1
  EXPECT_EQ(t5["logits"][1][0].get<double>(), 10.0);  // r = -1 -> bucket 1
}

TEST(Eval, BadInputNamesTheField) {
  // malformed JSON, NaN / Infinity / overflowing literals, trailing data, not an object: field null.
  for (const char* r : {"", "{", R"({"op":"sinusoidal","positions":[NaN],"dim":2})",
                        R"({"op":"sinusoidal","positions":[0],"dim":2,"base":Infinity})",
                        R"({"op":"sinusoidal","positions":[0],"dim":2,"base":-Infinity})",
                        R"({"op":"sinusoidal","positions":[0],"dim":2,"base":1e400})", "{} {}", "[1]", "42"})
    EXPECT_EQ(bad_field(r), "") << r;
  EXPECT_EQ(bad_field(R"({"positions":[0]})"), "op");
  EXPECT_EQ(bad_field(R"({"op":"sinusoidl"})"), "op");
  EXPECT_EQ(bad_field(R"({"op":3})"), "op");
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0]})"), "dim");            // missing
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0],"dim":"4"})"), "dim");  // ill-typed
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0],"dim":4.0})"), "dim");  // float for int
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0.5],"dim":4})"), "positions");
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":0,"dim":4})"), "positions");
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0],"dim":4,"bsae":10})"), "bsae");  // unknown
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0],"dim":4,"dim":6})"), "dim");     // duplicate
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0],"dim":3})"), "dim");             // odd
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0],"dim":8192})"), "dim");          // limit
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[1000001],"dim":2})"), "positions");
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0],"dim":2,"base":1})"), "base");
  EXPECT_EQ(bad_field(R"({"op":"sinusoidal","positions":[0],"dim":2,"base":null})"), "base");

  const std::string t5 = R"({"op":"t5_bucket","relative_positions":[0],)";
  EXPECT_EQ(bad_field(t5 + R"("bidirectional":true,"num_buckets":0,"max_distance":128})"), "num_buckets");
  EXPECT_EQ(bad_field(t5 + R"("bidirectional":true,"num_buckets":2,"max_distance":128})"), "num_buckets");
  EXPECT_EQ(bad_field(t5 + R"("bidirectional":true,"num_buckets":32,"max_distance":8})"), "max_distance");
  EXPECT_EQ(bad_field(t5 + R"("bidirectional":1,"num_buckets":32,"max_distance":128})"), "bidirectional");
  EXPECT_EQ(bad_field(t5 + R"("num_buckets":32,"max_distance":128})"), "bidirectional");

  EXPECT_EQ(bad_field(R"({"op":"alibi_slopes","heads":0})"), "heads");
  EXPECT_EQ(bad_field(R"({"op":"alibi_slopes","heads":100000})"), "heads");
  EXPECT_EQ(bad_field(R"({"op":"deberta_relative_positions","query_size":2,"key_size":2,"bucket_size":8,"max_position":5})"),
            "max_position");
  EXPECT_EQ(
      bad_field(R"({"op":"deberta_relative_positions","query_size":5000,"key_size":5000,"bucket_size":-1,"max_position":-1})"),
      "key_size");

  const std::string rf = R"({"op":"rope_frequencies","dim":8,"base":10000,"scaling":)";
  EXPECT_EQ(bad_field(rf + R"({"type":"linear","factor":0.5}})"), "scaling.factor");
  EXPECT_EQ(bad_field(rf + R"({"type":"linear"}})"), "scaling.factor");
  EXPECT_EQ(bad_field(rf + R"({"type":"linear","fator":2}})"), "scaling.fator");
  EXPECT_EQ(bad_field(rf + R"({"type":"linear","factor":2,"beta_fast":3}})"), "scaling.beta_fast");
  EXPECT_EQ(bad_field(rf + R"({"type":"warp","factor":2}})"), "scaling.type");
  EXPECT_EQ(bad_field(rf + R"({"factor":2}})"), "scaling.type");
  EXPECT_EQ(bad_field(rf + R"("linear"})"), "scaling");
  EXPECT_EQ(bad_field(rf + R"({"type":"yarn","factor":2}})"), "scaling.original_max_position_embeddings");
  EXPECT_EQ(bad_field(rf + R"({"type":"yarn","factor":2,"original_max_position_embeddings":8,"beta_fast":0}})"),
            "scaling.beta_fast");
  EXPECT_EQ(bad_field(rf + R"({"type":"llama3","factor":2,"original_max_position_embeddings":8,"low_freq_factor":1}})"),
            "scaling.high_freq_factor");
  EXPECT_EQ(
      bad_field(rf +
                R"({"type":"llama3","factor":2,"original_max_position_embeddings":8,"low_freq_factor":4,"high_freq_factor":1}})"),
      "scaling.high_freq_factor");
  EXPECT_EQ(bad_field(rf + R"({"type":"dynamic","factor":2,"original_max_position_embeddings":8,"seq_len":0}})"),
            "scaling.seq_len");
  EXPECT_EQ(bad_field(R"({"op":"rope_frequencies","dim":2,"base":10000,"scaling":{"type":"ntk","factor":2}})"), "dim");
  EXPECT_EQ(bad_field(R"({"op":"rope_frequencies","dim":8})"), "base");

  const std::string ra = R"({"op":"rope_apply","dim":4,"base":10000,)";
  EXPECT_EQ(bad_field(ra + R"("x":[[1,2,3]],"positions":[0],"layout":"half"})"), "x");
  EXPECT_EQ(bad_field(ra + R"("x":[[1,2,3,4],[1,2]],"positions":[0,1],"layout":"half"})"), "x");
  EXPECT_EQ(bad_field(ra + R"("x":[[1,2,3,4]],"positions":[0,1],"layout":"half"})"), "positions");
  EXPECT_EQ(bad_field(ra + R"("x":[[1,2,3,4]],"positions":[0],"layout":"halves"})"), "layout");
  EXPECT_EQ(bad_field(ra + R"("x":[[1,2,3,4]],"positions":[0]})"), "layout");
  EXPECT_EQ(bad_field(ra + R"("x":[[1,2,3,"4"]],"positions":[0],"layout":"half"})"), "x");

  std::string no_position = std::string("{") + kAttentionHead;
  no_position.back() = '}';                   // drop the trailing comma
  EXPECT_EQ(bad_field(no_position), "<ok>");  // omitted position = {"scheme": "none"}
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"sinusoidal"})")), "position.scheme");
  EXPECT_EQ(bad_field(attention_with(R"({"base":10000})")), "position.scheme");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"alibi","slope":1,"sloep":2})")), "position.sloep");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"alibi"})")), "position.slope");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"none","scale":"x"})")), "position.scale");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"t5","bidirectional":true,"num_buckets":4,"max_distance":8,"bias":[1]})")),
            "position.bias");
  EXPECT_EQ(
      bad_field(attention_with(R"({"scheme":"t5","bidirectional":true,"num_buckets":4,"max_distance":1,"bias":[1,2,3,4]})")),
      "position.max_distance");
  EXPECT_EQ(
      bad_field(attention_with(R"({"scheme":"rope","base":10000,"layout":"half","scaling":{"type":"linear","factor":-2}})")),
      "position.scaling.factor");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"rope","base":0.5,"layout":"half"})")), "position.base");
  // d = 2 has no dynamic NTK exponent dim/(dim-2): the width comes from q.
  EXPECT_EQ(
      bad_field(attention_with(
          R"({"scheme":"rope","base":10000,"layout":"half","scaling":{"type":"dynamic","factor":2,"original_max_position_embeddings":1}})")),
      "q");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"shaw","max_relative_position":1,"key_table":[[1,0]]})")),
            "position.key_table");
  EXPECT_EQ(bad_field(attention_with(
                R"({"scheme":"deberta","bucket_size":-1,"max_position":2,"pos_key":[[1,0]],"pos_query":[[1,0]]})")),
            "position.pos_key");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"deberta","bucket_size":-1,"max_position":-1,"pos_key":[],"pos_query":[]})")),
            "position.max_position");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"xl","u":[0],"v":[1,0],"r_proj":[[1,0],[0,1]],"base":10000})")), "position.u");
  EXPECT_EQ(bad_field(attention_with(R"({"scheme":"xl","u":[0,0],"v":[1,0],"r_proj":[[1,0],[0,1]]})")), "position.base");

  const std::string att = R"({"op":"attention","causal":false,"position":{"scheme":"none"},)";
  EXPECT_EQ(bad_field(att + R"("q":[[1,0]],"k":[[1,0,0]],"query_positions":[0],"key_positions":[0]})"), "k");
  EXPECT_EQ(bad_field(att + R"("q":[[1,0]],"k":[[1,0]],"v":[[1],[2]],"query_positions":[0],"key_positions":[0]})"), "v");
  EXPECT_EQ(bad_field(att + R"("q":[[1,0]],"k":[[1,0]],"query_positions":[0,1],"key_positions":[0]})"), "query_positions");
  EXPECT_EQ(bad_field(att + R"("q":[[1,0]],"k":[[1,0]],"query_positions":[0],"key_positions":[]})"), "key_positions");
  EXPECT_EQ(bad_field(att + R"("q":[],"k":[[1,0]],"query_positions":[],"key_positions":[0]})"), "q");
  EXPECT_EQ(bad_field(att + R"("q":[[1e300,0]],"k":[[1e300,0]],"query_positions":[0],"key_positions":[0]})"), "q");
  EXPECT_EQ(bad_field(att + R"("q":[[1,0]],"k":[[1,0]],"query_positions":[0],"key_positions":[0],"causal":true})"),
            "causal");  // duplicate
  // Omitted causal = false: no cell masked although key 1 lies after query 0.
  {
    const auto r = nlohmann::json::parse(evaluate_request(
        R"({"op":"attention","q":[[1]],"k":[[1],[2]],"query_positions":[0],"key_positions":[0,1],"position":{"scheme":"none"}})"));
    EXPECT_FALSE(r["logits"][0][1].is_null());
    EXPECT_DOUBLE_EQ(r["logits"][0][1].get<double>(), 2.0);
  }
  EXPECT_EQ(bad_field(R"({"op":"attention","q":[[1]],"k":[[1]],"query_positions":[0],"key_positions":[0],"causal":1})"),
            "causal");
}
