// SPDX-License-Identifier: Apache-2.0
// The response-time totals every multi-device run reports (memsim array,
// memsim wbuffer): requests and reads counted, their response times summed,
// and the means from them.
#pragma once

#include <cstdint>

namespace memstore::sim {

struct ResponseTotals {
  std::int64_t requests = 0;
  std::int64_t reads = 0;
  double response_ms_sum = 0;
  double read_ms_sum = 0;
  double mean_response_ms() const { return mean(response_ms_sum, requests); }
  double mean_read_ms() const { return mean(read_ms_sum, reads); }
  double mean_write_ms() const { return mean(response_ms_sum - read_ms_sum, requests - reads); }
  static double mean(double sum, std::int64_t n) {
    return n > 0 ? sum / static_cast<double>(n) : 0;
  }
};

}  // namespace memstore::sim
