#include "app/ui_state.h"

namespace posenc::app {
namespace {

UiState& no_app_state() {
  static UiState state;
  return state;
}

UiState* g_current = nullptr;

}  // namespace

UiState::~UiState() {
  if (g_current == this) g_current = nullptr;
}

UiState& current_ui() { return g_current ? *g_current : no_app_state(); }

void set_current_ui(UiState* state) { g_current = state; }

}  // namespace posenc::app
