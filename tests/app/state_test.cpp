// The URL state of every view in-process: defaults and custom states round-trip key by key, app keys,
// and every malformed value is rejected naming its key.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/app.h"
#include "app/export.h"
#include "app/state_params.h"

using posenc::app::App;
using posenc::app::StateMap;

namespace {

// One non-default state per view: every key set away from its default, so a lost key shows.
const char* const kCustomStates[] = {
    "view=waves&scheme=learned&n=100&d=20&base=500&schedule=linear&max_len=50&dims=0,3,7",
    "view=frequencies&d=64&base=20000&n=1000&schedules=gi",
    "view=similarity&scheme=sine_only&n=200&d=32&base=1000&pstep=10&max_len=100&seed=3",
    "view=buckets&scheme=alibi&n=100&bidirectional=0&num_buckets=16&max_distance=64&seed=5&show=bias&bucket_size=16&"
    "max_position=256&clip=4&heads=12&head=5",
    "view=scores&scheme=deberta&n=20&d=16&seed=4&content=constant&causal=1&shared=1&base=500&buckets=16&"
    "max_distance=64&deberta_buckets=8&deberta_max_position=64&clip=3&heads=4&head=2",
    "view=rope&dim=64&base=500000&scaling=llama3&factor=8&orig=8192&target=65536&pair=7&pos=123&play=0&compare=0&"
    "decay=2048",
    "view=permutation&sentence=a%20b%20c%20d&shuffle=9&pe=rope&d=8&seed=2",
    "view=toy&x1=1,2&x2=-1,0.5&x3=0,0&p1=0,0&p2=1,1&p3=2,2&bias=1,2,3&theta=-1.25&order=reversed&show=weights",
    "view=usage&usage=data/llama-3.1-8b.usage.json&head=3",
};

}  // namespace

// ---------------------------------------------------------------- state round trip (in-process)

TEST(ExportState, EveryViewsDefaultStateIsAFixedPoint) {
  for (const std::string& view : App::view_ids()) {
    App a;
    a.load_state_query("view=" + view);
    EXPECT_EQ(a.notices(), "") << view;
    const std::string q = a.state_query();
    App b;
    b.load_state_query(q);
    EXPECT_EQ(b.notices(), "") << q;
    EXPECT_EQ(b.state_query(), q) << view;
    EXPECT_EQ(std::string(b.current_view()->id()), view);
  }
}

TEST(ExportState, CustomStatesRoundTripKeyByKey) {
  for (const char* state : kCustomStates) {
    App a;
    a.load_state_query(state);
    EXPECT_EQ(a.notices(), "") << state;
    const std::string q = a.state_query();
    // Every given key comes back with the value given (after percent-decoding).
    const StateMap given = posenc::app::parse_query(state), saved = posenc::app::parse_query(q);
    for (const auto& [key, value] : given) {
      ASSERT_TRUE(saved.count(key)) << key << " lost from " << state;
      EXPECT_EQ(saved.at(key), value) << key << " in " << state;
    }
    App b;
    b.load_state_query(q);
    EXPECT_EQ(b.state_query(), q);  // load(save()) is a fixed point
    // Same data from the same state.
    EXPECT_EQ(posenc::app::export_json(a.export_data()), posenc::app::export_json(b.export_data())) << state;
  }
}

TEST(ExportState, AppKeysRoundTrip) {
  App a;
  a.load_state_query("view=toy&embed=1&controls=0&theme=dark");
  EXPECT_EQ(a.notices(), "");
  EXPECT_TRUE(a.embed());
  EXPECT_TRUE(a.dark());
  App b;
  b.load_state_query(a.state_query());
  EXPECT_EQ(b.state_query(), a.state_query());
  EXPECT_NE(a.state_query().find("controls=0"), std::string::npos);
  EXPECT_NE(a.state_query().find("theme=dark"), std::string::npos);
}

// Every key of every view: some malformed value is rejected, and the error names that key (and no other).
TEST(ExportState, InvalidValuesAreRejectedPerField) {
  const std::vector<std::string> bad = {"zzz", "99999999", "-99999999", "1.5", std::string(40, 'a')};
  for (const std::string& view : App::view_ids()) {
    App probe;
    probe.load_state_query("view=" + view);
    StateMap keys;
    probe.current_view()->save_state(keys);
    for (const auto& [key, value] : keys) {
      int rejected = 0;
      for (const std::string& v : bad) {
        App a;
        std::string field, message;
        const std::string q = "view=" + view + "&" + key + "=" + v;
        if (a.load_state_query_strict(q, field, message)) continue;
        ++rejected;
        EXPECT_EQ(field, key) << q << " -> " << message;
        EXPECT_FALSE(message.empty());
      }
      EXPECT_GT(rejected, 0) << view << ": no malformed value of " << key << " was rejected";
    }
  }
  for (const auto& [q, key] : std::vector<std::pair<std::string, std::string>>{{"view=nope", "view"},
                                                                               {"view=waves&embed=2", "embed"},
                                                                               {"view=waves&controls=x", "controls"},
                                                                               {"view=waves&theme=blue", "theme"},
                                                                               {"view=waves&nope=1", "nope"}}) {
    App a;
    std::string field, message;
    EXPECT_FALSE(a.load_state_query_strict(q, field, message)) << q;
    EXPECT_EQ(field, key) << q << " -> " << message;
  }
}

// ---------------------------------------------------------------- notices

namespace {

// The notices of loading `query` (the compute error of the view included).
posenc::app::Notices notices_of(const std::string& query) {
  App a;
  a.load_state_query(query);
  return a.notice_list();
}

bool names_key(const posenc::app::Notices& notices, const std::string& key) {
  for (const auto& n : notices)
    if (n.key == key && n.message.find(key) != std::string::npos) return true;
  return false;
}

}  // namespace

// States every range allows but the view cannot compute: each is a notice naming the key, and the strict
// CLI load fails with that key as the field.
TEST(StateNotices, UncomputableStatesNameTheirKey) {
  for (const auto& [query, key] :
       std::vector<std::pair<std::string, std::string>>{{"view=buckets&max_distance=2", "max_distance"},
                                                        {"view=waves&scheme=binary&n=4096&d=2", "n"},
                                                        {"view=rope&dim=2&scaling=ntk&factor=64", "dim"}}) {
    const auto notices = notices_of(query);
    EXPECT_TRUE(names_key(notices, key)) << query << " -> " << posenc::app::notices_text(notices);
    App a;
    std::string field, message;
    EXPECT_FALSE(a.load_state_query_strict(query, field, message)) << query;
    EXPECT_EQ(field, key) << query << " -> " << message;
  }
}

// Sweeping every declared range end of every view: whatever the view cannot compute carries a notice
// whose key is one of the view's keys, and a state without notices draws (no error).
TEST(StateNotices, EveryRangeEndIsComputedOrNamed) {
  using posenc::app::ParamKind;
  for (const std::string& view : App::view_ids()) {
    App probe;
    probe.load_state_query("view=" + view);
    const posenc::app::ParamList list = probe.current_view()->param_list();
    for (const posenc::app::Param& p : list.items()) {
      std::vector<std::string> values;
      if (p.kind == ParamKind::Integer) values = {std::to_string(int(p.lo)), std::to_string(int(p.hi))};
      if (p.kind == ParamKind::Real) values = {posenc::app::format_number(p.lo), posenc::app::format_number(p.hi)};
      if (p.kind == ParamKind::Choice)
        for (const char* name : p.names) values.push_back(name);
      for (const std::string& v : values) {
        App a;
        const std::string q = "view=" + view + "&" + p.key + "=" + v;
        a.load_state_query(q);
        const auto notices = a.notice_list();
        if (a.current_view()->error()) {
          ASSERT_FALSE(notices.empty()) << q;
          EXPECT_TRUE(a.current_view()->param_list().find(a.current_view()->error()->key)) << q;
        }
      }
    }
  }
}

// Legal values that the similarity and buckets views cannot compute together: the strict load rejects
// them naming the key, and the lenient load reports the same key among its notices.
TEST(StateNotices, UncomputableSimilarityAndBucketsStatesNameTheKey) {
  for (const auto& [q, key] : std::vector<std::pair<std::string, std::string>>{
           {"view=similarity&scheme=binary&d=2&n=5", "n"},
           {"view=similarity&scheme=binary&d=10&n=4096", "n"},
           {"view=buckets&max_distance=2", "max_distance"},
           {"view=buckets&bidirectional=0&num_buckets=256&max_distance=128", "max_distance"},
           {"view=buckets&num_buckets=3", "num_buckets"},
           {"view=buckets&scheme=deberta&bucket_size=1", "bucket_size"},
           {"view=buckets&scheme=deberta&bucket_size=4096&max_position=2049", "max_position"},
           {"view=buckets&scheme=deberta&bucket_size=0&max_position=0", "max_position"}}) {
    App a;
    std::string field, message;
    EXPECT_FALSE(a.load_state_query_strict(q, field, message)) << q;
    EXPECT_EQ(field, key) << q << " -> " << message;
    EXPECT_TRUE(names_key(notices_of(q), key)) << q;
  }
  // The edges that still compute.
  for (const char* q :
       {"view=similarity&scheme=binary&d=12&n=4096", "view=similarity&scheme=binary&d=2&n=4",
        "view=buckets&num_buckets=4&max_distance=2", "view=buckets&scheme=deberta&bucket_size=0",
        "view=buckets&scheme=deberta&max_position=0", "view=buckets&scheme=deberta&bucket_size=2&max_position=3"}) {
    App a;
    std::string field, message;
    EXPECT_TRUE(a.load_state_query_strict(q, field, message)) << q << " -> " << field << ": " << message;
  }
}

TEST(StateNotices, DimsOutOfRangeOrTooManyAreNoticed) {
  EXPECT_TRUE(names_key(notices_of("view=waves&d=16&dims=0,16"), "dims"));
  EXPECT_TRUE(names_key(notices_of("view=waves&dims=0,1,2,3,4,5,6"), "dims"));
  EXPECT_TRUE(names_key(notices_of("view=waves&dims=-1"), "dims"));
  EXPECT_TRUE(notices_of("view=waves&d=16&dims=0,15,3,4,5,6").empty());
  App a;
  std::string field, message;
  EXPECT_FALSE(a.load_state_query_strict("view=waves&dims=0,1,2,3,4,5,6", field, message));
  EXPECT_EQ(field, "dims");
}

// Numbers are plain decimal: hexadecimal (strtod reads "0x10" as 16), a leading zero ("010", octal to
// some readers) and an empty list entry are refused naming the key, for every numeric key of every view.
TEST(StateNotices, HexOctalAndEmptyListEntriesAreRefused) {
  auto plain_number = [](const std::string& v) { return !v.empty() && v.find_first_not_of("-0123456789.") == std::string::npos; };
  int checked = 0;
  for (const std::string& view : App::view_ids()) {
    App probe;
    probe.load_state_query("view=" + view);
    StateMap keys;
    probe.current_view()->save_state(keys);
    for (const auto& [key, value] : keys) {
      if (!plain_number(value)) continue;
      for (const char* bad : {"0x10", "010", "0x1p3", "inf", " 5", "+-1"}) {
        App a;
        std::string field, message;
        const std::string q = "view=" + view + "&" + key + "=" + std::string(bad);
        EXPECT_FALSE(a.load_state_query_strict(q, field, message)) << q;
        EXPECT_EQ(field, key) << q << " -> " << message;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
  // Lists: an empty entry is no number.
  for (const auto& [q, key] : std::vector<std::pair<std::string, std::string>>{
           {"view=waves&dims=,", "dims"},
           {"view=waves&dims=1,,2", "dims"},
           {"view=waves&dims=1,", "dims"},
           {"view=waves&dims=0x1", "dims"},
           {"view=waves&dims=01", "dims"},
           {"view=toy&x1=1,,2", "x1"},
           {"view=toy&x1=0x1,2", "x1"},
           {"view=model&model=custom&rope_type=longrope&short_factor=1,,2", "short_factor"},
           {"view=model&model=custom&rope_type=longrope&short_factor=1,0x2", "short_factor"},
           {"view=check&positions=1,,2", "positions"},
           {"view=check&positions=1,2,", "positions"},
           {"view=check&positions=0x1..4", "positions"},
           {"view=check&positions=010", "positions"},
       }) {
    App a;
    std::string field, message;
    EXPECT_FALSE(a.load_state_query_strict(q, field, message)) << q;
    EXPECT_EQ(field, key) << q << " -> " << message;
  }
  // What stays valid: an empty list, spaces around entries, exponents, a lone zero, 0.5.
  for (const char* q : {"view=waves&dims=", "view=waves&dims=0,%201", "view=frequencies&base=1e4", "view=toy&x1=0,0.5",
                        "view=check&positions=0%201,2", "view=check&positions=0..3"}) {
    App a;
    std::string field, message;
    EXPECT_TRUE(a.load_state_query_strict(q, field, message)) << q << " -> " << field << ": " << message;
  }
}

TEST(StateNotices, ThetaBoundIsPi) {
  EXPECT_TRUE(notices_of("view=toy&theta=3.141592653589793").empty());
  EXPECT_TRUE(notices_of("view=toy&theta=-3.141592653589793").empty());
  EXPECT_TRUE(names_key(notices_of("view=toy&theta=3.1415926535897936"), "theta"));
}

// A NUL byte or invalid UTF-8 in a value is a notice (escaped, never raw) and the notices after it stay.
TEST(StateNotices, ControlBytesAndInvalidUtf8AreNoticedNotTruncating) {
  for (const std::string bad : {"a%00b", "%FF", "%C0%AF", "x%0Ay", "%ED%A0%80"}) {
    const std::string q = "view=waves&dims=" + bad + "&n=99999";
    const auto notices = notices_of(q);
    ASSERT_EQ(notices.size(), 2u) << q;
    EXPECT_EQ(notices[0].key, "dims") << q;
    EXPECT_EQ(notices[1].key, "n") << q;
    const std::string text = posenc::app::notices_text(notices);
    EXPECT_EQ(text.find('\0'), std::string::npos);
    EXPECT_NE(text.find("n=99999"), std::string::npos) << text;
    EXPECT_NE(posenc::app::notices_json(notices).find("n=99999"), std::string::npos);
  }
  EXPECT_TRUE(notices_of("view=permutation&sentence=caf%C3%A9%20au%20lait").empty());
}

// A value (or key) of any length is a notice, bounded in what it quotes; the other keys still load. (The
// page cuts a longer value one character past the limit before it copies it into the app.)
TEST(StateNotices, OverlongValuesAndKeysAreNoticedNotUsed) {
  const std::string huge(2 * 1048576, '1');
  for (const std::string& q : {"view=waves&n=" + huge + "&d=64", "view=waves&d=64&" + huge + "=1",
                               "view=permutation&sentence=" + std::string(App::kMaxValueBytes + 1, 'a') + "&d=8"}) {
    App a;
    a.load_state_query(q);
    const auto notices = a.notice_list();
    ASSERT_EQ(notices.size(), 1u) << a.notices().substr(0, 300);
    EXPECT_NE(notices[0].message.find("longer than 256 KiB: ignored."), std::string::npos) << notices[0].message;
    EXPECT_LT(notices[0].message.size(), 200u);
    EXPECT_LT(notices[0].key.size(), 80u);
    const auto state = posenc::app::parse_query(a.state_query());
    EXPECT_EQ(state.at("d"), q.find("permutation") != std::string::npos ? "8" : "64");
  }
  // The limit itself is taken (as text: not a number here).
  App a;
  a.load_state_query("view=waves&n=" + std::string(App::kMaxValueBytes, '1'));
  ASSERT_EQ(a.notice_list().size(), 1u);
  EXPECT_NE(a.notices().find("is not an integer"), std::string::npos);
}

TEST(StateNotices, FlagsAcceptZeroOneTrueFalse) {
  for (const char* q : {"view=scores&causal=true&embed=true&controls=false", "view=scores&causal=1&embed=1&controls=0"}) {
    App a;
    a.load_state_query(q);
    EXPECT_EQ(a.notices(), "") << q;
    EXPECT_TRUE(a.embed());
    EXPECT_NE(a.state_query().find("causal=1"), std::string::npos);
    EXPECT_NE(a.state_query().find("controls=0"), std::string::npos);
  }
  EXPECT_TRUE(names_key(notices_of("view=scores&causal=yes"), "causal"));
}

// ---------------------------------------------------------------- Share -> Copy embed code

TEST(EmbedQuery, DefaultStatesGiveOnlyTheViewAndEmbed) {
  for (const std::string& view : App::view_ids()) {
    App a;
    a.load_state_query("view=" + view);
    EXPECT_EQ(a.embed_query(), "view=" + view + "&embed=1");
  }
}

TEST(EmbedQuery, OnlyNonDefaultKeysInDeclarationOrderAndTheSameState) {
  for (const char* state : kCustomStates) {
    App a;
    a.load_state_query(state);
    const std::string q = a.embed_query();
    const StateMap embed = posenc::app::parse_query(q), full = posenc::app::parse_query(a.state_query());
    EXPECT_EQ(embed.at("embed"), "1") << q;
    EXPECT_EQ(q.rfind("view=", 0), 0u) << "view first: " << q;
    // No key holds its default value ...
    App defaults;
    defaults.load_state_query(std::string("view=") + full.at("view"));
    const StateMap def = posenc::app::parse_query(defaults.state_query());
    for (const auto& [key, value] : embed) {
      if (key != "view" && key != "embed") { EXPECT_NE(def.at(key), value) << key << " is default in " << q; }
    }
    // ... every changed one is there, and the embed opens in the same state.
    for (const auto& [key, value] : full) {
      if (def.at(key) != value) { EXPECT_EQ(embed.count(key), 1u) << key << " missing from " << q; }
    }
    App b;
    b.load_state_query(q);
    EXPECT_EQ(b.notices(), "") << q;
    StateMap reopened = posenc::app::parse_query(b.state_query());
    reopened.erase("embed");
    EXPECT_EQ(reopened, full) << q;
  }
}

// Copy link follows the embed code's rule (one function): the link is the embed query without embed=1,
// for every custom state and every view's fresh state, and opens in exactly the state it was copied from.
TEST(LinkQuery, IsTheEmbedRuleWithoutEmbedAndReopensTheSameState) {
  std::vector<std::string> states(std::begin(kCustomStates), std::end(kCustomStates));
  for (const std::string& view : App::view_ids()) states.push_back("view=" + view + "&theme=dark&lang=zh");
  for (const std::string& state : states) {
    App a;
    a.load_state_query(state);
    const std::string link = a.link_query(), embed = a.embed_query();
    const size_t at = embed.find("&embed=1");
    ASSERT_NE(at, std::string::npos) << embed;
    EXPECT_EQ(link, embed.substr(0, at) + embed.substr(at + 8)) << state;
    EXPECT_EQ(posenc::app::parse_query(link).count("embed"), 0u) << link;
    App b;
    b.load_state_query(link);
    EXPECT_EQ(b.notices(), "") << link;
    EXPECT_EQ(b.state_query(), a.state_query()) << link;
  }
  App alibi;
  alibi.load_state_query("view=buckets&scheme=alibi&heads=12&theme=light");
  EXPECT_EQ(alibi.link_query(), "view=buckets&scheme=alibi&heads=12&theme=light");
}

TEST(EmbedQuery, KeysAPresetFillsAreLeftOutAndAppKeysKept) {
  App a;
  a.load_state_query("view=model&model=mistral-7b&theme=dark&controls=0");
  EXPECT_EQ(a.embed_query(), "view=model&model=mistral-7b&embed=1&controls=0&theme=dark");
  // An edited key after the preset is kept; the ones the preset filled are not.
  App edited;
  edited.load_state_query("view=model&model=mistral-7b&base=20000&figure=ratio");
  EXPECT_EQ(edited.embed_query(), "view=model&model=mistral-7b&base=20000&embed=1&figure=ratio");
  App b;
  b.load_state_query(edited.embed_query());
  StateMap reopened = posenc::app::parse_query(b.state_query()), full = posenc::app::parse_query(edited.state_query());
  reopened.erase("embed");
  EXPECT_EQ(reopened, full);
}
