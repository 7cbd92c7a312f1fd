// SPDX-License-Identifier: Apache-2.0
// Reading a whole trace in the sim tests: the options, and every request
// and the final item (end or error) a TraceReader gives.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/trace.h"

namespace memstore::sim::testing {

using Kind = TraceItem::Kind;

inline TraceOptions options(std::int64_t capacity = 1'000'000) {
  TraceOptions o;
  o.capacity_blocks = capacity;
  return o;
}

struct Result {
  std::vector<model::Request> requests;
  TraceItem last;  // kEnd or kError
};

inline Result read_stream(std::istream& in, TraceFormat format, const TraceOptions& o,
                          std::size_t buffer_bytes = TraceReader::kBufferBytes) {
  TraceReader reader(in, format, o, buffer_bytes);
  Result r;
  for (;;) {
    TraceItem item = reader.next();
    if (item.kind != Kind::kRequest) {
      r.last = item;
      return r;
    }
    r.requests.push_back(item.request);
  }
}

inline Result read_all(const std::string& text, TraceFormat format, const TraceOptions& o,
                       std::size_t buffer_bytes = TraceReader::kBufferBytes) {
  std::istringstream in(text);
  return read_stream(in, format, o, buffer_bytes);
}

}  // namespace memstore::sim::testing
