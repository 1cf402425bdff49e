// The data behind a view, for CSV / JSON export (in the app and headless from the CLI).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/types.h"
#include "core/noncopyable.h"

namespace posenc::app {

// One table: a matrix (rows x cols, with optional axis values) or a set of curves sharing x.
struct ExportTable {
  std::string name;                       // e.g. "P", "logits", "t5_bucket_curve"
  std::string row_label, col_label;       // e.g. "position p", "dimension i"
  std::vector<std::string> columns;       // column headers (curves: "x", then one per series)
  std::vector<std::vector<double>> rows;  // values; NaN = masked / undefined (written as empty / null)
};

// A list of strings beside the tables (the permutation view's tokens): a top-level key of the JSON.
struct ExportList {
  std::string name;  // e.g. "tokens"
  std::vector<std::string> items;
};

struct ExportData {
  std::string view;   // view id
  std::string state;  // URL query string of the state that produced it
  std::vector<ExportTable> tables;
  std::vector<ExportList> lists;
  size_t values = 0;  // the values the tables hold (or, over the budget, would hold)
  bool over = false;  // over the budget: the tables were not built (see ExportBudget)
};

// A bound on the values an export builds (the page's: a view whose tables would hold more is refused
// before they, or the exact numbers behind them, are computed). While one is in force, a view asks
// export_needs(values) before computing something big for its export, and matrix_table / curve_table
// count their own values; once over, nothing more is built, only counted.
class ExportBudget : NonCopyable {
 public:
  explicit ExportBudget(size_t max_values);
  ~ExportBudget();
  size_t counted() const { return counted_; }
  bool over() const { return counted_ > max_; }

 private:
  friend bool export_needs(size_t values);
  friend bool export_fits(size_t values);
  size_t max_, counted_ = 0;
  ExportBudget* outer_;
};
// Counts `values` against the budget in force (if any); false once it is exceeded: build nothing then.
bool export_needs(size_t values);
// Whether `values` more would stay within the budget in force (counts nothing).
bool export_fits(size_t values);

// "3" for integers, shortest round-trip text otherwise (column headers of matrix coordinates).
std::string format_coordinate(double v);

// A matrix as a table: the first column holds the row coordinate (row_first + r, headed `row_header`),
// then one column per matrix column headed by its coordinate (col_first + c). `value(r, c)` gives the
// double-precision entry; rows from `defined_rows` on are undefined (all NaN).
template <class ValueAt>
ExportTable matrix_table(std::string name, std::string row_label, std::string col_label, std::string row_header, int rows,
                         int cols, ValueAt value, double row_first = 0, double col_first = 0, int defined_rows = -1) {
  ExportTable t{std::move(name), std::move(row_label), std::move(col_label), {std::move(row_header)}, {}};
  if (!export_needs(size_t(std::max(rows, 0)) * size_t(std::max(cols, 0) + 1))) return t;
  for (int c = 0; c < cols; ++c) t.columns.push_back(format_coordinate(col_first + c));
  if (defined_rows < 0) defined_rows = rows;
  t.rows.reserve(size_t(rows));
  for (int r = 0; r < rows; ++r) {
    std::vector<double> row(size_t(cols) + 1, NAN);
    row[0] = row_first + r;
    if (r < defined_rows)
      for (int c = 0; c < cols; ++c) row[size_t(c) + 1] = value(r, c);
    t.rows.push_back(std::move(row));
  }
  return t;
}
ExportTable matrix_table(std::string name, std::string row_label, std::string col_label, std::string row_header, const Matrix& m,
                         double row_first = 0, double col_first = 0, int defined_rows = -1);

// Curves as a table: column "x" (or `x_header`) then one column per series. Series may have different x
// samples: rows are the sorted union of all x, with NaN where a series has no point (or a non-finite one).
struct ExportSeries {
  std::string label;
  std::vector<double> x, y;
};
ExportTable curve_table(std::string name, std::string x_label, std::string y_label, std::string x_header,
                        const std::vector<ExportSeries>& series);
// The same from plot series (anything with label, x and y), e.g. the views' std::vector<Series>.
template <class SeriesT>
ExportTable curve_table(std::string name, std::string x_label, std::string y_label, std::string x_header,
                        const std::vector<SeriesT>& series) {
  std::vector<ExportSeries> out;
  for (const SeriesT& s : series) out.push_back(ExportSeries{s.label, s.x, s.y});
  return curve_table(std::move(name), std::move(x_label), std::move(y_label), std::move(x_header), out);
}

// CSV: one block per table ("# name" line, header line, rows); NaN cells are empty. Then one block per
// list ("# name" line, header "index,<name>", one row per item).
std::string export_csv(const ExportData& data);
// JSON: {"view", "state", "tables": [{"name", "row_label", "col_label", "columns", "rows"}]} and each list
// as a key of its own ("tokens": ["我", "不", "爱", "你"]); NaN -> null.
std::string export_json(const ExportData& data);
// The same texts written a piece at a time (the two above are these into a string): posenc export streams a
// large view's text, never holding it whole. The JSON is compact, keys sorted, as nlohmann-json dumps it.
void write_export_csv(const ExportData& data, std::ostream& out);
void write_export_json(const ExportData& data, std::ostream& out);

}  // namespace posenc::app
