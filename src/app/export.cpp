#include "app/export.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace posenc::app {
namespace {

std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string export_csv(const ExportData& data) {
  std::string out;
  char buf[40];
  for (const ExportTable& t : data.tables) {
    out += "# " + t.name + "\n";
    for (size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + csv_escape(t.columns[c]);
    out += "\n";
    for (const auto& row : t.rows) {
      for (size_t c = 0; c < row.size(); ++c) {
        if (c) out += ',';
        if (std::isfinite(row[c])) {
          std::snprintf(buf, sizeof buf, "%.17g", row[c]);
          out += buf;
        }
      }
      out += "\n";
    }
    out += "\n";
  }
  return out;
}

std::string export_json(const ExportData& data) {
  nlohmann::json j;
  j["view"] = data.view;
  j["state"] = data.state;
  j["tables"] = nlohmann::json::array();
  for (const ExportTable& t : data.tables) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : t.rows) {
      nlohmann::json r = nlohmann::json::array();
      for (double v : row) r.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
      rows.push_back(std::move(r));
    }
    j["tables"].push_back({{"name", t.name}, {"row_label", t.row_label}, {"col_label", t.col_label},
                           {"columns", t.columns}, {"rows", std::move(rows)}});
  }
  return j.dump();
}

}  // namespace posenc::app
