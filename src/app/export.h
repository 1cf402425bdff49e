// The data behind a view, for CSV / JSON export (in the app and headless from the CLI).
#pragma once

#include <string>
#include <vector>

namespace posenc::app {

// One table: a matrix (rows x cols, with optional axis values) or a set of curves sharing x.
struct ExportTable {
  std::string name;                      // e.g. "P", "logits", "t5_bucket_curve"
  std::string row_label, col_label;      // e.g. "position p", "dimension i"
  std::vector<std::string> columns;      // column headers (curves: "x", then one per series)
  std::vector<std::vector<double>> rows; // values; NaN = masked / undefined (written as empty / null)
};

struct ExportData {
  std::string view;                   // view id
  std::string state;                  // URL query string of the state that produced it
  std::vector<ExportTable> tables;
};

// CSV: one block per table ("# name" line, header line, rows); NaN cells are empty.
std::string export_csv(const ExportData& data);
// JSON: {"view", "state", "tables": [{"name", "row_label", "col_label", "columns", "rows"}]}; NaN -> null.
std::string export_json(const ExportData& data);

}  // namespace posenc::app
