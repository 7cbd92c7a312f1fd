// SPDX-License-Identifier: Apache-2.0
// DualStripe's detection of sequential reads (Uysal, Merchant and Alvarez, FAST '03, §3.4):
// "the array controller keeps a record of the addresses of the last sequentialityWindow read
// requests. When a new read request arrives, this record is checked to see if the
// sequentialityThreshold data blocks sequentially previous to this have been recently
// accessed. If so, the request is treated as part of a sequential run." The paper used a
// window of 300 requests and a threshold of 32 KB.
//
// memsim's reading: "recently accessed" means covered by the union of the recorded reads, so
// a run of small reads counts as well as one large read; a read starting within the first
// `threshold_blocks` of the volume has too few blocks before it and is not sequential.
#pragma once

#include <cstdint>
#include <deque>

#include "model/request.h"

namespace memstore::sim {

struct SequentialityParams {
  std::int32_t window = 300;           // sequentialityWindow, read requests
  std::int32_t threshold_blocks = 64;  // sequentialityThreshold, 32 KB of 512-byte blocks
};

class SequentialDetector {
 public:
  // REQUIRES: window >= 1, threshold_blocks >= 1.
  explicit SequentialDetector(const SequentialityParams& p) : p_(p) {}

  // Whether the read continues a sequential run; then records it among the last reads.
  bool read(model::Lbn lbn, std::int32_t blocks);

 private:
  bool preceded(model::Lbn lbn) const;

  SequentialityParams p_;
  struct Range {
    model::Lbn begin = 0, end = 0;
  };
  std::deque<Range> last_;  // the last `window` reads, oldest first
};

}  // namespace memstore::sim
