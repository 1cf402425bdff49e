// posenc command line. Each subcommand lives in its own file (eval.cpp, export.cpp, render.cpp) and
// registers itself on the CLI11 app here. export and render need the explorer (POSENC_BUILD_APP), render
// also EGL; builds without them simply have no such subcommand.
#include <CLI/CLI.hpp>
#include <iostream>

#include "posenc_version.h"

#include "check.h"
#include "command.h"
#include "eval.h"
#include "inspect.h"
#include "weights.h"
#if defined(POSENC_HAVE_APP)
#include "export.h"
#endif
#if defined(POSENC_HAVE_RENDER)
#include "render.h"
#endif

int main(int argc, char** argv) {
  CLI::App app{"posenc: positional encodings of Transformers, evaluated exactly"};
  app.set_version_flag("--version", "posenc " POSENC_VERSION);
  app.require_subcommand(1);

  posenc::cli::EvalOptions eval_options;
  CLI::App* eval = posenc::cli::add_eval_command(app, eval_options);
  posenc::cli::CheckOptions check_options;
  CLI::App* check = posenc::cli::add_check_command(app, check_options);
  posenc::cli::InspectOptions inspect_options;
  CLI::App* inspect = posenc::cli::add_inspect_command(app, inspect_options);
  posenc::cli::FamiliesOptions families_options;
  CLI::App* families = posenc::cli::add_families_command(app, families_options);
  posenc::cli::WeightsOptions weights_options;
  CLI::App* weights = posenc::cli::add_weights_command(app, weights_options);
#if defined(POSENC_HAVE_APP)
  posenc::cli::ExportOptions export_options;
  CLI::App* export_cmd = posenc::cli::add_export_command(app, export_options);
  posenc::cli::ViewsOptions views_options;
  CLI::App* views = posenc::cli::add_views_command(app, views_options);
#endif
#if defined(POSENC_HAVE_RENDER)
  posenc::cli::RenderOptions render_options;
  CLI::App* render = posenc::cli::add_render_command(app, render_options);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) { return app.exit(e); } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) { return app.exit(e); } catch (const CLI::ParseError& e) {
    // Usage errors follow the eval error contract too: exit 2, one JSON object on stderr.
    std::cerr << posenc::cli::error_json(std::string("usage: ") + e.what() + " (try posenc --help)", "");
    return 2;
  }

  if (eval->parsed()) return posenc::cli::run_eval(eval_options, std::cout, std::cerr);
  if (check->parsed()) return posenc::cli::run_check(check_options, std::cout, std::cerr);
  if (inspect->parsed()) return posenc::cli::run_inspect(inspect_options, std::cout, std::cerr);
  if (families->parsed()) return posenc::cli::run_families(families_options, std::cout);
  if (weights->parsed())
    return posenc::cli::run_weights(weights_options, std::cout, std::cerr, posenc::cli::stderr_is_terminal());
#if defined(POSENC_HAVE_APP)
  if (export_cmd->parsed()) return posenc::cli::run_export(export_options, std::cout, std::cerr);
  if (views->parsed()) return posenc::cli::run_views(views_options, std::cout);
#endif
#if defined(POSENC_HAVE_RENDER)
  if (render->parsed()) return posenc::cli::run_render(render_options, std::cout, std::cerr);
#endif
  return 2;
}
