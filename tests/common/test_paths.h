// Where a test binary finds the checkout's files and the posenc binary. Defined in a small source file the
// build generates per test executable (tests/CMakeLists.txt, posenc_test_paths), never as compile
// definitions: a path baked into every test object would differ in each clone, and the compiler cache
// could then share none of those objects between clones.
#pragma once

namespace posenc::test {

extern const char* const kI18nDir;  // the checkout's i18n/ (the catalogues)
extern const char* const kCliPath;  // the posenc binary (integration tests only)
// The app tests only: node, and web/posenc-lang.js as the build writes it (cmake/page_tables.cmake).
extern const char* const kNodePath;
extern const char* const kPageLangScript;

}  // namespace posenc::test
