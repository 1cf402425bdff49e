#include "command.h"

#include <new>
#include <ostream>
#include <stdexcept>

#include "core/types.h"
#include "eval.h"
#include "model_io/json_fields.h"

namespace posenc::cli {

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
