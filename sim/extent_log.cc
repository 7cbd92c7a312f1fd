// SPDX-License-Identifier: Apache-2.0
// LogDisk's log-structured disk copy; described in the header.
#include "sim/extent_log.h"

#include <limits>

namespace memstore::sim {

ExtentLog::ExtentLog(const ExtentLogParams& p)
    : p_(p),
      live_(static_cast<std::size_t>(p.disks * p.extents_per_disk), 0),
      clean_(static_cast<std::size_t>(p.disks)),
      current_(static_cast<std::size_t>(p.disks), -1),
      fill_(static_cast<std::size_t>(p.disks), 0) {
  // The data fills the first slots in address order (header: the disks start full).
  for (std::int64_t u = 0; u < p.volume_units; u += p.extent_units) {
    const std::int64_t e = u / p.extent_units;
    live_[e] =
        static_cast<std::int32_t>(std::min<std::int64_t>(p.extent_units, p.volume_units - u));
  }
  // Clean extents, taken lowest address first: stacked highest first.
  for (std::int64_t e = extents() - 1; e >= 0; --e) {
    if (live_[e] == 0) clean_[disk_of_extent(e)].push_back(e);
  }
  for (std::int32_t d = 0; d < p.disks; ++d) {
    current_[d] = clean_[d].back();
    clean_[d].pop_back();
  }
}

std::int64_t ExtentLog::slot_of(std::int64_t unit) const {
  const auto it = moved_.find(unit);
  return it == moved_.end() ? unit : it->second;
}

std::int64_t ExtentLog::unit_at(std::int64_t slot) const {
  if (const auto it = filled_.find(slot); it != filled_.end()) return it->second;
  return slot < p_.volume_units ? slot : -1;
}

DiskSlot ExtentLog::slot_place(std::int64_t slot) const {
  const std::int64_t extent = slot / p_.extent_units;
  const std::int64_t offset = slot % p_.extent_units;
  const std::int64_t extent_on_disk = extent / p_.disks;
  return {disk_of_extent(extent), (extent_on_disk * p_.extent_units + offset) * p_.unit_blocks};
}

DiskSlot ExtentLog::where(std::int64_t unit) const {
  return slot_place(slot_of(unit));
}

std::vector<std::int64_t> ExtentLog::live_units(std::int64_t extent) const {
  std::vector<std::int64_t> units;
  const std::int64_t first = extent * p_.extent_units;
  for (std::int64_t slot = first; slot < first + p_.extent_units; ++slot) {
    const std::int64_t u = unit_at(slot);
    if (u >= 0 && slot_of(u) == slot) units.push_back(u);
  }
  return units;
}

bool ExtentLog::is_current(std::int64_t extent) const {
  return current_[disk_of_extent(extent)] == extent;
}

bool ExtentLog::is_clean(std::int64_t extent) const {
  return live_[extent] == 0 && !is_current(extent);
}

std::int64_t ExtentLog::clean_extents(std::int32_t disk) const {
  return static_cast<std::int64_t>(clean_[disk].size());
}

void ExtentLog::release(std::int64_t extent) {
  const std::int64_t first = extent * p_.extent_units;
  for (std::int64_t slot = first; slot < first + p_.extent_units; ++slot) filled_.erase(slot);
  clean_[disk_of_extent(extent)].push_back(extent);
  if (cleaning_ == extent) {
    cleaning_.reset();
    ++extents_cleaned_;
  }
}

std::optional<DiskSlot> ExtentLog::append(std::int64_t unit, std::int32_t disk, bool cleaning) {
  if (fill_[disk] == p_.extent_units) {
    // The last clean extent is kept for the cleaner, which needs room to move blocks to.
    const std::size_t reserve = cleaning ? 0 : 1;
    if (clean_[disk].size() <= reserve) return std::nullopt;
    const std::int64_t full = current_[disk];
    current_[disk] = clean_[disk].back();
    clean_[disk].pop_back();
    fill_[disk] = 0;
    if (live_[full] == 0) release(full);  // every unit of it superseded while current
  }
  const std::int64_t extent = current_[disk];
  const std::int64_t slot = extent * p_.extent_units + fill_[disk]++;
  // The older copy is superseded: its extent loses an active unit (§3.3, Figure 3's block B).
  const std::int64_t old_extent = slot_of(unit) / p_.extent_units;
  --live_[old_extent];
  if (live_[old_extent] == 0 && !is_current(old_extent)) release(old_extent);
  ++live_[extent];
  filled_[slot] = unit;
  moved_[unit] = slot;
  return slot_place(slot);
}

std::optional<std::int64_t> ExtentLog::begin_cleaning() {
  if (cleaning_) return std::nullopt;
  std::int64_t best = -1;
  std::int32_t fewest = std::numeric_limits<std::int32_t>::max();
  for (std::int64_t e = 0; e < extents(); ++e) {
    // A full extent would gain nothing: cleaning moves its every unit.
    if (live_[e] > 0 && live_[e] < p_.extent_units && !is_current(e) && live_[e] < fewest) {
      best = e;
      fewest = live_[e];
    }
  }
  if (best < 0) return std::nullopt;
  cleaning_ = best;
  return best;
}

}  // namespace memstore::sim
