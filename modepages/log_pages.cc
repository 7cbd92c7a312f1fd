// SPDX-License-Identifier: Apache-2.0
#include "modepages/log_pages.h"

#include <algorithm>
#include <cmath>

namespace memstore::modepages {
namespace {

// Page header byte 0 (SPC-4 §7.3, log page format): DS = 1, the device saves no log
// parameters (LOG SENSE with SP = 1 is the target's to refuse); SPF = 0.
constexpr std::uint8_t kDisableSave = 0x80;
// Parameter control byte (SPC-4 §7.3, log parameter format): DU 0, TSD 1 (never saved
// implicitly), ETC 0, TMC 00b, FORMAT AND LINKING 11b (binary format list).
constexpr std::uint8_t kBinaryControl = 0x20 | 0x03;

void append_param(Bytes& out, std::uint16_t code, std::uint64_t value) {
  append_be(out, 2, code);
  out.push_back(kBinaryControl);
  out.push_back(8);  // PARAMETER LENGTH
  append_be(out, 8, value);
}

// Each encoder returns the parameters, after the 4-byte page header.
using Encoder = Bytes (*)(const LogInputs&);
struct LogEntry {
  std::uint8_t code;
  Encoder body;
  bool power = false;  // needs LogInputs::has_power
};

bool offered(const LogEntry& e, const LogInputs& in) {
  return !e.power || in.has_power;
}

// SPC-4 §7.3, Supported Log Pages: one byte per supported page code.
Bytes supported_body(const LogInputs& in) {
  return supported_log_pages(in);
}

// Parameters in ascending parameter code order (SPC-4 §7.3, log parameters).
Bytes power_body(const LogInputs& in) {
  Bytes b;
  for (int s = 0; s < model::kPowerStates; ++s) {
    append_param(b, power_time_code(static_cast<model::PowerState>(s)), in.power.time_ms[s]);
  }
  for (int s = 0; s < model::kPowerStates; ++s) {
    append_param(b, power_energy_code(static_cast<model::PowerState>(s)), in.power.energy_uj[s]);
  }
  append_param(b, kPowerStartupsCode, in.power.startups);
  return b;
}

Bytes positioning_body(const LogInputs& in) {
  Bytes b;
  for (int m = 0; m < kPositioningMetrics; ++m) {
    const auto metric = static_cast<PositioningMetric>(m);
    const MetricSummary& s = in.positioning.metrics[m];
    append_param(b, positioning_code(metric, Statistic::kCount), s.count);
    append_param(b, positioning_code(metric, Statistic::kMean), s.mean);
    append_param(b, positioning_code(metric, Statistic::kMax), s.max);
  }
  return b;
}

constexpr LogEntry kPages[] = {
    {kSupportedLogPages, supported_body},
    {kPowerLogPage, power_body, true},
    {kPositioningLogPage, positioning_body},
};

// Calls visit(code, value) for every parameter of a page with `code`. False
// if the page is malformed, has another code, or a value exceeds 8 bytes.
template <typename Visit>
bool visit_u64_params(std::span<const std::uint8_t> page, std::uint8_t code, Visit visit) {
  const auto decoded = decode_log_page(page);
  if (!decoded || decoded->page_code != code || decoded->subpage != 0) return false;
  for (const LogParameter& p : decoded->parameters) {
    if (p.value.size() > 8) return false;
    visit(p.code, get_be(p.value, 0, p.value.size()));
  }
  return true;
}

}  // namespace

PowerLog power_log_from(const model::EnergyReport& report) {
  PowerLog log;
  for (int s = 0; s < model::kPowerStates; ++s) {
    log.time_ms[s] =
        static_cast<std::uint64_t>(std::max<model::Ns>(report.time_ns[s], 0) / 1'000'000);
    const double uj = std::round(report.energy_j[s] * 1e6);
    log.energy_uj[s] = uj > 0 ? static_cast<std::uint64_t>(uj) : 0;
  }
  log.startups = static_cast<std::uint64_t>(std::max<std::int64_t>(report.startups, 0));
  return log;
}

std::vector<std::uint8_t> supported_log_pages(const LogInputs& in) {
  std::vector<std::uint8_t> codes;
  codes.reserve(std::size(kPages));
  for (const LogEntry& e : kPages) {
    if (offered(e, in)) codes.push_back(e.code);
  }
  return codes;
}

std::optional<Bytes> log_page(std::uint8_t code, const LogInputs& in) {
  const auto* it = std::find_if(std::begin(kPages), std::end(kPages),
                                [code](const LogEntry& e) { return e.code == code; });
  if (it == std::end(kPages) || !offered(*it, in)) return std::nullopt;
  const Bytes body = it->body(in);
  Bytes page = {static_cast<std::uint8_t>(kDisableSave | code), 0x00};
  append_be(page, 2, body.size());  // at most a few hundred bytes
  page.insert(page.end(), body.begin(), body.end());
  return page;
}

std::optional<DecodedLogPage> decode_log_page(std::span<const std::uint8_t> page) {
  if (page.size() < 4) return std::nullopt;
  const std::size_t end = 4 + std::size_t{get_be16(page, 2)};
  if (end > page.size()) return std::nullopt;
  DecodedLogPage out;
  out.page_code = page[0] & 0x3F;
  out.subpage = page[1];
  for (std::size_t at = 4; at < end;) {
    if (end - at < 4) return std::nullopt;
    const std::size_t len = page[at + 3];
    if (end - at - 4 < len) return std::nullopt;
    out.parameters.push_back({get_be16(page, at), page[at + 2], page.subspan(at + 4, len)});
    at += 4 + len;
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> decode_supported_log_pages(
    std::span<const std::uint8_t> page) {
  if (page.size() < 4 || (page[0] & 0x3F) != kSupportedLogPages || page[1] != 0) {
    return std::nullopt;
  }
  const std::size_t end = 4 + std::size_t{get_be16(page, 2)};
  if (end > page.size()) return std::nullopt;
  return std::vector<std::uint8_t>(page.begin() + 4,
                                   page.begin() + static_cast<std::ptrdiff_t>(end));
}

std::optional<PowerLog> decode_power_log(std::span<const std::uint8_t> page) {
  PowerLog log;
  const bool ok =
      visit_u64_params(page, kPowerLogPage, [&log](std::uint16_t code, std::uint64_t v) {
        const int state = code & 0x0F;
        if (state >= model::kPowerStates) return;
        if (code >> 4 == 0) {
          log.time_ms[state] = v;
        } else if (code >> 4 == 1) {
          log.energy_uj[state] = v;
        } else if (code == kPowerStartupsCode) {
          log.startups = v;
        }
      });
  if (!ok) return std::nullopt;
  return log;
}

std::optional<PositioningLog> decode_positioning_log(std::span<const std::uint8_t> page) {
  PositioningLog log;
  const bool ok =
      visit_u64_params(page, kPositioningLogPage, [&log](std::uint16_t code, std::uint64_t v) {
        const int metric = code >> 4;
        const int statistic = code & 0x0F;
        if (metric >= kPositioningMetrics || statistic > 2) return;
        MetricSummary& s = log.metrics[metric];
        (statistic == 0 ? s.count : statistic == 1 ? s.mean : s.max) = v;
      });
  if (!ok) return std::nullopt;
  return log;
}

}  // namespace memstore::modepages
