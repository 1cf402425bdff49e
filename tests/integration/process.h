// Running the posenc binary from a test: exit code and both streams, stdin from a string.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "test_paths.h"

namespace posenc::test {

struct Proc {
  int exit_code;
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The string as one single-quoted shell word.
inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `posenc <args>` (args already shell words) with `input` on stdin (via a file) and captures both streams.
inline Proc run_posenc(const std::string& args, const std::string& input = "") {
  // Named by this process: ctest -j runs each test in its own process, all with the same TempDir().
  const std::string dir = testing::TempDir() + "posenc_" + std::to_string(getpid()) + "_";
  const std::string in = dir + "in", out = dir + "out", err = dir + "err";
  std::ofstream(in, std::ios::binary) << input;
  const std::string cmd =
      shell_quote(kCliPath) + " " + args + " < " + shell_quote(in) + " > " + shell_quote(out) + " 2> " + shell_quote(err);
  const int status = std::system(cmd.c_str());
  Proc result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  for (const std::string& f : {in, out, err}) std::remove(f.c_str());
  return result;
}

// Skips a test when this build has no posenc binary.
class PosencBinary : public testing::Test {
 protected:
  void SetUp() override {
    if (std::string(kCliPath).empty()) GTEST_SKIP() << "no posenc binary in this build";
  }
};

}  // namespace posenc::test
