// SPDX-License-Identifier: Apache-2.0
// The second paper's request merging (§5.2.2) and subsector accesses
// (§5.2.3), in model terms: a merged access never completes a request later
// than serving the requests one by one, and neither strategy ever raises the
// energy of a workload.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "model/batch.h"
#include "model/device.h"
#include "model/device_factory.h"
#include "model/mems_mechanism.h"
#include "model/params.h"
#include "model/scheduler.h"

namespace memstore::model {
namespace {

constexpr Ns kMs = 1'000'000;

DeviceParams g2(Ns idle_timeout_ns) {
  DeviceParams p = *preset("g2");
  p.power.idle_timeout_ns = idle_timeout_ns;
  return p;
}

// The model rounds each service's media time to whole ns (cumulatively
// within a service), so one access and several differ by up to 1 ns per
// service at equal work; energy by that time at the highest power.
Ns rounding_ns(std::size_t services) {
  return static_cast<Ns>(services);
}
double rounding_j(const DeviceParams& p, std::size_t services) {
  const double max_w = p.power.sled_motion_w + p.active_tips * p.power.tip_active_w;
  return static_cast<double>(rounding_ns(services)) * 1e-9 * max_w + 1e-12;
}

// Energy spent serving requests: positioning and media access (the second
// paper's "servicing energy"), not waiting for them.
double servicing_j(const EnergyReport& e) {
  return e.energy_j[static_cast<int>(PowerState::kSeek)] +
         e.energy_j[static_cast<int>(PowerState::kAccess)];
}

// A chain of LBN-adjacent requests of one operation, as a merged access takes them.
std::vector<Request> chain(std::mt19937_64& rng, Lbn blocks) {
  std::uniform_int_distribution<int> parts_d(2, 6), size_d(1, 40), op_d(0, 1);
  const int parts = parts_d(rng);
  std::vector<Request> out;
  Lbn lbn = std::uniform_int_distribution<Lbn>(0, blocks - 300)(rng);
  const Op op = op_d(rng) == 0 ? Op::kRead : Op::kWrite;
  for (int i = 0; i < parts; ++i) {
    Request r;
    r.id = static_cast<std::uint64_t>(i + 1);
    r.lbn = lbn;
    r.blocks = size_d(rng);
    r.op = op;
    out.push_back(r);
    lbn += r.blocks;
  }
  return out;
}

// Serves `parts` merged on one sled and one by one on another from the same
// state, over many random chains and sled positions.
void check_merged_against_one_by_one(Ns idle_timeout_ns) {
  const DeviceParams p = g2(idle_timeout_ns);
  std::mt19937_64 rng(20);
  for (int trial = 0; trial < 400; ++trial) {
    MemsMechanism merged(p), alone(p);
    const std::vector<Request> parts = chain(rng, merged.blocks());
    // Start from where some other request left the sled.
    const Lbn before = std::uniform_int_distribution<Lbn>(0, merged.blocks() - 1)(rng);
    const SledState start = merged.state_after_reading(before);
    merged.place_sled(start, 0);
    alone.place_sled(start, 0);
    const Ns now = 1000;

    std::vector<Ns> done(parts.size());
    const Breakdown b = merged.service_merged(parts, now, done);
    Ns t = now;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      t += alone.service(parts[i], t).service_ns();
      EXPECT_LE(now + done[i], t + rounding_ns(i + 1))
          << "trial " << trial << ", part " << i << " of " << parts.size();
    }
    EXPECT_EQ(done.back(), b.service_ns()) << "the last part ends the access";
    const Ns until = std::max(now + b.service_ns(), t);
    const EnergyReport e_merged = merged.energy(until), e_alone = alone.energy(until);
    EXPECT_LE(e_merged.total_j(), e_alone.total_j() + rounding_j(p, parts.size()))
        << "trial " << trial;
    EXPECT_LE(servicing_j(e_merged), servicing_j(e_alone) + rounding_j(p, parts.size()))
        << "trial " << trial;
  }
}

TEST(RequestMergingTest, MergedPartsNeverCompleteLaterThanServedOneByOne) {
  check_merged_against_one_by_one(100 * kMs);
}

TEST(RequestMergingTest, MergedPartsNeverCompleteLaterUnderAggressiveSpinDown) {
  check_merged_against_one_by_one(0);
}

TEST(RequestMergingTest, SharedRowIsReadOnceSoMergingSavesTime) {
  // Two 8-block requests on G2 (p = 10): the second's first two blocks lie in
  // the first's row. One by one, the sled must come back for that row.
  const DeviceParams p = g2(100 * kMs);
  MemsMechanism merged(p), alone(p);
  Request a;
  a.id = 1;
  a.lbn = 1000;
  a.blocks = 8;
  Request b = a;
  b.id = 2;
  b.lbn = 1008;
  const std::vector<Request> parts{a, b};
  std::vector<Ns> done(2);
  const Breakdown m = merged.service_merged(parts, 0, done);
  const Ns first = alone.service(a, 0).service_ns();
  const Ns second = alone.service(b, first).service_ns();
  EXPECT_EQ(m.media_steps, 2);  // rows 1000-1009 and 1010-1015
  EXPECT_EQ(done[0], first);    // the first request's row ends as it would alone
  EXPECT_LT(done[1], first + second);
}

// A workload with runs of sequential requests, bursts and idle gaps (the
// second paper's mobile traces are "strongly sequential", §5.2.2).
std::vector<Request> workload(std::uint64_t seed, Lbn blocks, bool partial_tails) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::exponential_distribution<double> in_burst(1.0 / 0.2), between(1.0 / 40.0);  // ms
  std::vector<Request> out;
  Ns t = 0;
  Lbn next = 0;
  for (std::uint64_t id = 1; id <= 600; ++id) {
    t += static_cast<Ns>((u(rng) < 0.1 ? between(rng) : in_burst(rng)) * kMs);
    Request r;
    r.id = id;
    r.arrival_ns = t;
    r.blocks = 1 + static_cast<std::int32_t>(u(rng) * 16);
    r.lbn = u(rng) < 0.6 && next + r.blocks <= blocks
                ? next
                : std::uniform_int_distribution<Lbn>(0, blocks - r.blocks)(rng);
    r.op = u(rng) < 0.6 ? Op::kRead : Op::kWrite;
    if (partial_tails && u(rng) < 0.5) {
      r.tail_bytes = static_cast<std::uint16_t>(1 + u(rng) * 500);
    }
    next = r.lbn + r.blocks;
    out.push_back(r);
  }
  return out;
}

struct RunResult {
  double energy_j = 0;
  double servicing_j = 0;
  std::int64_t merged = 0;
  std::vector<Completion> completions;
};

RunResult run(const DeviceParams& p, const std::string& scheduler,
              const std::vector<Request>& requests, Ns until) {
  auto d = make_mems_device(p, scheduler);
  EXPECT_NE(d, nullptr);
  RunResult out;
  for (const Request& r : requests) d->submit(r);
  d->drain([&](const Completion& c) { out.completions.push_back(c); });
  Ns last = 0;
  for (const Completion& c : out.completions) last = std::max(last, c.done_ns);
  EXPECT_LE(last, until);
  out.energy_j = d->energy(until).total_j();
  out.servicing_j = servicing_j(d->energy(until));
  out.merged = d->merged_requests();
  return out;
}

// One instant after every run has ended, so every run's energy covers the same time.
Ns common_end(const std::vector<Request>& requests) {
  return requests.back().arrival_ns + 10'000 * kMs;
}

TEST(RequestMergingTest, EnergyNeverRisesOverRandomWorkloads) {
  for (const std::string scheduler : {"fcfs", "sptf", "clook"}) {
    for (const Ns timeout : {Ns{-1}, Ns{0}, 100 * kMs}) {
      std::int64_t merged_total = 0;
      double saved_servicing_j = 0;
      for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        DeviceParams p = g2(timeout);
        const std::vector<Request> w = workload(seed, 6'750'000, false);
        const RunResult off = run(p, scheduler, w, common_end(w));
        p.power.merge_requests = true;
        const RunResult on = run(p, scheduler, w, common_end(w));
        EXPECT_EQ(on.completions.size(), w.size());
        EXPECT_LE(on.energy_j, off.energy_j + rounding_j(p, w.size()))
            << scheduler << ", idle timeout " << timeout << ", seed " << seed;
        EXPECT_EQ(off.merged, 0);
        merged_total += on.merged;
        saved_servicing_j += off.servicing_j - on.servicing_j;
      }
      EXPECT_GT(merged_total, 0) << "the workloads must give merging something to do";
      // Each merge reads a shared row once instead of twice and skips the
      // way back to it: well above the rounding.
      EXPECT_GT(saved_servicing_j, rounding_j(*preset("g2"), 12 * 600)) << scheduler;
    }
  }
}

TEST(SubsectorTest, EnergyNeverRisesAndTimingIsUnchanged) {
  for (const Ns timeout : {Ns{-1}, Ns{0}, 100 * kMs}) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      DeviceParams p = g2(timeout);
      const std::vector<Request> w = workload(seed, 6'750'000, true);
      const RunResult off = run(p, "sptf", w, common_end(w));
      p.power.subsector = true;
      const RunResult on = run(p, "sptf", w, common_end(w));
      EXPECT_LT(on.energy_j, off.energy_j) << "timeout " << timeout << ", seed " << seed;
      ASSERT_EQ(on.completions.size(), off.completions.size());
      for (std::size_t i = 0; i < on.completions.size(); ++i) {
        EXPECT_EQ(on.completions[i].done_ns, off.completions[i].done_ns);
      }
    }
  }
}

TEST(SubsectorTest, PartialBlockActivatesOnlyTheTipsOfItsBytes) {
  // 100 bytes of a 512-byte block striped over 64 tips of 8 bytes: 13 tips.
  DeviceParams p = g2(-1);
  p.power.subsector = true;
  MemsMechanism with(p);
  p.power.subsector = false;
  MemsMechanism without(p);
  Request r;
  r.lbn = 5000;
  r.blocks = 1;
  r.tail_bytes = 100;
  const Breakdown b = with.service(r, 0);
  without.service(r, 0);
  const Ns end = b.service_ns();
  const double row_s = static_cast<double>(b.transfer_ns) * 1e-9;
  const double saved = without.energy(end).total_j() - with.energy(end).total_j();
  EXPECT_NEAR(saved, (64 - 13) * p.power.tip_active_w * row_s, 1e-12);
}

TEST(RequestMergingTest, EverySchedulerHandsOverTheEarliestContinuingRequest) {
  for (const std::string& name : scheduler_names()) {
    auto s = make_scheduler(name);
    ASSERT_NE(s, nullptr);
    const std::vector<BatchExtent> batch;
    Request a;  // same LBN, other operation: never joins a read
    a.id = 1;
    a.lbn = 80;
    a.op = Op::kWrite;
    Request b = a;  // a batch: plans its own access
    b.id = 2;
    b.op = Op::kRead;
    b.batch = &batch;
    Request c = b;
    c.id = 3;
    c.batch = nullptr;
    Request d = c;
    d.id = 4;
    Request e = c;
    e.id = 5;
    e.lbn = 81;
    for (const Request& r : {a, b, c, d, e}) s->add(r);
    const auto first = s->take_continuing(80, Op::kRead);
    ASSERT_TRUE(first.has_value()) << name;
    EXPECT_EQ(first->id, 3u) << name;
    EXPECT_EQ(s->take_continuing(80, Op::kRead)->id, 4u) << name;
    EXPECT_FALSE(s->take_continuing(80, Op::kRead).has_value()) << name;
    EXPECT_EQ(s->size(), 3u) << name;
  }
}

}  // namespace
}  // namespace memstore::model
