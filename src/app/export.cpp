#include "app/export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

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

void write_export_csv(const ExportData& data, std::ostream& out) {
  char buf[40];
  for (const ExportTable& t : data.tables) {
    out << "# " << t.name << "\n";
    for (size_t c = 0; c < t.columns.size(); ++c) out << (c ? "," : "") << csv_escape(t.columns[c]);
    out << "\n";
    std::string line;
    for (const auto& row : t.rows) {
      line.clear();
      for (size_t c = 0; c < row.size(); ++c) {
        if (c) line += ',';
        if (std::isfinite(row[c])) {
          std::snprintf(buf, sizeof buf, "%.17g", row[c]);
          line += buf;
        }
      }
      line += '\n';
      out << line;
    }
    out << "\n";
  }
  for (const ExportList& l : data.lists) {
    out << "# " << l.name << "\nindex," << csv_escape(l.name) << "\n";
    for (size_t i = 0; i < l.items.size(); ++i) out << i << "," << csv_escape(l.items[i]) << "\n";
    out << "\n";
  }
}

namespace {

using nlohmann::json;

std::string dump(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

// One table as nlohmann-json writes the object {name, row_label, col_label, columns, rows} (keys sorted), its
// rows written one at a time.
void write_table_json(const ExportTable& t, std::ostream& out) {
  const json head = {
      {"name", t.name}, {"row_label", t.row_label}, {"col_label", t.col_label}, {"columns", t.columns}, {"rows", nullptr}};
  out << '{';
  bool first = true;
  for (const auto& item : head.items()) {
    out << (first ? "" : ",") << dump(json(item.key())) << ':';
    first = false;
    if (item.key() != "rows") {
      out << dump(item.value());
      continue;
    }
    out << '[';
    json r = json::array();
    for (size_t i = 0; i < t.rows.size(); ++i) {
      r.clear();
      for (double v : t.rows[i]) r.push_back(std::isfinite(v) ? json(v) : json(nullptr));
      out << (i ? "," : "") << dump(r);
    }
    out << ']';
  }
  out << '}';
}

}  // namespace

void write_export_json(const ExportData& data, std::ostream& out) {
  // The document nlohmann-json would write for {"view", "state", "tables", lists...} (keys sorted), without
  // building it: a tree of every value costs several times the text (136.5 MiB for the scores view at
  // n = 512, 1.5 GB at n = 2048).
  json top;
  top["view"] = data.view;
  top["state"] = data.state;
  top["tables"] = nullptr;
  bool tables = true;
  for (const ExportList& l : data.lists) {
    top[l.name] = l.items;
    tables = tables && l.name != "tables";  // a list of that name replaces them, as it did in the tree
  }
  out << '{';
  bool first = true;
  for (const auto& item : top.items()) {
    out << (first ? "" : ",") << dump(json(item.key())) << ':';
    first = false;
    if (item.key() != "tables" || !tables) {
      out << dump(item.value());
      continue;
    }
    out << '[';
    for (size_t i = 0; i < data.tables.size(); ++i) {
      if (i) out << ',';
      write_table_json(data.tables[i], out);
    }
    out << ']';
  }
  out << '}';
}

std::string export_csv(const ExportData& data) {
  std::ostringstream out;
  write_export_csv(data, out);
  return std::move(out).str();
}

std::string export_json(const ExportData& data) {
  std::ostringstream out;
  write_export_json(data, out);
  return std::move(out).str();
}

}  // namespace posenc::app
