// The export's texts written a piece at a time (export_csv and export_json are these into a string):
// posenc export streams a large view's text, never holding it whole.
#pragma once

#include <ostream>

#include "app/export.h"

namespace posenc::app {

void write_export_csv(const ExportData& data, std::ostream& out);
// Compact JSON, keys sorted, as nlohmann-json dumps the document export_json describes.
void write_export_json(const ExportData& data, std::ostream& out);

}  // namespace posenc::app
