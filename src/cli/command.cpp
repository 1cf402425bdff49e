#include "command.h"

#include <new>
#include <ostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/types.h"
#include "model_io/json_fields.h"
#include "model_io/json_request.h"

namespace posenc::cli {

namespace {
// At most `limit` bytes of s (cut at a UTF-8 boundary), then how long it was.
std::string capped(const std::string& s, std::size_t limit) {
  if (s.size() <= limit) return s;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "... (" + std::to_string(s.size()) + " bytes)";
}
}  // namespace

std::string error_json(const std::string& message, const std::string& field, bool name_empty_field) {
  const bool named = !field.empty() || name_empty_field;
  nlohmann::ordered_json e = {
      {"error", capped(message, kMaxErrorMessageBytes)},
      {"field", named ? nlohmann::ordered_json(capped(field, model_io::kMaxEchoedKey + 64)) : nlohmann::ordered_json(nullptr)}};
  // Messages may quote request bytes: replace invalid UTF-8 rather than throw while reporting.
  return e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

int run_command(std::ostream& err, const std::string& doing, const std::string& other_prefix, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InvalidArgument& e) {
    err << error_json(e.what(), e.field(), dynamic_cast<const model_io::KeyError*>(&e) != nullptr);
  } catch (const std::bad_alloc&) { err << error_json("out of memory while " + doing, ""); } catch (const std::exception& e) {
    err << error_json(other_prefix + e.what(), "");
  }
  return 2;
}

int flushed(std::ostream& out, std::ostream& err, const std::string& what) {
  out.flush();
  if (out) return 0;
  err << error_json("cannot write " + what + " (standard output failed)", "");
  return 2;
}

}  // namespace posenc::cli
