// posenc command line. Each subcommand lives in its own file (eval.cpp; render/export to come) and
// registers itself on the CLI11 app here.
#include <CLI/CLI.hpp>
#include <iostream>

#include "eval.h"

int main(int argc, char** argv) {
  CLI::App app{"posenc: positional encodings of Transformers, evaluated exactly"};
  app.set_version_flag("--version", "posenc 0.1.0");
  app.require_subcommand(1);

  posenc::cli::EvalOptions eval_options;
  CLI::App* eval = posenc::cli::add_eval_command(app, eval_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Usage errors follow the eval error contract too: exit 2, one JSON object on stderr.
    std::cerr << posenc::cli::error_json(std::string("usage: ") + e.what() + " (try posenc --help)", "");
    return 2;
  }

  if (eval->parsed()) return posenc::cli::run_eval(eval_options, std::cout, std::cerr);
  return 2;
}
