// The preset ids suggested for a model= that is no preset (model_io::nearest_model_presets): every preset
// mistyped by one deleted character finds its preset among the suggestions, the typed id's family comes
// first, nothing near gives nothing, and any length of id is read only up to kNearestPresetChars.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "model_io/presets.h"

namespace {

using posenc::model_io::find_model_preset;
using posenc::model_io::model_presets;
using posenc::model_io::nearest_model_presets;

std::string family(const std::string& id) {
  size_t n = 0;
  while (n < id.size() && std::isalpha(static_cast<unsigned char>(id[n]))) ++n;
  return id.substr(0, n);
}

TEST(NearestPresets, EveryPresetMistypedByOneDeletionIsSuggested) {
  for (const auto& preset : model_presets())
    for (size_t i = 0; i < preset.id.size(); ++i) {
      const std::string typo = preset.id.substr(0, i) + preset.id.substr(i + 1);
      if (find_model_preset(typo)) continue;  // another preset's id
      const auto near = nearest_model_presets(typo);
      EXPECT_LE(near.size(), 3u);
      EXPECT_NE(std::find(near.begin(), near.end(), preset.id), near.end()) << typo << " -> " << ::testing::PrintToString(near);
    }
}

TEST(NearestPresets, TheTypedFamilyComesFirstAndEverySuggestionIsAPreset) {
  for (const auto& preset : model_presets()) {
    const std::string typo = preset.id + "x";
    const auto near = nearest_model_presets(typo);
    ASSERT_FALSE(near.empty()) << typo;
    bool other_seen = false;
    for (const std::string& id : near) {
      EXPECT_NE(find_model_preset(id), nullptr) << id;
      const bool same = family(id) == family(typo);
      EXPECT_FALSE(same && other_seen) << typo << ": " << id << " of its family after another family's";
      other_seen = other_seen || !same;
    }
  }
  // Llama 3.1 with a wrong size: its own line first, then the other Llamas.
  const auto near = nearest_model_presets("llama-3.1-9b");
  ASSERT_EQ(near.size(), 3u);
  EXPECT_EQ(near[0], "llama-3.1-8b");
  for (const std::string& id : near) EXPECT_EQ(family(id), "llama") << id;
}

TEST(NearestPresets, NothingNearGivesNothingAndALongIdIsBounded) {
  EXPECT_TRUE(nearest_model_presets("zzzzzzzzzzzz").empty());
  EXPECT_TRUE(nearest_model_presets("").empty());
  // 1 MiB of an id: compared on its first kNearestPresetChars characters (a family still counts).
  const auto near = nearest_model_presets("qwen-" + std::string(1 << 20, 'q'));
  EXPECT_FALSE(near.empty());
  for (const std::string& id : near) EXPECT_EQ(family(id), "qwen") << id;
  EXPECT_EQ(nearest_model_presets("llama-3.1-9b", 1), std::vector<std::string>{"llama-3.1-8b"});
}

}  // namespace
