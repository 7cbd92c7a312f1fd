// SPDX-License-Identifier: Apache-2.0
#include "model/y_seek_table.h"

#include <mutex>
#include <utility>

#include "model/seek_piecewise.h"

namespace memstore::model {

bool YSeekTable::Key::operator==(const Key& o) const {
  return axis.accel_m_s2 == o.axis.accel_m_s2 && axis.spring_per_m == o.axis.spring_per_m &&
         axis.max_offset_m == o.axis.max_offset_m && bit_m == o.bit_m && v_m_s == o.v_m_s &&
         band_offset_bits == o.band_offset_bits && pitch_bits == o.pitch_bits &&
         servo_bits == o.servo_bits && rows == o.rows;
}

std::shared_ptr<const YSeekTable> YSeekTable::shared(const Key& key) {
  // Parameters validate() would refuse get no table (the divisor needs a pitch).
  if (key.pitch_bits < 1 || key.servo_bits < 0 || key.servo_bits >= key.pitch_bits) return nullptr;
  if (key.rows < 0 || std::int64_t{key.rows} + 1 > kMaxPoints / 2) return nullptr;
  static std::mutex mutex;
  static std::vector<std::pair<Key, std::weak_ptr<const YSeekTable>>> tables;
  const std::lock_guard lock(mutex);
  std::erase_if(tables, [](const auto& t) { return t.second.expired(); });
  for (const auto& [k, table] : tables) {
    if (k == key) {
      if (auto alive = table.lock()) return alive;
    }
  }
  auto table = std::make_shared<const YSeekTable>(key);
  tables.emplace_back(key, table);
  return table;
}

YSeekTable::YSeekTable(const Key& key)
    : key_(key),
      pitch_(static_cast<std::uint64_t>(key.pitch_bits)),
      band_bits_(std::int64_t{key.rows} * key.pitch_bits + key.servo_bits),
      points_(2 * (key.rows + 1)) {
  const auto n = static_cast<std::size_t>(points_);
  base_s_.resize(n * n);
  for (std::int32_t i0 = 0; i0 < points_; ++i0) {
    // The same doubles MemsMechanism::y_m gives for the point.
    const double y0 = point_bits(i0) * key_.bit_m;
    for (std::int32_t i1 = 0; i1 < points_; ++i1) {
      const double y1 = point_bits(i1) * key_.bit_m;
      base_s_[static_cast<std::size_t>(i0) * n + static_cast<std::size_t>(i1)] =
          base_seek_s(key_.axis, y0, y1, key_.v_m_s, key_.v_m_s);
    }
  }
}

std::int32_t YSeekTable::point_bits(std::int32_t i) const {
  return i / 2 * key_.pitch_bits + (i % 2) * key_.servo_bits - key_.band_offset_bits;
}

}  // namespace memstore::model
