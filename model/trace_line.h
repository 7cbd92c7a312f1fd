// SPDX-License-Identifier: Apache-2.0
// The two block-trace formats the project writes and reads, one request per
// line: what `memsim run --write-trace` and a live LUN's capture
// (target/scsi/request_trace.h) write, and what sim::TraceReader reads
// (sim/trace.h, where the formats are specified field by field).
//
// Both lines carry whole nanoseconds, so that a request read back has the
// arrival_ns it was written with: DiskSim's milliseconds with six decimals,
// SPC's seconds with nine.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/request.h"

namespace memstore::model {

enum class TraceFormat { kDiskSim, kSpc };

// "disksim" or "spc"; nullopt for anything else.
std::optional<TraceFormat> parse_trace_format(std::string_view name);
std::string_view trace_format_name(TraceFormat format);

// `r` as one DiskSim 4.0 ASCII line, newline included: the arrival in ms,
// device 0, the LBN, the size in blocks, and flags 1 for a read, 0 for a
// write (DiskSim's B_READ bit). REQUIRES: r.arrival_ns >= 0.
std::string disksim_line(const Request& r);

// `r` as one SPC line, newline included: ASU 0, the LBN (SPC counts 512-byte
// blocks: `block_bytes` must be 512 for the reader to give back r.lbn), the
// size in bytes, r or w, and the arrival in seconds.
// REQUIRES: r.arrival_ns >= 0.
std::string spc_line(const Request& r, std::int32_t block_bytes);

inline std::string trace_line(TraceFormat format, const Request& r, std::int32_t block_bytes) {
  return format == TraceFormat::kDiskSim ? disksim_line(r) : spc_line(r, block_bytes);
}

}  // namespace memstore::model
