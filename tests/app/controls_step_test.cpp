// The arrow keys' step of a declared slider (app/controls.h step_param): one unit through the Param,
// clamped to its range, even parameters by 2, reals by 1/100 of the range or its 100th root (log).
#include <gtest/gtest.h>

#include <cmath>

#include "app/controls.h"
#include "app/params.h"

using posenc::app::ParamList;
using posenc::app::step_param;

TEST(StepParam, IntegersStepByOneEvenOnesByTwoWithinTheRange) {
  int n = 100, d = 128, head = 0;
  ParamList list;
  list.integer("n", n, 1, 4096, {.log = true});
  list.integer("d", d, 2, 1023, {.even = true});
  list.integer("head", head, 0, 0);
  EXPECT_TRUE(step_param(*list.find("n"), 1));
  EXPECT_EQ(n, 101);
  EXPECT_TRUE(step_param(*list.find("n"), -10));
  EXPECT_EQ(n, 91);
  EXPECT_TRUE(step_param(*list.find("n"), 100000));
  EXPECT_EQ(n, 4096);
  EXPECT_FALSE(step_param(*list.find("n"), 1)) << "at the end of the range";
  EXPECT_TRUE(step_param(*list.find("d"), 1));
  EXPECT_EQ(d, 130);
  EXPECT_TRUE(step_param(*list.find("d"), 1000));
  EXPECT_EQ(d, 1022) << "an odd end of the range: the even value below it";
  EXPECT_TRUE(step_param(*list.find("d"), -1000));
  EXPECT_EQ(d, 2);
  EXPECT_FALSE(step_param(*list.find("head"), 1)) << "a collapsed range";
  EXPECT_FALSE(step_param(*list.find("n"), 0));
}

TEST(StepParam, RealsStepByAHundredthOfTheRangeOrItsHundredthRoot) {
  double theta = 0.5, base = 10000;
  ParamList list;
  list.real("theta", theta, -M_PI, M_PI);
  list.real("base", base, 2, 1e7, {.log = true});
  EXPECT_TRUE(step_param(*list.find("theta"), 1));
  EXPECT_DOUBLE_EQ(theta, 0.5 + 2 * M_PI / 100);
  EXPECT_TRUE(step_param(*list.find("theta"), 1000));
  EXPECT_DOUBLE_EQ(theta, M_PI);
  EXPECT_TRUE(step_param(*list.find("base"), 1));
  EXPECT_DOUBLE_EQ(base, 11700) << "10000 * 5e6^(1/100) = 11668 to 3 digits";
  EXPECT_TRUE(step_param(*list.find("base"), -1));
  EXPECT_DOUBLE_EQ(base, 10000);
  base = 2;
  EXPECT_TRUE(step_param(*list.find("base"), 1));
  EXPECT_GT(base, 2);
  EXPECT_FALSE(step_param(*list.find("base"), -1000) && base != 2);
  EXPECT_DOUBLE_EQ(base, 2);
  for (double v : {theta, base}) EXPECT_TRUE(std::isfinite(v));
}

TEST(StepParam, OtherKindsDoNotStep) {
  bool flag = false;
  int choice = 0;
  static const char* const kNames[] = {"a", "b"};
  ParamList list;
  list.flag("f", flag);
  list.choice("c", choice, kNames);
  EXPECT_FALSE(step_param(*list.find("f"), 1));
  EXPECT_FALSE(step_param(*list.find("c"), 1));
  EXPECT_FALSE(flag);
  EXPECT_EQ(choice, 0);
}
