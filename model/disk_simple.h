// SPDX-License-Identifier: Apache-2.0
// Simpledisk: DiskSim's "simpledisk" idea — a device with no geometry, used
// beside the Überdisk as a comparison device for the specificity test (thesis
// §5.1.5). Positioning is either a constant or grows linearly with the LBN
// distance; a request that starts at the block right after the previous
// request's last block continues sequentially and costs no positioning.
//
// The head is the LBN a sequential continuation would start at: one past the
// previous request's last block (0 before any request; a request at LBN 0
// then is not a continuation and pays positioning).
#pragma once

#include <cstdint>
#include <vector>

#include "model/mechanism.h"
#include "model/params.h"

namespace memstore::model {

struct SimplediskParams {
  enum class Kind : std::uint8_t { kConstant, kLinear };

  std::int64_t blocks = 6'750'000;  // the G2 MEMStore's capacity
  std::int32_t block_bytes = 512;
  Kind kind = Kind::kConstant;
  Ns access_ns = 0;      // kConstant: every non-sequential positioning
  Ns access_min_ns = 0;  // kLinear: at LBN distance 0
  Ns access_max_ns = 0;  // kLinear: at a distance of `blocks` (full span)
  double bandwidth_bytes_per_s = 0;
};

// Start from one of these; the field defaults above carry no timing.
SimplediskParams simpledisk_constant_defaults();
SimplediskParams simpledisk_linear_defaults();

// Empty when `params` describe a device (keys named as the struct fields).
std::vector<ParamError> validate(const SimplediskParams& params);

class Simpledisk final : public Mechanism {
 public:
  // REQUIRES: validate(params) is empty.
  explicit Simpledisk(const SimplediskParams& params) : params_(params) {}

  std::int64_t blocks() const override { return params_.blocks; }
  Ns positioning_ns(const Request& r, Ns now) const override;
  Breakdown service(const Request& r, Ns now) override;
  MediaPoint point_of(Lbn lbn) const override;
  MediaPoint current_point() const override;

  Ns transfer_ns(std::int32_t blocks) const;

 private:
  SimplediskParams params_;
  Lbn head_ = 0;  // one past the previous request's last block
  bool served_any_ = false;
};

}  // namespace memstore::model
