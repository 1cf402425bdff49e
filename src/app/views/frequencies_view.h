// Frequencies: w_k per pair for the geometric, linear and increasing schedules, and the wavelengths
// 2 pi / w_k against the sequence length.
#pragma once

#include "app/view.h"

namespace posenc::app {

class FrequenciesView final : public View {
 public:
  const char* id() const override { return "frequencies"; }
  const char* title() const override { return "Frequencies"; }
  const char* caption() const override {
    return "w_k = base^(-2k/d) (geometric) vs linear vs increasing; wavelength lambda_k = 2 pi / w_k";
  }
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;
  void export_data(std::vector<ExportTable>& tables) const override;

 private:
  int d_ = 128;
  double base_ = 10000.0;
  int n_ = 512;
  bool show_geometric_ = true, show_linear_ = true, show_increasing_ = true;
};

}  // namespace posenc::app
