#include "app/export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

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

namespace {
ExportBudget* g_budget = nullptr;
}  // namespace

ExportBudget::ExportBudget(size_t max_values) : max_(max_values), outer_(g_budget) { g_budget = this; }
ExportBudget::~ExportBudget() { g_budget = outer_; }

bool export_fits(size_t values) { return !g_budget || g_budget->counted_ + values <= g_budget->max_; }

bool export_needs(size_t values) {
  if (!g_budget) return true;
  g_budget->counted_ += values;
  return !g_budget->over();
}

std::string format_coordinate(double v) {
  char buf[40];
  if (v == std::floor(v) && std::abs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

ExportTable matrix_table(std::string name, std::string row_label, std::string col_label, std::string row_header, const Matrix& m,
                         double row_first, double col_first, int defined_rows) {
  return matrix_table(
      std::move(name), std::move(row_label), std::move(col_label), std::move(row_header), int(m.rows()), int(m.cols()),
      [&](int r, int c) { return m(r, c); }, row_first, col_first, defined_rows);
}

ExportTable curve_table(std::string name, std::string x_label, std::string y_label, std::string x_header,
                        const std::vector<ExportSeries>& series) {
  ExportTable t{std::move(name), std::move(x_label), std::move(y_label), {std::move(x_header)}, {}};
  size_t points = 0;
  for (const ExportSeries& s : series) points += std::min(s.x.size(), s.y.size());
  if (!export_needs(points * 2)) return t;  // at most a row (x and a value) per point
  // x -> one value per series; a std::map keeps the rows sorted by x.
  std::map<double, std::vector<double>> rows;
  for (size_t s = 0; s < series.size(); ++s) {
    t.columns.push_back(series[s].label);
    for (size_t i = 0; i < series[s].x.size() && i < series[s].y.size(); ++i) {
      auto [it, fresh] = rows.try_emplace(series[s].x[i], std::vector<double>(series.size(), NAN));
      it->second[s] = series[s].y[i];
    }
  }
  t.rows.reserve(rows.size());
  for (auto& [x, values] : rows) {
    std::vector<double> row{x};
    row.insert(row.end(), values.begin(), values.end());
    t.rows.push_back(std::move(row));
  }
  return t;
}

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
  for (const ExportList& l : data.lists) {
    out += "# " + l.name + "\nindex," + csv_escape(l.name) + "\n";
    for (size_t i = 0; i < l.items.size(); ++i) out += std::to_string(i) + "," + csv_escape(l.items[i]) + "\n";
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
    j["tables"].push_back({{"name", t.name},
                           {"row_label", t.row_label},
                           {"col_label", t.col_label},
                           {"columns", t.columns},
                           {"rows", std::move(rows)}});
  }
  for (const ExportList& l : data.lists) j[l.name] = l.items;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace posenc::app
