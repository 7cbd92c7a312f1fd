// SPDX-License-Identifier: Apache-2.0
// A Status as the text the tests compare: "" for success, else the error's
// sentence (base/expected.h).
#pragma once

#include <string>

#include "base/expected.h"

namespace memstore::testing {

inline std::string error_text(const Status& s) {
  return s.ok() ? "" : s.error().message;
}

}  // namespace memstore::testing
