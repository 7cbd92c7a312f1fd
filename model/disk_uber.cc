// SPDX-License-Identifier: Apache-2.0
// The Überdisk (thesis §5.1.5, Table 5.1); the model is described in the header.
#include "model/disk_uber.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace memstore::model {

namespace {
// a mod m in [0, m), for any sign of a.
Ns wrap(Ns a, Ns m) {
  const Ns r = a % m;
  return r < 0 ? r + m : r;
}
}  // namespace

std::vector<ParamError> validate(const UberdiskParams& p) {
  std::vector<ParamError> errors;
  auto fail = [&errors](const char* key, const char* message) { errors.push_back({key, message}); };
  if (!(p.rotation_rpm > 0) || !std::isfinite(p.rotation_rpm)) {
    fail("rotation_rpm", "must be a positive number");
  }
  if (!(p.streaming_bytes_per_s > 0) || !std::isfinite(p.streaming_bytes_per_s)) {
    fail("streaming_bytes_per_s", "must be a positive number");
  }
  if (p.cylinders < 2) fail("cylinders", "must be 2 or more (the seek curve needs a full stroke)");
  if (p.surfaces < 1) fail("surfaces", "must be 1 or more");
  if (p.block_bytes < 1) fail("block_bytes", "must be 1 or more");
  if (p.one_cylinder_seek_ns < 0) fail("one_cylinder_seek_ns", "must be 0 or more");
  if (p.full_stroke_seek_ns < p.one_cylinder_seek_ns) {
    fail("full_stroke_seek_ns", "must not be below one_cylinder_seek_ns");
  }
  if (p.head_switch_ns < 0) fail("head_switch_ns", "must be 0 or more");
  if (!errors.empty()) return errors;

  const std::int64_t tracks = std::int64_t{p.cylinders} * p.surfaces;
  const std::int64_t per_track = p.capacity_bytes / p.block_bytes / tracks;
  if (per_track < 1) fail("capacity_bytes", "must hold at least one block per track");
  if (per_track > std::numeric_limits<std::int32_t>::max()) {
    fail("capacity_bytes", "gives too many sectors per track");
  }
  if (p.blocks_used < 1 || p.blocks_used > per_track * tracks) {
    fail("blocks_used", "must be between 1 and the blocks the capacity holds");
  }
  return errors;
}

Uberdisk::Uberdisk(const UberdiskParams& params)
    : params_(params),
      sectors_per_track_(
          static_cast<std::int32_t>(params.capacity_bytes / params.block_bytes /
                                    (std::int64_t{params.cylinders} * params.surfaces))),
      // 60e9 / 55,000 = 1,090,909.09 ns; whole ns keeps the model in integers
      // (the 0.09 ns per revolution is far below anything measured).
      revolution_ns_(std::llround(60e9 / params.rotation_rpm)) {}

DiskAddress Uberdisk::locate(Lbn lbn) const {
  const std::int64_t track = lbn / sectors_per_track_;
  return {static_cast<std::int32_t>(track / params_.surfaces),
          static_cast<std::int32_t>(track % params_.surfaces),
          static_cast<std::int32_t>(lbn % sectors_per_track_)};
}

Ns Uberdisk::seek_ns(std::int32_t distance) const {
  if (distance == 0) return 0;
  // t(d) = a + b sqrt(d) through (1, one_cylinder) and (cylinders - 1,
  // full_stroke), written so both end points come out exactly.
  const double span = std::sqrt(static_cast<double>(params_.cylinders - 1)) - 1;
  const double frac = (std::sqrt(static_cast<double>(distance)) - 1) / span;
  const auto extra =
      static_cast<double>(params_.full_stroke_seek_ns - params_.one_cylinder_seek_ns);
  return params_.one_cylinder_seek_ns + std::llround(extra * frac);
}

Ns Uberdisk::sector_angle_ns(Lbn lbn) const {
  const std::int64_t track = lbn / sectors_per_track_;
  const std::int64_t cylinder = track / params_.surfaces;
  // One skew step per track boundary before this track (see the header).
  const Ns skew_ns =
      (track - cylinder) * params_.head_switch_ns + cylinder * params_.one_cylinder_seek_ns;
  const Ns place_ns = revolution_ns_ * (lbn % sectors_per_track_) / sectors_per_track_;
  return wrap(place_ns + skew_ns, revolution_ns_);
}

Ns Uberdisk::angle_at_ns(Ns t) const {
  return wrap(end_angle_ns_ + (t - end_ns_), revolution_ns_);
}

Ns Uberdisk::rotational_latency_ns(Lbn lbn, Ns angle_ns) const {
  return wrap(sector_angle_ns(lbn) - angle_ns, revolution_ns_);
}

Ns Uberdisk::transfer_ns(std::int32_t blocks) const {
  const double bytes = static_cast<double>(blocks) * params_.block_bytes;
  return std::llround(bytes * 1e9 / params_.streaming_bytes_per_s);
}

Uberdisk::Positioning Uberdisk::position(const Request& r, Ns now) const {
  const DiskAddress to = locate(r.lbn);
  Positioning p;
  if (to.cylinder != head_cylinder_) {
    p.seek_ns = seek_ns(std::abs(to.cylinder - head_cylinder_));
  } else if (to.surface != head_surface_) {
    p.seek_ns = params_.head_switch_ns;
  }
  p.latency_ns = rotational_latency_ns(r.lbn, angle_at_ns(now + p.seek_ns));
  return p;
}

Ns Uberdisk::positioning_ns(const Request& r, Ns now) const {
  const Positioning p = position(r, now);
  return p.seek_ns + p.latency_ns;
}

Breakdown Uberdisk::service(const Request& r, Ns now) {
  const Positioning p = position(r, now);
  const Lbn last = r.lbn + r.blocks - 1;
  // Track boundaries crossed; those that also end a cylinder cost a
  // one-cylinder seek instead of a head switch.
  const std::int64_t first_track = r.lbn / sectors_per_track_;
  const std::int64_t last_track = last / sectors_per_track_;
  const std::int64_t cylinder_crossings =
      last_track / params_.surfaces - first_track / params_.surfaces;
  const std::int64_t head_switches = last_track - first_track - cylinder_crossings;

  Breakdown b;
  b.seek_x_ns = p.seek_ns;
  b.seek_y_ns = p.latency_ns;
  b.seek_ns = p.seek_ns + p.latency_ns;
  b.transfer_ns = transfer_ns(r.blocks);
  b.switch_ns =
      head_switches * params_.head_switch_ns + cylinder_crossings * params_.one_cylinder_seek_ns;
  b.media_steps = 1;

  const DiskAddress end = locate(last);
  head_cylinder_ = end.cylinder;
  head_surface_ = end.surface;
  // Just past the last sector transferred: where that sector ends on its
  // track. The platter's own progress during the slower 100 MB/s transfer is
  // deliberately not followed (see the header).
  const Ns last_sector_ns = revolution_ns_ * (end.sector + 1) / sectors_per_track_ -
                            revolution_ns_ * end.sector / sectors_per_track_;
  end_angle_ns_ = wrap(sector_angle_ns(last) + last_sector_ns, revolution_ns_);
  end_ns_ = now + b.service_ns();
  return b;
}

MediaPoint Uberdisk::point_of(Lbn lbn) const {
  const DiskAddress a = locate(lbn);
  return {static_cast<double>(a.cylinder) / params_.cylinders,
          static_cast<double>(sector_angle_ns(lbn)) / static_cast<double>(revolution_ns_), true};
}

MediaPoint Uberdisk::current_point() const {
  return {static_cast<double>(head_cylinder_) / params_.cylinders,
          static_cast<double>(end_angle_ns_) / static_cast<double>(revolution_ns_), true};
}

}  // namespace memstore::model
