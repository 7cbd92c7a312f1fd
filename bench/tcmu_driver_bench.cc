// SPDX-License-Identifier: Apache-2.0
// The TCMU handler's ThreadedLunDriver natively (no tcmu-runner, no VM):
// how late realtime completions are delivered with 1..32 concurrent callers
// (tcmu-runner workers), and what one command costs in off mode. Figures in
// docs/benchmarks.md; the VM test measures the same path under QEMU TCG.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "model/geometry.h"
#include "target/scsi/memory_store.h"
#include "target/tcmu/threaded_driver.h"

namespace {

using memstore::tcmu::ThreadedLunDriver;
namespace scsi = memstore::scsi;

std::unique_ptr<ThreadedLunDriver> make_driver(scsi::TimingMode mode) {
  scsi::LunConfig config;
  config.timing.mode = mode;
  const memstore::model::Geometry g(config.device);
  auto store = scsi::MemoryStore::create(static_cast<std::uint64_t>(g.blocks()), 512);
  auto lun = scsi::Lun::create(std::move(config), std::move(store.value()));
  return std::make_unique<ThreadedLunDriver>(std::move(lun).value());
}

std::vector<std::uint8_t> read10(std::uint32_t lba) {
  return {0x28,
          0,
          static_cast<std::uint8_t>(lba >> 24),
          static_cast<std::uint8_t>(lba >> 16),
          static_cast<std::uint8_t>(lba >> 8),
          static_cast<std::uint8_t>(lba),
          0,
          0,
          8,
          0};
}

// Each of state.range(0) callers issues 8-block reads at pseudo-random LBAs
// back to back for 0.5 s of modeled (= wall) time; the LUN thread polls for
// the last state.range(1) µs before each instant (set_spin; 0: it sleeps
// until its timer).
void BM_RealtimeLateness(benchmark::State& state) {
  const int callers = static_cast<int>(state.range(0));
  for (auto _ : state) {
    auto d = make_driver(scsi::TimingMode::kRealtime);
    d->set_spin(std::chrono::microseconds(state.range(1)));
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(callers));
    for (int t = 0; t < callers; ++t) {
      threads.emplace_back([&, t] {
        std::uint64_t x = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(t + 1);
        while (!stop.load()) {
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          benchmark::DoNotOptimize(d->execute(
              {.cdb = read10(static_cast<std::uint32_t>((x >> 33) % 6'749'000)), .data_out = {}}));
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stop = true;
    for (auto& th : threads) th.join();
    const auto late = d->lateness();
    state.counters["completions"] = static_cast<double>(late.count);
    state.counters["late_mean_us"] = late.mean_ns() / 1000.0;
    state.counters["late_max_us"] = static_cast<double>(late.max_ns) / 1000.0;
    // The caller's wake-up after that: on top of the lateness above.
    state.counters["handback_mean_us"] = d->handback().mean_ns() / 1000.0;
  }
}
BENCHMARK(BM_RealtimeLateness)
    ->ArgNames({"callers", "spin_us"})
    ->Args({1, 0})
    ->Args({8, 0})
    ->Args({32, 0})
    ->Args({1, 100})
    ->Args({8, 100})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// One 8-block read in off mode: the driver's own cost per command.
void BM_OffModeCommand(benchmark::State& state) {
  auto d = make_driver(scsi::TimingMode::kOff);
  std::uint32_t lba = 0;
  for (auto _ : state) {
    lba = (lba + 104'729) % 6'749'000;
    benchmark::DoNotOptimize(d->execute({.cdb = read10(lba), .data_out = {}}));
  }
}
BENCHMARK(BM_OffModeCommand);

}  // namespace

BENCHMARK_MAIN();
