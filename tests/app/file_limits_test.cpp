// The app's file limits (app/file_limits.h): one table, equal to the readers' own constants, read by the page
// through posenc_file_limits and by the desktop app. The page's scripts keep no copy of a limit: a byte count
// in web/ equal to one of the table's would be a second home that can drift (as the page's 64 MiB for a
// tensor did from the 256 MiB the app's message named).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/app.h"
#include "app/file_limits.h"
#include "app/url_state.h"
#include "model_io/config_json.h"
#include "model_io/usage_json.h"
#include "model_io/weights_session.h"
#include "test_paths.h"

using namespace posenc;
using namespace posenc::app;

TEST(FileLimits, EachRowIsTheReadersOwnConstant) {
  EXPECT_EQ(file_limit("config_json"), model_io::kMaxConfigBytes);
  EXPECT_EQ(file_limit("gguf_header"), model_io::kMaxGgufHeaderBytes);
  EXPECT_EQ(file_limit("gguf_first_read"), kGgufFirstReadBytes);
  EXPECT_EQ(file_limit("tensor_file"), kMaxCopiedFileBytes);
  EXPECT_EQ(file_limit("check_request"), kMaxCopiedFileBytes);
  EXPECT_EQ(file_limit("usage_json"), model_io::kMaxUsageJsonBytes);
  EXPECT_EQ(file_limit("state_value"), kMaxStateValueBytes);
  EXPECT_EQ(file_limit("state_value"), App::kMaxValueBytes);
  EXPECT_LT(file_limit("gguf_first_read"), file_limit("gguf_header"));
  EXPECT_THROW(file_limit("gguf"), std::out_of_range);
}

TEST(FileLimits, ThePagesJsonIsTheTable) {
  const nlohmann::json j = nlohmann::json::parse(file_limits_json());
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.size(), file_limits().size());
  std::set<std::string> keys;
  std::size_t largest = 0;
  for (const FileLimit& l : file_limits()) {
    SCOPED_TRACE(l.key);
    EXPECT_TRUE(keys.insert(l.key).second) << "a key twice";
    EXPECT_GT(l.bytes, 0u);
    EXPECT_NE(std::string(l.what), "");
    ASSERT_TRUE(j.contains(l.key));
    EXPECT_EQ(j[l.key].get<std::size_t>(), l.bytes);
    largest = std::max(largest, l.bytes);
  }
  EXPECT_EQ(largest_file_limit(), largest);
}

TEST(FileLimits, MessagesWriteALimitInItsUnit) {
  EXPECT_EQ(limit_bytes_text(std::size_t{64} << 20), "64 MiB");
  EXPECT_EQ(limit_bytes_text(std::size_t{8} << 20), "8 MiB");
  EXPECT_EQ(limit_bytes_text(std::size_t{256} << 10), "256 KiB");
  EXPECT_EQ(limit_bytes_text(1000), "1000 bytes");
  EXPECT_EQ(limit_bytes_text((std::size_t{1} << 20) + 1024), "1025 KiB");
}

// Every byte count the page's scripts write (`N << M` or a decimal of 4 digits or more) differs from every
// limit of the table: the page reads the limits from the app (web/page/abi.js fileLimit).
TEST(FileLimits, ThePageKeepsNoCopyOfALimit) {
  std::set<unsigned long long> limits;
  for (const FileLimit& l : file_limits()) limits.insert(l.bytes);
  const std::filesystem::path web = std::filesystem::path(test::kI18nDir).parent_path() / "web";
  const std::regex shifted(R"(\b(\d+)\s*<<\s*(\d+)\b)"), decimal(R"(\b(\d{4,})\b)");
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(web)) {
    if (entry.path().extension() != ".js") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const std::string where = entry.path().filename().string() + ":" + std::to_string(n) + ": " + line;
      for (std::sregex_iterator it(line.begin(), line.end(), shifted), end; it != end; ++it) {
        if ((*it)[1].length() > 9 || std::stoi((*it)[2]) > 40) continue;  // no byte count the page could hold
        const unsigned long long v = std::stoull((*it)[1]) << std::stoi((*it)[2]);
        EXPECT_EQ(limits.count(v), 0u) << where;
      }
      for (std::sregex_iterator it(line.begin(), line.end(), decimal), end; it != end; ++it)
        if ((*it)[1].length() <= 18) { EXPECT_EQ(limits.count(std::stoull((*it)[1])), 0u) << where; }
    }
  }
  EXPECT_GT(files, 10);  // web/page's modules and web/'s scripts were read
}
