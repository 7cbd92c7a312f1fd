// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the trace readers: any byte string, read as a DiskSim
// trace and as an SPC trace, must end in kEnd or kError without crashing,
// hanging or tripping a sanitizer, and must only yield well-formed requests.
// Read again with the smallest buffer (splits inside inputs of a few KB), it
// must give the same items; and the readers' number parsers must agree with
// std::from_chars on every token of the input.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/trace.h"

namespace {

using memstore::sim::TraceItem;
using memstore::sim::TraceReader;

void check(bool ok) {
  if (!ok) std::abort();
}

std::vector<TraceItem> drain(const std::string& text, memstore::sim::TraceFormat format,
                             const memstore::sim::TraceOptions& options, std::size_t buffer_bytes) {
  using Kind = TraceItem::Kind;
  std::istringstream in(text);
  TraceReader reader(in, format, options, buffer_bytes);
  std::vector<TraceItem> items;
  memstore::model::Ns previous = 0;
  // Every request consumes at least one line, so this bound is never hit by
  // a correct reader; it turns a hang into a crash.
  for (std::size_t i = 0; i <= text.size() + 1; ++i) {
    items.push_back(reader.next());
    const TraceItem& item = items.back();
    if (item.kind != Kind::kRequest) {
      check(item.kind == Kind::kEnd || !item.error.empty());
      return items;
    }
    const auto& r = item.request;
    check(r.arrival_ns >= previous);
    check(r.lbn >= 0 && r.blocks >= 1 && r.lbn + r.blocks <= options.capacity_blocks);
    previous = r.arrival_ns;
  }
  std::abort();
}

void check_same(const std::vector<TraceItem>& a, const std::vector<TraceItem>& b) {
  check(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    check(a[i].kind == b[i].kind && a[i].error == b[i].error);
    check(a[i].request.id == b[i].request.id);
    check(a[i].request.arrival_ns == b[i].request.arrival_ns);
    check(a[i].request.lbn == b[i].request.lbn && a[i].request.blocks == b[i].request.blocks);
    check(a[i].request.op == b[i].request.op);
  }
}

void read_both_ways(const std::string& text, memstore::sim::TraceFormat format,
                    const memstore::sim::TraceOptions& options) {
  check_same(drain(text, format, options, TraceReader::kBufferBytes),
             drain(text, format, options, TraceReader::kMinBufferBytes));
}

// The reference the fast number parsers must match.
void check_numbers(std::string_view token) {
  const char* end = token.data() + token.size();
  std::int64_t i = 0;
  const auto ri = std::from_chars(token.data(), end, i);
  const bool int_ok = ri.ec == std::errc() && ri.ptr == end && !token.empty();
  const std::optional<std::int64_t> pi = memstore::sim::trace_detail::parse_int(token);
  check(pi.has_value() == int_ok && (!int_ok || *pi == i));
  double d = 0.0;
  const auto rd = std::from_chars(token.data(), end, d);
  const bool double_ok =
      rd.ec == std::errc() && rd.ptr == end && !token.empty() && std::isfinite(d);
  const std::optional<double> pd = memstore::sim::trace_detail::parse_finite(token);
  check(pd.has_value() == double_ok &&
        (!double_ok || std::bit_cast<std::uint64_t>(*pd) == std::bit_cast<std::uint64_t>(d)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The first byte picks the options, so they are fuzzed too.
  memstore::sim::TraceOptions options;
  options.capacity_blocks = 1000;
  if (size > 0) {
    options.scale = (data[0] & 1) != 0 ? 0.001 : 3.0;
    if ((data[0] & 2) != 0) options.device_filter = data[0] >> 4;
    if ((data[0] & 4) != 0) options.block_bytes = 4096;
    if ((data[0] & 8) != 0) options.capacity_blocks = 1;
  }
  const std::string text(reinterpret_cast<const char*>(data), size);
  read_both_ways(text, memstore::sim::TraceFormat::kDiskSim, options);
  read_both_ways(text, memstore::sim::TraceFormat::kSpc, options);
  // Tokens as the readers cut them: at blanks, newlines and commas.
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() ||
        std::string_view(" \t\r\v\f\n,").find(text[i]) != std::string_view::npos) {
      check_numbers(std::string_view(text).substr(start, i - start));
      start = i + 1;
    }
  }
  return 0;
}
