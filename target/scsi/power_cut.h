// SPDX-License-Identifier: Apache-2.0
// What a power cut does to the writes a volatile write cache holds, and the
// account of it (docs/crash-consistency.md).
//
// A write is volatile from the moment the device holds it until it becomes
// durable: by a SYNCHRONIZE CACHE, FUA, WCE = 0 (SBC-3 §4.15, §5.24) or the
// device writing it back on its own. At the cut each volatile write is kept,
// dropped or torn, as the policy says; a durable write is never touched.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memstore::scsi {

// The longest a cut may keep a LUN without power (off_ms): an hour, longer
// than any test waits.
inline constexpr double kMaxOffMs = 3'600'000;

enum class CutPolicy : std::uint8_t {
  kDropAll,     // every volatile write is lost
  kKeepRandom,  // each volatile write is kept or lost whole, one draw each
  kTorn,        // each atomic unit of each volatile write is kept or lost
};

// "drop-all", "keep-random", "torn"; std::nullopt for anything else.
std::optional<CutPolicy> cut_policy_named(std::string_view name);
std::string_view cut_policy_name(CutPolicy policy);

// A run of blocks [lba, lba + blocks).
struct BlockRun {
  std::uint64_t lba = 0;
  std::uint64_t blocks = 0;
  bool operator==(const BlockRun&) const = default;
};

// One volatile write at the cut. Only the blocks no newer write had
// replaced take part (`kept` and `lost` together are exactly those).
struct CutWrite {
  std::uint64_t sequence = 0;  // the write's number, from 1, in the order received
  std::uint64_t lba = 0;       // the write as the command gave it
  std::uint64_t blocks = 0;
  // The durable point the write followed: the number of flushes the
  // device had completed when it received the write.
  std::uint64_t after_flush = 0;
  std::vector<BlockRun> kept;  // now on the medium
  std::vector<BlockRun> lost;  // the medium holds what it held before
  // The device had started writing it back when the power went: the
  // emulation cannot take back a write the medium has begun, so every
  // policy keeps it (docs/crash-consistency.md, "Write-back in flight").
  bool writing_back = false;
  enum class Outcome : std::uint8_t { kKept, kLost, kTorn } outcome = Outcome::kLost;
};

std::string_view cut_outcome_name(CutWrite::Outcome outcome);

struct PowerCutReport {
  CutPolicy policy = CutPolicy::kDropAll;
  std::uint64_t seed = 0;
  std::uint64_t flushes = 0;     // durable points completed before the cut
  std::vector<CutWrite> writes;  // the volatile writes, oldest first
  std::uint64_t blocks_lost() const;
  std::uint64_t blocks_kept() const;
};

// The report as log lines: a summary naming the policy, the seed and what
// was lost, then one line per volatile write (its number, LBA and length,
// the flush it followed, the runs kept and lost), as the control socket's
// reply lists them.
std::vector<std::string> cut_report_lines(const PowerCutReport& report);

}  // namespace memstore::scsi
