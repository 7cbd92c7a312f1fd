// SPDX-License-Identifier: Apache-2.0
// LOG SENSE pages (SPC-4 §7.3): Supported Log Pages (00h) generated from the
// page table, and the vendor pages 30h "MEMStore power" and 31h "MEMStore
// positioning" (docs/vendor-interface.md has their byte tables).
//
// Every page is encoded whole, subpage 00h; the parameter pointer, PPC, SP and
// the allocation length are the target's. Every vendor parameter is an
// 8-byte big-endian unsigned binary value.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/mechanism.h"
#include "modepages/bytes.h"

namespace memstore::modepages {

inline constexpr std::uint8_t kSupportedLogPages = 0x00;
inline constexpr std::uint8_t kPowerLogPage = 0x30;
inline constexpr std::uint8_t kPositioningLogPage = 0x31;

// Page 30h, indexed by model::PowerState (INACTIVE, IDLE, SEEK, ACCESS, STARTUP).
struct PowerLog {
  std::array<std::uint64_t, model::kPowerStates> time_ms{};
  std::array<std::uint64_t, model::kPowerStates> energy_uj{};
  std::uint64_t startups = 0;
  friend bool operator==(const PowerLog&, const PowerLog&) = default;
};
// Times are truncated to whole ms, energies rounded to the nearest µJ.
PowerLog power_log_from(const model::EnergyReport& report);

// Page 31h parameter codes: (metric << 4) | statistic.
enum class PositioningMetric : std::uint8_t {
  kSeekX = 0,       // X base seek, ns
  kSeekY = 1,       // Y base seek, ns
  kSettle = 2,      // X settle, ns
  kTurnaround = 3,  // turnarounds, ns
  kTransfer = 4,    // media transfer, ns
  kQueueDepth = 5,  // requests queued at arrival: mean in 1/1000 request, max in requests
  // How late the transport delivered completions after their modeled time,
  // ns (realtime and scaled timing; never negative: delivery is never early).
  kDeliveryLateness = 6,
};
inline constexpr int kPositioningMetrics = 7;
struct MetricSummary {
  std::uint64_t count = 0;
  std::uint64_t mean = 0;  // ns (queue depth: thousandths of a request)
  std::uint64_t max = 0;   // ns (queue depth: requests)
  friend bool operator==(const MetricSummary&, const MetricSummary&) = default;
};
struct PositioningLog {
  std::array<MetricSummary, kPositioningMetrics> metrics{};  // by PositioningMetric
  MetricSummary& operator[](PositioningMetric m) { return metrics[static_cast<int>(m)]; }
  const MetricSummary& operator[](PositioningMetric m) const {
    return metrics[static_cast<int>(m)];
  }
  friend bool operator==(const PositioningLog&, const PositioningLog&) = default;
};

// Parameter codes of page 30h: time (0000h + state), energy (0010h + state),
// startups (0020h). Page 31h: (metric << 4) | {0 count, 1 mean, 2 max}.
constexpr std::uint16_t power_time_code(model::PowerState s) {
  return static_cast<std::uint16_t>(0x00 + static_cast<int>(s));
}
constexpr std::uint16_t power_energy_code(model::PowerState s) {
  return static_cast<std::uint16_t>(0x10 + static_cast<int>(s));
}
inline constexpr std::uint16_t kPowerStartupsCode = 0x20;
enum class Statistic : std::uint8_t { kCount = 0, kMean = 1, kMax = 2 };
constexpr std::uint16_t positioning_code(PositioningMetric m, Statistic s) {
  return static_cast<std::uint16_t>((static_cast<int>(m) << 4) | static_cast<int>(s));
}

struct LogInputs {
  // False: the device keeps no power states or energy (a disk LUN), and
  // page 30h is not offered.
  bool has_power = true;
  PowerLog power;
  PositioningLog positioning;
};

// The page for `code` (subpage 00h), or nullopt when unsupported (the target
// answers INVALID FIELD IN CDB at the PAGE CODE field, byte 2).
std::optional<Bytes> log_page(std::uint8_t code, const LogInputs& in);
// The page codes in the table that `in` offers, ascending (the body of page 00h).
std::vector<std::uint8_t> supported_log_pages(const LogInputs& in = {});

// Host side. A log page split into its parameters (SPC-4 §7.3, log page format).
struct LogParameter {
  std::uint16_t code = 0;
  std::uint8_t control = 0;
  std::span<const std::uint8_t> value;  // points into the decoded buffer
};
struct DecodedLogPage {
  std::uint8_t page_code = 0;
  std::uint8_t subpage = 0;
  std::vector<LogParameter> parameters;
};
// nullopt when the buffer is shorter than the header, the page length runs
// past the buffer (re-read with a larger allocation length), or a parameter
// runs past the page. Lifetime: the result points into `page`.
std::optional<DecodedLogPage> decode_log_page(std::span<const std::uint8_t> page);

// nullopt on a malformed page, another page code, or a known parameter longer
// than 8 bytes. Missing parameters read as 0; unknown ones are ignored.
std::optional<std::vector<std::uint8_t>> decode_supported_log_pages(
    std::span<const std::uint8_t> page);
std::optional<PowerLog> decode_power_log(std::span<const std::uint8_t> page);
std::optional<PositioningLog> decode_positioning_log(std::span<const std::uint8_t> page);

}  // namespace memstore::modepages
