// SPDX-License-Identifier: Apache-2.0
// The discrete-event device: queueing, the run_until contract, requests that
// span sleds, energy over sleds and determinism.
#include "model/device.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "model/device_factory.h"
#include "model/mems_mechanism.h"
#include "model/params.h"

namespace memstore::model {
namespace {

DeviceParams g2(int sleds = 1) {
  DeviceParams p = *preset("g2");
  p.sleds = sleds;
  return p;
}

std::unique_ptr<Device> fcfs_device(const DeviceParams& p) {
  auto d = make_mems_device(p, "fcfs");
  EXPECT_NE(d, nullptr);
  return d;
}

Request req(std::uint64_t id, Ns arrival_ns, Lbn lbn, std::int32_t blocks = 1) {
  Request r;
  r.id = id;
  r.arrival_ns = arrival_ns;
  r.lbn = lbn;
  r.blocks = blocks;
  return r;
}

// Collects completions in the order the device reports them.
struct Collector {
  std::vector<Completion> out;
  Device::Sink sink() {
    return [this](const Completion& c) { out.push_back(c); };
  }
};

// What a lone sled would take for `r` starting at `at`.
Ns lone_service_ns(const DeviceParams& p, const Request& r, Ns at) {
  MemsMechanism m(p);
  return m.service(r, at).service_ns();
}

TEST(DeviceTest, FactoryBuildsOneMechanismPerSledAndRejectsUnknownSchedulers) {
  const auto one = make_mems_device(g2(), "fcfs");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->mechanisms(), 1u);
  EXPECT_EQ(one->blocks(), 6'750'000);
  const auto two = make_mems_device(g2(2), "sptf");
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->mechanisms(), 2u);
  EXPECT_EQ(two->blocks(), 2 * 6'750'000);
  EXPECT_EQ(make_mems_device(g2(), "elevator"), nullptr);
}

TEST(DeviceTest, LoneRequestStartsOnArrivalAndTakesItsServiceTime) {
  const DeviceParams p = g2();
  auto d = fcfs_device(p);
  const Request r = req(7, 1'000'000, 12'345, 8);
  d->submit(r);
  Collector c;
  d->drain(c.sink());
  ASSERT_EQ(c.out.size(), 1u);
  const Completion& done = c.out[0];
  EXPECT_EQ(done.request.id, 7u);
  EXPECT_EQ(done.request.lbn, 12'345);
  EXPECT_EQ(done.request.blocks, 8);
  EXPECT_EQ(done.start_ns, r.arrival_ns);
  EXPECT_EQ(done.queue_ns(), 0);
  EXPECT_EQ(done.done_ns, r.arrival_ns + done.breakdown.service_ns());
  EXPECT_EQ(done.breakdown.service_ns(), lone_service_ns(p, r, r.arrival_ns));
}

TEST(DeviceTest, RequestArrivingDuringServiceStartsExactlyWhenTheFirstEnds) {
  auto d = fcfs_device(g2());
  d->submit(req(1, 0, 3'000'000, 4));
  d->submit(req(2, 100'000, 10, 4));
  Collector c;
  d->drain(c.sink());
  ASSERT_EQ(c.out.size(), 2u);
  const Completion& first = c.out[0];
  const Completion& second = c.out[1];
  ASSERT_GT(first.done_ns, 100'000);  // the second arrives while the first is served
  EXPECT_EQ(second.start_ns, first.done_ns);
  EXPECT_EQ(second.queue_ns(), first.done_ns - 100'000);
  EXPECT_EQ(second.done_ns, second.start_ns + second.breakdown.service_ns());
  EXPECT_EQ(second.response_ns(), second.done_ns - 100'000);
}

TEST(DeviceTest, RunUntilReportsOnlyServicesStartingByThen) {
  auto d = fcfs_device(g2());
  d->submit(req(1, 0, 500'000));
  d->submit(req(2, 10, 4'000'000));
  EXPECT_EQ(d->pending(), 2u);
  EXPECT_EQ(d->next_start_ns(), 0);

  Collector c;
  d->run_until(0, c.sink());
  ASSERT_EQ(c.out.size(), 1u);
  const Ns first_done = c.out[0].done_ns;
  EXPECT_EQ(d->pending(), 1u);
  EXPECT_EQ(d->next_start_ns(), first_done);

  d->run_until(first_done - 1, c.sink());
  EXPECT_EQ(c.out.size(), 1u);
  EXPECT_EQ(d->pending(), 1u);

  d->run_until(first_done, c.sink());
  ASSERT_EQ(c.out.size(), 2u);
  EXPECT_EQ(c.out[1].request.id, 2u);
  EXPECT_EQ(c.out[1].start_ns, first_done);
  EXPECT_EQ(d->pending(), 0u);
  EXPECT_EQ(d->next_start_ns(), -1);
}

TEST(DeviceTest, IdleDeviceNextStartsAtTheNextArrival) {
  auto d = fcfs_device(g2());
  d->submit(req(1, 0, 100));
  Collector c;
  d->run_until(0, c.sink());
  ASSERT_EQ(c.out.size(), 1u);
  const Ns later = c.out[0].done_ns + 5'000'000;
  d->submit(req(2, later, 200));
  EXPECT_EQ(d->next_start_ns(), later);
  d->run_until(later - 1, c.sink());
  EXPECT_EQ(c.out.size(), 1u);
  d->run_until(later, c.sink());
  ASSERT_EQ(c.out.size(), 2u);
  EXPECT_EQ(c.out[1].start_ns, later);
}

TEST(DeviceTest, EqualArrivalTimesAreServedInSubmitOrderBackToBack) {
  auto d = fcfs_device(g2());
  const Lbn lbns[] = {6'000'000, 20, 3'333'333, 20, 1'000'000};
  std::uint64_t id = 1;
  for (Lbn l : lbns) d->submit(req(id++, 42'000, l, 2));
  Collector c;
  d->drain(c.sink());
  ASSERT_EQ(c.out.size(), 5u);
  Ns free_at = 42'000;
  for (std::size_t i = 0; i < c.out.size(); ++i) {
    EXPECT_EQ(c.out[i].request.id, i + 1);
    EXPECT_EQ(c.out[i].request.lbn, lbns[i]);
    EXPECT_EQ(c.out[i].start_ns, free_at);
    free_at = c.out[i].done_ns;
  }
}

TEST(DeviceTest, DrainServesEverythingOnceAndLeavesNothingPending) {
  auto d = make_mems_device(g2(), "sptf");
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<Lbn> lbn(0, d->blocks() - 8);
  for (std::uint64_t id = 0; id < 50; ++id)
    d->submit(req(id, static_cast<Ns>(id) * 1000, lbn(rng), 8));
  Collector c;
  d->drain(c.sink());
  EXPECT_EQ(d->pending(), 0u);
  EXPECT_EQ(d->next_start_ns(), -1);
  ASSERT_EQ(c.out.size(), 50u);
  std::vector<std::uint64_t> ids;
  for (const Completion& x : c.out) ids.push_back(x.request.id);
  std::sort(ids.begin(), ids.end());
  for (std::uint64_t id = 0; id < 50; ++id) EXPECT_EQ(ids[id], id);
}

TEST(DeviceTest, RequestSpanningTwoSledsIsServedInPartsAndReportedOnce) {
  const DeviceParams p = g2(2);
  auto d = fcfs_device(p);
  const Lbn per_sled = MemsMechanism(p).blocks();
  ASSERT_EQ(d->blocks(), 2 * per_sled);

  const Request r = req(9, 2'000, per_sled - 3, 5);  // 3 blocks on sled 0, 2 on sled 1
  d->submit(r);
  Collector c;
  d->drain(c.sink());
  ASSERT_EQ(c.out.size(), 1u);
  const Completion& done = c.out[0];
  EXPECT_EQ(done.request.id, 9u);
  EXPECT_EQ(done.request.lbn, per_sled - 3);
  EXPECT_EQ(done.request.blocks, 5);
  EXPECT_EQ(done.start_ns, 2'000);

  // Both sleds are idle, so both parts start on arrival, in parallel.
  const Ns part0 = lone_service_ns(p, req(9, 2'000, per_sled - 3, 3), 2'000);
  const Ns part1 = lone_service_ns(p, req(9, 2'000, 0, 2), 2'000);
  EXPECT_EQ(done.done_ns, 2'000 + std::max(part0, part1));
  // The breakdown accounts for both parts' work.
  EXPECT_EQ(done.breakdown.startup_ns, 2 * p.power.startup_ns);
  EXPECT_EQ(d->pending(), 0u);
}

TEST(DeviceTest, RequestsOnDifferentSledsAreServedInParallel) {
  const DeviceParams p = g2(2);
  auto d = fcfs_device(p);
  const Lbn per_sled = d->blocks() / 2;
  d->submit(req(1, 0, 100, 4));
  d->submit(req(2, 0, per_sled + 100, 4));
  Collector c;
  d->drain(c.sink());
  ASSERT_EQ(c.out.size(), 2u);
  for (const Completion& x : c.out) {
    EXPECT_EQ(x.start_ns, 0);
    EXPECT_EQ(x.done_ns, lone_service_ns(p, req(0, 0, 100, 4), 0));  // same local block
  }
}

TEST(DeviceTest, EnergySumsTheSleds) {
  const DeviceParams p = g2(2);
  auto d = fcfs_device(p);
  const Lbn per_sled = d->blocks() / 2;
  d->submit(req(1, 0, 1'000, 16));
  d->submit(req(2, 50'000'000, per_sled + 2'000'000, 16));
  Collector c;
  d->drain(c.sink());
  const Ns until = 300'000'000;
  const EnergyReport total = d->energy(until);
  const EnergyReport e0 = d->mechanism(0).energy(until);
  const EnergyReport e1 = d->mechanism(1).energy(until);
  Ns time = 0;
  for (int i = 0; i < kPowerStates; ++i) {
    EXPECT_EQ(total.time_ns[i], e0.time_ns[i] + e1.time_ns[i]) << i;
    EXPECT_DOUBLE_EQ(total.energy_j[i], e0.energy_j[i] + e1.energy_j[i]) << i;
    time += total.time_ns[i];
  }
  EXPECT_EQ(total.startups, 2);
  EXPECT_EQ(time, 2 * until);
  EXPECT_GT(e1.total_j(), 0.0);
}

// Feeds `requests` as memsim does: before submitting each, runs up to just
// before its arrival.
std::vector<Completion> run(Device& d, const std::vector<Request>& requests) {
  Collector c;
  for (const Request& r : requests) {
    d.run_until(r.arrival_ns - 1, c.sink());
    d.submit(r);
  }
  d.drain(c.sink());
  return c.out;
}

TEST(DeviceTest, IdenticalDevicesFedTheSameRequestsCompleteIdentically) {
  std::mt19937_64 rng(1234);
  std::exponential_distribution<double> gap_ns(1.0 / 600'000);  // mean 0.6 ms
  std::uniform_int_distribution<Lbn> lbn(0, 6'750'000 - 64);
  std::uniform_int_distribution<std::int32_t> blocks(1, 64);
  std::vector<Request> requests;
  Ns t = 0;
  for (std::uint64_t id = 0; id < 2000; ++id) {
    t += static_cast<Ns>(gap_ns(rng));
    requests.push_back(req(id, t, lbn(rng), blocks(rng)));
  }
  for (const std::string& name : scheduler_names()) {
    SCOPED_TRACE(name);
    auto a = make_mems_device(g2(), name);
    auto b = make_mems_device(g2(), name);
    const std::vector<Completion> ca = run(*a, requests);
    const std::vector<Completion> cb = run(*b, requests);
    ASSERT_EQ(ca.size(), requests.size());
    ASSERT_EQ(cb.size(), requests.size());
    for (std::size_t i = 0; i < ca.size(); ++i) {
      ASSERT_EQ(ca[i].request.id, cb[i].request.id) << i;
      ASSERT_EQ(ca[i].start_ns, cb[i].start_ns) << i;
      ASSERT_EQ(ca[i].done_ns, cb[i].done_ns) << i;
      ASSERT_GE(ca[i].start_ns, ca[i].request.arrival_ns) << i;
    }
  }
}

}  // namespace
}  // namespace memstore::model
