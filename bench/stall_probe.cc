// SPDX-License-Identifier: Apache-2.0
// stall-probe: how long a thread that never sleeps goes without running.
//
// One thread per CPU given, pinned there, at SCHED_FIFO when --rt-priority is
// set, reads CLOCK_MONOTONIC in a tight loop and records every gap between two
// reads longer than --threshold-us. A gap is time the thread did not run: the
// kernel ran something else there (which SCHED_FIFO rules out but for
// interrupts and the kernel's own non-preemptible work) or the CPU itself did
// not run (a virtual machine's vCPU descheduled by its host). Gaps that start
// within a millisecond of each other on different CPUs are the second kind:
// the whole machine stopped. The realtime benchmarks' deliveries can be no
// more punctual than this (docs/benchmarks.md, "Stalls of the machine").
//
// Prints one JSON object: per CPU the gap count, total, largest and the
// intervals between gap starts; the gaps seen on every CPU at once; and the
// host's steal time over the run from /proc/stat (summed over all CPUs).
//
// A SCHED_FIFO thread that never sleeps is throttled by the kernel's real-time
// bandwidth limit (kernel.sched_rt_runtime_us, 0.95 s in every 1 s by
// default): runs longer than 0.9 s would see that limit as a gap, so
// --seconds is capped at 0.9 with --rt-priority, and the rounds --rounds
// repeats are --pause-s apart, long enough (default 0.5 s) that the kernel's
// reserve for ordinary tasks starved by real-time ones (its fair server, 50 ms
// in every second) never needs to run on a probed CPU.
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Gap {
  std::int64_t start_ns;
  std::int64_t length_ns;
};

std::int64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

// The steal field of /proc/stat's "cpu" line, in clock ticks (0 if absent).
std::int64_t steal_ticks() {
  std::ifstream in("/proc/stat");
  std::string line;
  std::getline(in, line);
  std::istringstream fields(line);
  std::string name;
  std::int64_t v = 0;
  fields >> name;
  for (int i = 0; i < 8 && fields >> v; ++i) {
  }
  return v;  // user nice system idle iowait irq softirq steal: the 8th
}

// Spins on `cpu` until `end_ns`, recording gaps longer than `threshold_ns`.
// Returns an empty string on success, else what went wrong.
std::string probe(int cpu, int rt_priority, std::int64_t end_ns, std::int64_t threshold_ns,
                  std::vector<Gap>& gaps) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
    return "cannot pin a thread to CPU " + std::to_string(cpu);
  if (rt_priority > 0) {
    sched_param p{};
    p.sched_priority = rt_priority;
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &p) != 0)
      return "SCHED_FIFO " + std::to_string(rt_priority) + " refused (root or CAP_SYS_NICE needed)";
  }
  std::int64_t last = now_ns();
  while (last < end_ns) {
    const std::int64_t t = now_ns();
    if (t - last > threshold_ns) gaps.push_back({last, t - last});
    last = t;
  }
  return {};
}

nlohmann::json summary(const std::vector<Gap>& gaps, double seconds) {
  std::int64_t total = 0, largest = 0;
  std::vector<double> intervals_ms;
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    total += gaps[i].length_ns;
    largest = std::max(largest, gaps[i].length_ns);
    if (i > 0) intervals_ms.push_back((gaps[i].start_ns - gaps[i - 1].start_ns) / 1e6);
  }
  nlohmann::json j{{"gaps", gaps.size()},
                   {"stalled_ms", total / 1e6},
                   {"stalled_ms_per_s", total / 1e6 / seconds},
                   {"largest_ms", largest / 1e6}};
  if (!intervals_ms.empty()) {
    std::sort(intervals_ms.begin(), intervals_ms.end());
    j["median_interval_ms"] = intervals_ms[intervals_ms.size() / 2];
  }
  return j;
}

// Gaps of CPU 0's list that overlap a gap on every other CPU: the machine stopped.
std::vector<Gap> common(const std::vector<std::vector<Gap>>& per_cpu) {
  std::vector<Gap> out;
  for (const Gap& g : per_cpu[0]) {
    bool everywhere = true;
    for (std::size_t c = 1; c < per_cpu.size() && everywhere; ++c) {
      everywhere = std::any_of(per_cpu[c].begin(), per_cpu[c].end(), [&](const Gap& o) {
        return o.start_ns < g.start_ns + g.length_ns && g.start_ns < o.start_ns + o.length_ns;
      });
    }
    if (everywhere) out.push_back(g);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Spins on each given CPU and reports how long each went without running."};
  std::vector<int> cpus{0};
  double seconds = 0.9;
  int rounds = 1;
  double pause_s = 0.5;
  int rt_priority = 0;
  double threshold_us = 100;
  app.add_option("--cpus", cpus, "CPUs to probe, one spinning thread each")->delimiter(',');
  app.add_option("--seconds", seconds, "length of one round")->check(CLI::Range(0.01, 3600.0));
  app.add_option("--rounds", rounds, "rounds, --pause-s apart")->check(CLI::Range(1, 100000));
  app.add_option("--pause-s", pause_s, "sleep between rounds")->check(CLI::Range(0.0, 60.0));
  app.add_option("--rt-priority", rt_priority, "SCHED_FIFO priority of the spinners (0: none)")
      ->check(CLI::Range(0, 99));
  app.add_option("--threshold-us", threshold_us, "shortest gap recorded")
      ->check(CLI::Range(1.0, 1e6));
  CLI11_PARSE(app, argc, argv);
  if (rt_priority > 0 && seconds > 0.9) {
    std::cerr << "stall-probe: --seconds " << seconds
              << " with --rt-priority: at most 0.9, or the kernel's real-time throttling "
                 "(0.95 s in 1 s) shows as a gap; use --rounds for longer runs\n";
    return 2;
  }
  const auto threshold_ns = static_cast<std::int64_t>(threshold_us * 1e3);
  std::vector<std::vector<Gap>> per_cpu(cpus.size());
  std::vector<Gap> everywhere;
  const std::int64_t steal0 = steal_ticks();
  const std::int64_t start = now_ns();
  for (int r = 0; r < rounds; ++r) {
    if (r > 0) std::this_thread::sleep_for(std::chrono::duration<double>(pause_s));
    const std::int64_t end = now_ns() + static_cast<std::int64_t>(seconds * 1e9);
    std::vector<std::vector<Gap>> round(cpus.size());
    std::vector<std::string> errors(cpus.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      threads.emplace_back(
          [&, i] { errors[i] = probe(cpus[i], rt_priority, end, threshold_ns, round[i]); });
    }
    for (std::thread& t : threads) t.join();
    for (const std::string& e : errors) {
      if (!e.empty()) {
        std::cerr << "stall-probe: " << e << "\n";
        return 1;
      }
    }
    const std::vector<Gap> both = common(round);
    everywhere.insert(everywhere.end(), both.begin(), both.end());
    for (std::size_t i = 0; i < cpus.size(); ++i)
      per_cpu[i].insert(per_cpu[i].end(), round[i].begin(), round[i].end());
  }
  const double wall_s = (now_ns() - start) / 1e9;
  const double probed_s = seconds * rounds;
  nlohmann::json out{
      {"seconds", probed_s},
      {"rounds", rounds},
      {"rt_priority", rt_priority},
      {"threshold_us", threshold_us},
      {"everywhere", summary(everywhere, probed_s)},
      {"steal_ms_per_s_all_cpus", (steal_ticks() - steal0) * 1e3 / sysconf(_SC_CLK_TCK) / wall_s}};
  for (std::size_t i = 0; i < cpus.size(); ++i)
    out["cpus"][std::to_string(cpus[i])] = summary(per_cpu[i], probed_s);
  std::cout << out.dump(2) << "\n";
  return 0;
}
