// posenc command line: JSON in, JSON out (the eval contract is implemented in eval.cpp).
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
    std::puts("posenc 0.1.0");
    return 0;
  }
  std::fputs("usage: posenc eval FILE|-\n", stderr);
  return 2;
}
