// SPDX-License-Identifier: Apache-2.0
// The base Y seeks of one sled configuration, computed once: computed each
// time, the piecewise seek's chunks are half of a G2 service-time
// computation, and the Y seek half of those
// (docs/benchmarks/log/2026-11-26.md, "How the service-time figure came
// under 250 ns").
//
// Between accesses the sled is only ever where the access of a row starts or
// ends (model/mems_mechanism.h), and a Y seek leaves and arrives at the access
// speed v (thesis §2.3; the turnarounds of Eq. 3.6 are apart from the base
// seek). Measured from the bottom of the used band, those points are the
// multiples of the row pitch (servo + data bits), q pitch, and the same plus
// one servo field, q pitch + servo, for q = 0..Sy. So the base Y seek
// (thesis §3.1, Eqs. 3.2-3.4) takes at most (2 (Sy + 1))^2 values: 56 points
// and 3136 doubles, 25 KB, for G2.
//
// Each entry is what base_seek_s returns for the pair, from the same call on
// the same doubles (the point's bits times the bit width), so a lookup gives
// the bit-identical result. X has no such table: its points are the Sx
// cylinders, 2500^2 entries for G2, 50 MB.
//
// Tables are shared by every mechanism of the process with the same
// parameters (all LUNs of one preset) and are not built when they would exceed
// kMaxPoints points; the mechanism then computes every seek.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/axis.h"
#include "model/invariant_divisor.h"

namespace memstore::model {

class YSeekTable {
 public:
  // Everything a table's values depend on.
  struct Key {
    Axis axis;
    double bit_m = 0;                   // bit width
    double v_m_s = 0;                   // access speed, at both ends of every base seek
    std::int32_t band_offset_bits = 0;  // y_bits + band_offset_bits = bits above the band's bottom
    std::int32_t pitch_bits = 0;        // servo + data bits of one row
    std::int32_t servo_bits = 0;
    std::int32_t rows = 0;  // Sy
    bool operator==(const Key& o) const;
  };

  // 2 (Sy + 1) points at most: 181 keeps a table under 256 KB.
  static constexpr std::int32_t kMaxPoints = 181;

  // The process's table for `key`, built on the first request; null when it
  // would be larger than kMaxPoints points. Thread-safe.
  static std::shared_ptr<const YSeekTable> shared(const Key& key);

  explicit YSeekTable(const Key& key);

  // base_seek_s(axis, y0_bits * bit_m, y1_bits * bit_m, v, v), or null when
  // either point is not one of the table's (then compute it).
  const double* find(std::int32_t y0_bits, std::int32_t y1_bits) const {
    const std::int32_t i0 = index_of(y0_bits);
    const std::int32_t i1 = index_of(y1_bits);
    if ((i0 | i1) < 0) return nullptr;
    return &base_s_[static_cast<std::size_t>(i0) * static_cast<std::size_t>(points_) +
                    static_cast<std::size_t>(i1)];
  }

  std::int32_t points() const { return points_; }
  // The point at index i, in bits from the rest position (as SledState's).
  std::int32_t point_bits(std::int32_t i) const;
  std::size_t bytes() const { return base_s_.size() * sizeof(double); }

 private:
  // 2q for q pitch, 2q + 1 for q pitch + servo; -1 for anything else.
  std::int32_t index_of(std::int32_t y_bits) const {
    const std::int64_t above = std::int64_t{y_bits} + key_.band_offset_bits;
    if (above < 0 || above > band_bits_) return -1;
    const std::int64_t q = pitch_.divide(above);
    const std::int64_t r = above - q * key_.pitch_bits;
    const auto point = static_cast<std::int32_t>(2 * q);
    if (r == 0) return point;
    return r == key_.servo_bits ? point + 1 : -1;
  }

  Key key_;
  InvariantDivisor pitch_;
  std::int64_t band_bits_;  // the topmost point: Sy pitch + servo
  std::int32_t points_;
  std::vector<double> base_s_;  // [i0 * points_ + i1]
};

}  // namespace memstore::model
