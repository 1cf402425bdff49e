// The fixed texts of every view (id, menu title, caption, the formula in words, figure names) side by side,
// in menu order: the words a reader sees, kept in one voice and read in one place; each view's class takes
// its own entry. A view whose caption or words follow its state (waves, buckets, scores) overrides
// caption() / formula_words() and keeps only its id, title and figures here.
#pragma once

#include "app/view.h"

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

}  // namespace posenc::app::view_texts
