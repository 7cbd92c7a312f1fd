// libFuzzer target for the trace readers: any byte string, read as a DiskSim
// trace and as an SPC trace, must end in kEnd or kError without crashing,
// hanging or tripping a sanitizer, and must only yield well-formed requests.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "sim/trace.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void drain(const std::string& text, memstore::sim::TraceFormat format,
           const memstore::sim::TraceOptions& options) {
  using Kind = memstore::sim::TraceItem::Kind;
  std::istringstream in(text);
  memstore::sim::TraceReader reader(in, format, options);
  memstore::model::Ns previous = 0;
  // Every request consumes at least one line, so this bound is never hit by
  // a correct reader; it turns a hang into a crash.
  for (std::size_t i = 0; i <= text.size() + 1; ++i) {
    const memstore::sim::TraceItem item = reader.next();
    if (item.kind != Kind::kRequest) {
      check(item.kind == Kind::kEnd || !item.error.empty());
      return;
    }
    const auto& r = item.request;
    check(r.arrival_ns >= previous);
    check(r.lbn >= 0 && r.blocks >= 1 && r.lbn + r.blocks <= options.capacity_blocks);
    previous = r.arrival_ns;
  }
  std::abort();
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
  drain(text, memstore::sim::TraceFormat::kDiskSim, options);
  drain(text, memstore::sim::TraceFormat::kSpc, options);
  return 0;
}
