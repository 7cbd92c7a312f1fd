// SPDX-License-Identifier: Apache-2.0
#include "model/trace_line.h"

#include <cinttypes>
#include <cstdio>

namespace memstore::model {

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  if (name == "disksim") return TraceFormat::kDiskSim;
  if (name == "spc") return TraceFormat::kSpc;
  return std::nullopt;
}

std::string_view trace_format_name(TraceFormat format) {
  return format == TraceFormat::kDiskSim ? "disksim" : "spc";
}

// Integer arithmetic in both, so that the decimals are exact.
std::string disksim_line(const Request& r) {
  char line[96];
  const int n = std::snprintf(line, sizeof line, "%" PRId64 ".%06" PRId64 " 0 %" PRId64 " %d %d\n",
                              r.arrival_ns / 1'000'000, r.arrival_ns % 1'000'000,
                              static_cast<std::int64_t>(r.lbn), static_cast<int>(r.blocks),
                              r.op == Op::kRead ? 1 : 0);
  return {line, static_cast<std::size_t>(n)};
}

std::string spc_line(const Request& r, std::int32_t block_bytes) {
  char line[112];
  const int n = std::snprintf(
      line, sizeof line, "0,%" PRId64 ",%" PRId64 ",%c,%" PRId64 ".%09" PRId64 "\n",
      static_cast<std::int64_t>(r.lbn), static_cast<std::int64_t>(r.blocks) * block_bytes,
      r.op == Op::kRead ? 'r' : 'w', r.arrival_ns / 1'000'000'000, r.arrival_ns % 1'000'000'000);
  return {line, static_cast<std::size_t>(n)};
}

}  // namespace memstore::model
