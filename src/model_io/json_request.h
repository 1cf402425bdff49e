// A request's JSON parsed strictly and bounded before it is built: one value, no comments, no NaN or
// Infinity, no duplicate keys (the parser would silently keep the last one), nesting and the number of
// values under each top-level field counted by a SAX pass that builds nothing. Used by posenc eval and the
// page's window.posenc.check, so both refuse the same requests with the same fields.
#pragma once

#include <cstddef>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>

namespace posenc::model_io {

// Largest request accepted (checked before parsing).
inline constexpr std::size_t kMaxRequestBytes = std::size_t{1} << 30;
// Nesting depth of a request (a matrix is 2 deep, a config.json rarely more than 5).
inline constexpr int kMaxJsonDepth = 64;
// Bytes of a key echoed in an error; longer ones are cut and their length given.
inline constexpr std::size_t kMaxEchoedKey = 256;

// Throws InvalidArgument: field "" for malformed or too deep JSON, the top-level key whose values exceed
// 2^24, the duplicated key's path.
nlohmann::json parse_request(const std::string& text);

// The same size / depth scan, streamed from `in` (a request file) before its text is read: a request
// refused for holding more than 2^24 values in a field never has its text in memory.
void scan_request(std::istream& in);

}  // namespace posenc::model_io
