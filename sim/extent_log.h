// SPDX-License-Identifier: Apache-2.0
// LogDisk's log-structured disk copy (Uysal, Merchant and Alvarez, FAST '03, §3.3): the
// bookkeeping of which disk slot holds the active copy of each data unit. The timing is in
// sim/paper_array.h.
//
// From the paper: "The space in each disk is divided into fixed-size extents, one of which is
// marked as current. To write data on the disk copy, the array creates a fresh (active) copy
// of each overwritten block at the end of the current extent, and updates metadata stored in
// NVRAM". An overwrite supersedes the older copy, leaving its extent sparsely populated;
// cleaning turns such extents into empty space: "At most one extent is being cleaned at any
// point in time", its active blocks are read from the MEMS copy and appended to the current
// extent, "marking the corresponding data block in the extent being cleaned as invalid. An
// extent is dirty as long as it has active blocks; it becomes clean when no active blocks
// remain in it."
//
// memsim's choices where the paper is silent (docs/disk-models.md, "The paper's arrays"):
//   * the log's block is a unit of `unit_blocks` (4 KB): a write appends every unit it
//     touches (the array holds the rest of a partly written unit in NVRAM or on MEMS);
//   * the disks start full in address order: unit u in slot u of the whole log, extents
//     numbered across the disks (extent e on disk e mod D), the extents past the data clean;
//   * every disk has a current extent of its own and the caller says which disk a unit goes
//     to (LogDisk: the mirror of its MEMS device; LogDisk+K: a disk of the array's choice);
//   * the last clean extent of a disk is the cleaner's reserve: only its appends take it;
//   * the extent to clean is the dirty one with the fewest active units (greedy, as LFS's
//     simplest policy), never a current extent nor a full one.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/request.h"

namespace memstore::sim {

struct ExtentLogParams {
  std::int32_t disks = 1;
  std::int64_t extents_per_disk = 0;
  std::int32_t extent_units = 256;  // 1 MB extents of 4 KB units (memsim's choice)
  std::int32_t unit_blocks = 8;
  std::int64_t volume_units = 0;  // the units the log holds a copy of
};

// Where a unit's copy lies: which disk, and its first block there.
struct DiskSlot {
  std::int32_t disk = 0;
  model::Lbn lbn = 0;
};

class ExtentLog {
 public:
  // REQUIRES: disks >= 1, extent_units >= 1, unit_blocks >= 1, and room for the volume with
  // at least one clean extent on every disk besides it.
  explicit ExtentLog(const ExtentLogParams& p);

  const ExtentLogParams& params() const { return p_; }
  std::int64_t extents() const { return static_cast<std::int64_t>(live_.size()); }

  // Where the active copy of `unit` is now.
  DiskSlot where(std::int64_t unit) const;
  // The active units in the extent; the slots others superseded are left out.
  std::int32_t live_units_in(std::int64_t extent) const { return live_[extent]; }
  std::vector<std::int64_t> live_units(std::int64_t extent) const;
  std::int64_t extent_of(std::int64_t unit) const { return slot_of(unit) / p_.extent_units; }
  bool is_clean(std::int64_t extent) const;
  std::int64_t clean_extents(std::int32_t disk) const;

  // Appends a fresh copy of `unit` at the end of `disk`'s current extent (taking a clean
  // extent as the new current one when it is full) and supersedes the older copy. Nothing,
  // and no change, when the disk has no room left: clean first. Only the cleaner's appends
  // (`cleaning`) may take a disk's last clean extent, so that cleaning can always go on.
  std::optional<DiskSlot> append(std::int64_t unit, std::int32_t disk, bool cleaning = false);

  // Cleaning, one extent at a time (§3.3). begin_cleaning picks the dirty extent with the
  // fewest active units (none while one is being cleaned, or when every dirty extent but
  // the current ones is full); the cleaner appends each of its live_units() elsewhere, which makes
  // it clean. The cleaning ends when it has no active unit left.
  std::optional<std::int64_t> begin_cleaning();
  std::optional<std::int64_t> being_cleaned() const { return cleaning_; }
  std::int64_t extents_cleaned() const { return extents_cleaned_; }

 private:
  std::int64_t slot_of(std::int64_t unit) const;
  std::int64_t unit_at(std::int64_t slot) const;  // -1 when nothing was ever written there
  std::int32_t disk_of_extent(std::int64_t extent) const {
    return static_cast<std::int32_t>(extent % p_.disks);
  }
  DiskSlot slot_place(std::int64_t slot) const;
  bool is_current(std::int64_t extent) const;
  void release(std::int64_t extent);  // an extent without active units becomes clean

  ExtentLogParams p_;
  std::vector<std::int32_t> live_;                         // active units per extent
  std::vector<std::vector<std::int64_t>> clean_;           // clean extents per disk, a stack
  std::vector<std::int64_t> current_;                      // per disk
  std::vector<std::int32_t> fill_;                         // units appended to it, per disk
  std::unordered_map<std::int64_t, std::int64_t> moved_;   // unit -> slot, off its home slot
  std::unordered_map<std::int64_t, std::int64_t> filled_;  // slot -> unit, past the home data
  std::optional<std::int64_t> cleaning_;
  std::int64_t extents_cleaned_ = 0;
};

}  // namespace memstore::sim
