// SPDX-License-Identifier: Apache-2.0
// The pipelined simulation gives what simulate() gives, bit for bit, on one,
// two and three threads: the statistics, the completions in their order, the
// trace reader's error, and an exception from the source.
#include "sim/pipelined_simulate.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/device_factory.h"
#include "sim/trace.h"
#include "sim/workload.h"

namespace memstore::sim {
namespace {

std::unique_ptr<model::Device> g2(const char* scheduler = "fcfs") {
  return model::make_mems_device(*model::preset("g2"), scheduler, {});
}

// `requests` Random requests as a DiskSim trace; a 2 ms mean gap keeps a queue.
std::string random_trace(std::int64_t requests, std::uint64_t seed) {
  RandomWorkloadSpec spec;
  spec.requests = requests;
  spec.interarrival_ms = 2;
  spec.seed = seed;
  spec.capacity_blocks = g2()->blocks();
  RandomWorkload w(spec);
  std::string text;
  while (const std::optional<model::Request> r = w.next()) text += disksim_line(*r);
  return text;
}

struct Replay {
  RunStats stats;
  std::vector<model::Completion> completions;  // as on_completion saw them
  std::string error;                           // the reader's
};

Replay replay(const std::string& trace, int threads, const char* scheduler = "fcfs") {
  auto device = g2(scheduler);
  std::istringstream in(trace);
  TraceOptions options;
  options.capacity_blocks = device->blocks();
  TraceReader reader(in, TraceFormat::kDiskSim, options);
  Replay r;
  r.stats = simulate_pipelined(*device, requests_of(reader), threads,
                               [&r](const model::Completion& c) { r.completions.push_back(c); });
  if (const Status read = reader.status(); !read.ok()) r.error = read.error().message;
  return r;
}

// Every value of the statistics, doubles bit for bit (JSON prints them so
// they read back exactly), and every completion in order.
void expect_same(const Replay& a, const Replay& b) {
  const RunLabel label{"g2", "fcfs", "t"};
  EXPECT_EQ(to_json(a.stats, label).dump(), to_json(b.stats, label).dump());
  EXPECT_EQ(format_csv(a.stats), format_csv(b.stats));
  EXPECT_EQ(a.stats.requests, b.stats.requests);
  EXPECT_EQ(a.stats.first_arrival_ns, b.stats.first_arrival_ns);
  EXPECT_EQ(a.stats.last_done_ns, b.stats.last_done_ns);
  EXPECT_EQ(a.stats.merged, b.stats.merged);
  for (int m = 0; m < kMetrics; ++m) {
    const Summary x = a.stats[static_cast<Metric>(m)];
    const Summary y = b.stats[static_cast<Metric>(m)];
    EXPECT_EQ(x.count(), y.count());
    EXPECT_EQ(x.mean(), y.mean());
    EXPECT_EQ(x.sd(), y.sd());
    EXPECT_EQ(x.min(), y.min());
    EXPECT_EQ(x.max(), y.max());
    for (double pct : {1.0, 50.0, 90.0, 99.0, 99.9})
      EXPECT_EQ(x.percentile(pct), y.percentile(pct));
  }
  ASSERT_EQ(a.completions.size(), b.completions.size());
  for (std::size_t i = 0; i < a.completions.size(); ++i) {
    EXPECT_EQ(a.completions[i].request.id, b.completions[i].request.id) << i;
    EXPECT_EQ(a.completions[i].done_ns, b.completions[i].done_ns) << i;
  }
  EXPECT_EQ(a.error, b.error);
}

void expect_same_on_all_threads(const std::string& trace, const char* scheduler = "fcfs") {
  const Replay plain = replay(trace, 1, scheduler);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(threads);
    expect_same(replay(trace, threads, scheduler), plain);
  }
}

TEST(PipelinedSimulate, SameStatisticsAsOneThread) {
  // 20 000 requests: many whole batches and a partial last one.
  const std::string trace = random_trace(20'000, 3);
  expect_same_on_all_threads(trace);
  expect_same_on_all_threads(trace, "sptf");
}

TEST(PipelinedSimulate, WholeBatchesOnly) {
  // The source ends exactly at a batch boundary (batches of 1024).
  expect_same_on_all_threads(random_trace(2048, 5));
  expect_same_on_all_threads(random_trace(1, 5));
}

TEST(PipelinedSimulate, EmptyTrace) {
  const Replay plain = replay("", 1);
  EXPECT_EQ(plain.stats.requests, 0);
  expect_same_on_all_threads("");
  expect_same_on_all_threads("# only a comment\n");
}

TEST(PipelinedSimulate, TraceErrorMidwayStopsAtTheSameRequest) {
  std::string trace = random_trace(6000, 7);
  // Line 3001 becomes malformed: the run keeps the 3000 requests before it.
  std::size_t at = 0;
  for (int line = 0; line < 3000; ++line) at = trace.find('\n', at) + 1;
  trace.insert(at, "1.5 0 12\n");
  const Replay plain = replay(trace, 1);
  EXPECT_EQ(plain.stats.requests, 3000);
  EXPECT_NE(plain.error.find("line 3001"), std::string::npos) << plain.error;
  expect_same_on_all_threads(trace);
}

// What the caller can see after the source threw: requests submitted, completed, still queued.
struct AfterThrow {
  std::int64_t asked = 0;
  std::int64_t completed = 0;
  std::size_t pending = 0;
  std::string what;
};

AfterThrow throw_at_2500(int threads) {
  auto device = g2();
  AfterThrow a;
  const RequestSource source = [&a]() -> std::optional<model::Request> {
    if (a.asked == 2500) throw std::runtime_error("read error");
    model::Request r;
    r.id = static_cast<std::uint64_t>(a.asked);
    r.arrival_ns = a.asked++ * 500'000;  // a queue builds up
    return r;
  };
  try {
    simulate_pipelined(*device, source, threads, [&a](const model::Completion&) { ++a.completed; });
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    a.what = e.what();
  }
  a.pending = device->pending();
  return a;
}

TEST(PipelinedSimulate, SourceExceptionReachesTheCallerAtTheSamePlace) {
  // As from simulate(): every request before the exception was submitted,
  // none was drained, and the source was not asked again.
  const AfterThrow plain = throw_at_2500(1);
  EXPECT_EQ(plain.what, "read error");
  EXPECT_EQ(plain.asked, 2500);
  EXPECT_GT(plain.pending, 0u);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(threads);
    const AfterThrow a = throw_at_2500(threads);
    EXPECT_EQ(a.what, plain.what);
    EXPECT_EQ(a.asked, plain.asked);
    EXPECT_EQ(a.completed, plain.completed);
    EXPECT_EQ(a.pending, plain.pending);
  }
}

TEST(PipelinedSimulate, DefaultThreadsIsOneOrTwo) {
  const int threads = default_simulation_threads();
  EXPECT_GE(threads, 1);
  EXPECT_LE(threads, 2);
}

}  // namespace
}  // namespace memstore::sim
