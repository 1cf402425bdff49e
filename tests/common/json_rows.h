// A matrix as the JSON rows a `check` request takes ([[...], ...]), for the tests that write requests.
#pragma once

#include <nlohmann/json.hpp>

#include "core/types.h"

namespace posenc::test {

inline nlohmann::json json_rows(const Matrix& m) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    a.push_back(row);
  }
  return a;
}

}  // namespace posenc::test
