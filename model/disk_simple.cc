// SPDX-License-Identifier: Apache-2.0
// Simpledisk (thesis §5.1.5 comparison device); the model is in the header.
#include "model/disk_simple.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace memstore::model {

// Every Simpledisk number, calibrated against the G2 MEMStore for the
// thesis' Random workload (4 KB mean, 50 ms inter-arrival, FCFS); the
// measurements and commands are in docs/comparison-disks.md.
//
// Constant: access = G2's mean positioning (seek_ms.mean 0.5686 ms).
// Linear: access_min = G2's one-cylinder seek + settle (0.2367 ms); for
// LBNs X, Y uniform over the span E|X - Y| = blocks / 3, so the mean random
// positioning is access_min + (access_max - access_min) / 3
// = 0.237 + 0.996 / 3 = 0.569 ms, G2's mean again.
// Bandwidth: G2's mean transfer (0.22406 ms for 4,359.6 B mean requests)
// as a rate. G2 moves rows of 10 blocks in 128.57 us, so a short request
// pays for whole rows and sees far less than its 44.8 MB/s streaming rate.
namespace {
constexpr Ns kConstantAccessNs = 569'000;  // 0.569 ms
constexpr Ns kLinearMinNs = 237'000;       // 0.237 ms
constexpr Ns kLinearMaxNs = 1'233'000;     // 1.233 ms
constexpr double kBandwidthBytesPerS = 19.457e6;
}  // namespace

SimplediskParams simpledisk_constant_defaults() {
  SimplediskParams p;
  p.kind = SimplediskParams::Kind::kConstant;
  p.access_ns = kConstantAccessNs;
  p.bandwidth_bytes_per_s = kBandwidthBytesPerS;
  return p;
}

SimplediskParams simpledisk_linear_defaults() {
  SimplediskParams p;
  p.kind = SimplediskParams::Kind::kLinear;
  p.access_min_ns = kLinearMinNs;
  p.access_max_ns = kLinearMaxNs;
  p.bandwidth_bytes_per_s = kBandwidthBytesPerS;
  return p;
}

std::vector<ParamError> validate(const SimplediskParams& p) {
  std::vector<ParamError> errors;
  auto fail = [&errors](const char* key, const char* message) { errors.push_back({key, message}); };
  if (p.blocks < 1) fail("blocks", "must be 1 or more");
  if (p.block_bytes < 1) fail("block_bytes", "must be 1 or more");
  if (!(p.bandwidth_bytes_per_s > 0) || !std::isfinite(p.bandwidth_bytes_per_s)) {
    fail("bandwidth_bytes_per_s", "must be a positive number");
  }
  if (p.kind == SimplediskParams::Kind::kConstant && p.access_ns < 0) {
    fail("access_ns", "must be 0 or more");
  }
  if (p.kind == SimplediskParams::Kind::kLinear) {
    if (p.access_min_ns < 0) fail("access_min_ns", "must be 0 or more");
    if (p.access_max_ns < p.access_min_ns) {
      fail("access_max_ns", "must not be below access_min_ns");
    }
  }
  return errors;
}

Ns Simpledisk::positioning_ns(const Request& r, Ns /*now*/) const {
  if (served_any_ && r.lbn == head_) return 0;  // sequential continuation
  if (params_.kind == SimplediskParams::Kind::kConstant) return params_.access_ns;
  // Floored to whole ns; (max - min) * blocks stays far inside int64.
  const std::int64_t distance = std::abs(r.lbn - head_);
  return params_.access_min_ns +
         (params_.access_max_ns - params_.access_min_ns) * distance / params_.blocks;
}

Ns Simpledisk::transfer_ns(std::int32_t blocks) const {
  const double bytes = static_cast<double>(blocks) * params_.block_bytes;
  return std::llround(bytes * 1e9 / params_.bandwidth_bytes_per_s);
}

Breakdown Simpledisk::service(const Request& r, Ns now) {
  Breakdown b;
  b.seek_x_ns = positioning_ns(r, now);
  b.seek_ns = b.seek_x_ns;
  b.transfer_ns = transfer_ns(r.blocks);
  b.media_steps = 1;
  head_ = r.lbn + r.blocks;
  served_any_ = true;
  return b;
}

MediaPoint Simpledisk::point_of(Lbn lbn) const {
  return {static_cast<double>(lbn) / static_cast<double>(params_.blocks), 0, true};
}

MediaPoint Simpledisk::current_point() const {
  // After the last block the head is one past the end; keep u in [0, 1).
  return point_of(std::min(head_, params_.blocks - 1));
}

}  // namespace memstore::model
