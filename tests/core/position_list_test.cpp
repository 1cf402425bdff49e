// The one position grammar (core/position_list.h): Python's range start:stop[:step], lists, the Check view's
// older a..b, combinations; bounded before any position is made; errors quote the item, escaped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/position_list.h"
#include "core/types.h"

using namespace posenc;
using V = std::vector<int64_t>;

TEST(PositionList, RangesListsAndTheOlderForm) {
  EXPECT_EQ(parse_position_list("", "positions"), V{});
  EXPECT_EQ(parse_position_list("0:4", "positions"), (V{0, 1, 2, 3}));  // stop excluded, as range(0, 4)
  EXPECT_EQ(parse_position_list("10:0:-3", "positions"), (V{10, 7, 4, 1}));
  EXPECT_EQ(parse_position_list("5:5", "positions"), V{});
  EXPECT_EQ(parse_position_list("0,1, 2 7", "positions"), (V{0, 1, 2, 7}));
  EXPECT_EQ(parse_position_list("2..4", "positions"), (V{2, 3, 4}));  // both ends included
  EXPECT_EQ(parse_position_list("0:2, 8..9; 100", "positions"), (V{0, 1, 8, 9, 100}));
  EXPECT_EQ(parse_position_list("-2:1", "positions"), (V{-2, -1, 0}));
}

TEST(PositionList, ErrorsNameTheFieldAndQuoteEscaped) {
  auto error = [](const std::string& text) {
    try {
      parse_position_list(text, "positions");
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.field(), "positions");
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  // Plain decimal only, no empty entries (the URL values' rule).
  for (const char* bad : {"010", "-01", "+3", "+-1", "0x10", "0x1..4", "1,,2", "1,2,", ",1", "1, ;2", "inf"})
    EXPECT_NE(error(bad), "(no error)") << bad;
  EXPECT_EQ(parse_position_list("0", "positions"), V{0});
  EXPECT_EQ(parse_position_list("-10", "positions"), V{-10});
  EXPECT_NE(error("0:4:0").find("step must not be 0"), std::string::npos);
  EXPECT_NE(error("1x").find("'1x' is not a position"), std::string::npos);
  EXPECT_NE(error(std::string("3\x01", 2)).find("'3\\x01'"), std::string::npos);
  EXPECT_NE(error("0:2000000").find("[-10^6, 10^6]"), std::string::npos);
  // 2^24 positions is the limit, refused from the count before any is made.
  EXPECT_NE(error("-1000000:1000000, -1000000:1000000, -1000000:1000000, -1000000:1000000, -1000000:1000000, "
                  "-1000000:1000000, -1000000:1000000, -1000000:1000000, -1000000:1000000")
                .find("more than 2^24"),
            std::string::npos);
}
