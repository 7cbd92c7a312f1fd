// SPDX-License-Identifier: Apache-2.0
// Keeps CPUs from halting while memstored runs ([daemon] awake_cpus).
//
// On a virtual machine an idle vCPU halts, and the host deschedules it: the
// timer or packet that wakes a delivery thread then waits for the host to run
// that vCPU again, tens of microseconds to milliseconds later, whatever the
// thread's priority (docs/benchmarks/log/2026-11-27.md, "Idle vCPUs"). A
// spinner at the
// lowest priority there is (SCHED_IDLE) keeps its CPU running without taking
// it from anything else: every other thread preempts it at once. It costs that
// CPU's power, and the host sees the VM busy; so it is off by default.
#pragma once

#include <atomic>
#include <thread>
#include <vector>

namespace memstore::daemon {

class AwakeCpus {
 public:
  // Starts one spinner on each of the first `count` CPUs this process may run
  // on (fewer when it may run on fewer), and returns once each one spins or
  // has given up: one that cannot be pinned or put at SCHED_IDLE stops at
  // once. running() says how many spin.
  explicit AwakeCpus(unsigned count);
  ~AwakeCpus();
  AwakeCpus(const AwakeCpus&) = delete;
  AwakeCpus& operator=(const AwakeCpus&) = delete;

  unsigned running() const { return running_.load(); }

 private:
  void spin(int cpu);

  std::atomic<bool> stop_{false};
  std::atomic<unsigned> running_{0};
  std::atomic<unsigned> settled_{0};  // spinners past their setup, spinning or not
  std::vector<std::thread> threads_;
};

}  // namespace memstore::daemon
