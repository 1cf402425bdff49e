// Every cause of the tensor check, old and new, is the top diagnosis of a tensor built the way its public
// thread built it (tests/common/check_cases.h), with its fitted value; where two causes fit the same tensor
// the naming rules (docs/cli.md) decide, and the table of those ties is printed (the confusion matrix).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <variant>

#include "../common/check_cases.h"
#include "core/analysis/rope_check.h"

using namespace posenc;
using posenc::test::CauseCase;

namespace {

RopeCheckResult run(const CauseCase& c) {
  RopeCheckInput in;
  in.kind = c.kind;
  in.actual = c.actual;
  in.positions = c.positions;
  in.x = c.x;
  in.q = c.q;
  in.k = c.k;
  in.heads = c.heads;
  return rope_check(c.ref, in);
}

void expect_fit(const RopeCheckDiagnosis& d, const CauseCase& c) {
  if (c.fit_key.empty()) return;
  for (const auto& [k, v] : d.fitted) {
    if (k != c.fit_key) continue;
    if (const double* want = std::get_if<double>(&c.fit_value)) {
      ASSERT_TRUE(std::holds_alternative<double>(v)) << c.name << ": " << k;
      EXPECT_NEAR(std::get<double>(v), *want, 1e-6 * std::fabs(*want)) << c.name << ": " << k;
    } else {
      EXPECT_TRUE(v == c.fit_value) << c.name << ": " << k << " = " << check_fit_text(v) << ", want "
                                    << check_fit_text(c.fit_value);
    }
    return;
  }
  ADD_FAILURE() << c.name << ": no fitted " << c.fit_key;
}

}  // namespace

TEST(RopeCheckCauses, EachThreadsTensorNamesItsCause) {
  std::set<std::string> seen;
  for (const CauseCase& c : posenc::test::all_cause_cases()) {
    const RopeCheckResult r = run(c);
    EXPECT_FALSE(r.match) << c.name;
    ASSERT_FALSE(r.diagnosis.empty()) << c.name;
    EXPECT_EQ(check_cause_name(r.diagnosis[0].cause), c.cause)
        << c.name << " (" << c.thread << "): second " << (r.diagnosis.size() > 1 ? check_cause_name(r.diagnosis[1].cause) : "-");
    if (c.cause != "unknown") { EXPECT_GT(r.diagnosis[0].explains, 0.99) << c.name; }
    expect_fit(r.diagnosis[0], c);
    EXPECT_TRUE(r.tolerance.allFinite()) << c.name;
    seen.insert(c.cause);
  }
  // Every cause id of the catalogue has a case.
  for (const char* id : names_of<CheckCause>()) EXPECT_TRUE(seen.count(id)) << id;
}

TEST(RopeCheckCauses, HeadsAreNamedInTheWorstIndex) {
  for (const CauseCase& c : posenc::test::all_cause_cases()) {
    if (c.heads == 0) continue;
    const RopeCheckResult r = run(c);
    ASSERT_EQ(r.worst_index.size(), 3u) << c.name;
    EXPECT_LT(r.worst_index[0], c.heads);
    EXPECT_EQ(r.heads, c.heads);
  }
}

TEST(RopeCheckCauses, ConfusionMatrix) {
  // Which causes fit each thread's tensor as well as the top one (within 1e-4) or nearly (>= 0.99): the
  // naming rules order those. Printed for the notes; asserted: the top one is the case's.
  std::printf("%-36s %-18s %s\n", "case", "top", "also fitting (explains)");
  for (const CauseCase& c : posenc::test::all_cause_cases()) {
    const RopeCheckResult r = run(c);
    ASSERT_FALSE(r.diagnosis.empty());
    std::string also;
    for (size_t i = 1; i < r.diagnosis.size(); ++i)
      if (r.diagnosis[i].explains >= 0.99 || r.diagnosis[i].explains >= r.diagnosis[0].explains - 1e-4) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s (%.6f) ", check_cause_name(r.diagnosis[i].cause), r.diagnosis[i].explains);
        also += buf;
      }
    std::printf("%-36s %-18s %s\n", c.name.c_str(), check_cause_name(r.diagnosis[0].cause), also.c_str());
    EXPECT_EQ(check_cause_name(r.diagnosis[0].cause), c.cause);
  }
}
