// SPDX-License-Identifier: Apache-2.0
// A clock that says what the test says: every instant the engine computes,
// every lateness it records, follows exactly from it.
#pragma once

#include "target/delivery/clock.h"

namespace memstore::delivery::testing {

class FakeClock final : public Clock {
 public:
  WallNs now() const override { return t; }
  // Not 0: the engine's epoch is wherever the clock stands when it starts.
  WallNs t = 7'000'000'000;
};

}  // namespace memstore::delivery::testing
