// SPDX-License-Identifier: Apache-2.0
// Streaming readers for the block-level traces `memsim replay` takes.
//
// DiskSim 4.0 ASCII ("disksim"), one request per line, whitespace-separated:
//   arrival_ms(float) devno(int) blkno(int, 512-byte blocks) size(int, blocks) flags(int)
//   flags bit 0 set = read, clear = write (DiskSim's B_READ convention).
//   Exactly 5 fields.
// SPC / UMass trace repository ("spc"), comma-separated:
//   ASU(int),LBA(int, 512-byte blocks),Size(int, BYTES),Opcode(r|R|w|W),Timestamp(float, s)
//   Fields after the fifth are ignored; fields may be padded with blanks; the
//   size is rounded up to whole blocks.
// Both: blank lines and lines whose first non-blank character is '#' are
// skipped; a trailing '\r' is ignored; lines are at most kMaxLineBytes long
// (not counting the '\n'); the last line needs no '\n'.
//
// Replay follows the thesis (§6.1.1): arrival times are taken relative to the
// first request kept (which arrives at 0) and every inter-arrival gap is
// divided by `scale` (scale 2 halves the gaps, doubling the arrival rate), then
// rounded to integer ns (TraceOptions::absolute_times keeps the times as
// written). Each traced device is replayed on its own simulated
// device (§6.1.1: "each traced disk is replaced by a distinct simulated
// MEMStore"), hence `device_filter`.
//
// A traced disk is usually not the size of the simulated device. A request
// starting beyond the capacity is folded: its start becomes blkno mod
// capacity_blocks; a request that then runs past the end is clipped to end at
// the last block (and to at most INT32_MAX blocks). This keeps the trace's
// sizes and its locality within each capacity-sized window.
//
// Errors are values: next() returns a TraceItem whose kind says request, end
// of trace or error. Errors name the 1-based line and what is wrong, e.g.
// "line 17: expected 5 fields (arrival_ms devno blkno size flags), got 3".
// A line going back in time (relative to the previous request kept) is an
// error. The first error ends the trace. No input makes the reader crash,
// throw or loop without consuming input.
//
// Speed: read a character at a time from the stream, the trace is about a
// quarter of `memsim replay`'s time on a 1M-request trace
// (docs/benchmarks/log/2026-11-21.md, "memsim against DiskSim 4.0"), so the
// reader takes the stream's
// bytes in large blocks straight from its streambuf and parses each line in
// place in that buffer: no per-line string or istream extraction and no
// allocation per request (only the constructor's buffer, error messages, and
// a copy of the previous arrival's text when the buffer is refilled). DiskSim
// lines of the plain shape memsim writes are parsed in one pass, their digits
// eight bytes at a time; every other line takes the general parser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"
#include "model/request.h"
#include "model/trace_line.h"

namespace memstore::sim {

// The formats and their writers live with the model's requests
// (model/trace_line.h), so that a live LUN writes the lines this reads.
using model::disksim_line;
using model::parse_trace_format;
using model::TraceFormat;

struct TraceOptions {
  // Inter-arrival scaling (thesis §6.1.1): every gap is divided by scale.
  double scale = 1.0;
  std::int64_t capacity_blocks = 0;  // of the simulated device; must be set
  std::int32_t block_bytes = 512;    // for SPC byte sizes
  // Keep only requests of this devno (DiskSim) or ASU (SPC); default keep all.
  std::optional<std::int64_t> device_filter;
  // Arrivals as written, on the clock the trace was taken on, instead of
  // from the first request: a live LUN's capture dates its requests on the
  // LUN's model clock, which started with the device idle at 0 as memsim's
  // does, so the first request finds the device in the same state (its
  // power state after the idle time, docs/memstored.md "Traces"). Times must
  // then be >= 0.
  bool absolute_times = false;
};

// Everything wrong with `options`, naming the memsim option; empty if usable.
std::vector<std::string> validate(const TraceOptions& options);

struct TraceItem {
  enum class Kind { kRequest, kEnd, kError };
  Kind kind = Kind::kEnd;
  model::Request request;  // when kind == kRequest; ids count kept requests from 0
  std::string error;       // when kind == kError
};

class TraceReader {
 public:
  static constexpr std::size_t kMaxLineBytes = 4096;
  // Bytes taken from the stream per read, by default. The buffer must hold a
  // whole line of kMaxLineBytes plus its '\n' (kMinBufferBytes), so that a
  // line split across two reads is joined in it.
  static constexpr std::size_t kBufferBytes = 64 * 1024;
  static constexpr std::size_t kMinBufferBytes = kMaxLineBytes + 1;

  // `in` must outlive the reader. The reader takes bytes from in.rdbuf()
  // ahead of the line it returns, so nothing else should read `in` meanwhile.
  // Invalid options are reported by the first next() as an error.
  // `buffer_bytes` (raised to kMinBufferBytes) only changes where the reads
  // split the input, never the result: tests use small buffers to put the
  // splits inside small inputs.
  TraceReader(std::istream& in, TraceFormat format, TraceOptions options,
              std::size_t buffer_bytes = kBufferBytes);

  // The next kept request, kEnd, or kError. After kEnd or kError every
  // further call returns the same item.
  TraceItem next();
  // Why the reading stopped early, once next() has returned kError; success
  // before that and after kEnd. Read it once the reading is over (a
  // pipelined simulation reads on another thread until it returns).
  Status status() const;

 private:
  enum class LineStatus { kLine, kEof, kTooLong };
  LineStatus read_line();
  void refill();
  TraceItem finish(TraceItem item);
  TraceItem fail(const std::string& message);

  std::istream& in_;
  TraceFormat format_;
  TraceOptions options_;
  std::size_t buffer_bytes_;
  std::unique_ptr<char[]> buffer_;  // buffer_bytes_ bytes
  std::size_t begin_ = 0;           // unread bytes: buffer_[begin_, end_)
  std::size_t end_ = 0;
  bool eof_ = false;       // the stream has no more bytes past end_
  std::string_view line_;  // the current line in buffer_, without its '\n'
  std::int64_t line_no_ = 0;
  std::uint64_t kept_ = 0;
  double first_time_ = 0.0;  // in the trace's unit (ms or s)
  double previous_time_ = 0.0;
  // The previous arrival as written, for messages: a view into buffer_
  // (copying it for every line cost more than the rest of the bookkeeping),
  // or, once refill() has saved it before the buffer's bytes moved,
  // previous_copy_. buffer_'s bytes stay put if the reader is moved; a view
  // into previous_copy_ would not.
  std::string_view previous_text_;
  std::string previous_copy_;
  bool previous_saved_ = true;
  std::optional<TraceItem> final_;  // set once the trace ended or failed
};

// The reader as the request source of a simulation (memsim replay, array,
// wbuffer): each call gives the next kept request, or nullopt at the end of
// the trace or at an error, which reader.status() then gives.
inline auto requests_of(TraceReader& reader) {
  return [&reader]() -> std::optional<model::Request> {
    TraceItem item = reader.next();
    if (item.kind == TraceItem::Kind::kRequest) return item.request;
    return std::nullopt;
  };
}

// The readers' number parsers, exposed so that tests can hold them to
// std::from_chars, which they replace on the common shapes for speed: each
// accepts a token exactly when std::from_chars (base 10, resp.
// chars_format::general) consumes all of it, and gives the same value;
// parse_finite also rejects infinities and NaNs.
namespace trace_detail {
std::optional<std::int64_t> parse_int(std::string_view token);
std::optional<double> parse_finite(std::string_view token);
}  // namespace trace_detail

}  // namespace memstore::sim
