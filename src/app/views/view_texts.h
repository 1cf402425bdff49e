// The fixed texts of every view (id, menu title, caption, the formula in words, figure names) side by side,
// in menu order: the words a reader sees, kept in one voice and read in one place; each view's class takes
// its own entry. A view whose caption or words follow its state (waves, buckets, scores) overrides
// caption() / formula_words() and keeps only its id, title and figures here.
#pragma once

#include <cstdint>
#include <string>

#include "app/view.h"
#include "core/analysis/rope_analysis.h"

namespace posenc::app::view_texts {

extern const ViewText kWaves;
extern const ViewText kFrequencies;
extern const ViewText kSimilarity;
extern const ViewText kBuckets;
extern const ViewText kScores;
extern const ViewText kRope;
extern const ViewText kPermutation;
extern const ViewText kToy;
extern const ViewText kModel;
extern const ViewText kCheck;
extern const ViewText kUsage;

// The core's pair_behaviour_counts_text in the interface's language, one behaviour at a time (the core's
// phrases are the catalogue's keys, "{0} would exceed the trained angles"): "35 complete a full turn within
// the trained length, 29 would exceed the trained angles".
std::string pair_behaviour_counts_shown(const PairBehaviourCounts& counts, int64_t length, int64_t trained_length);

}  // namespace posenc::app::view_texts

namespace posenc::app {
using view_texts::pair_behaviour_counts_shown;
}  // namespace posenc::app
