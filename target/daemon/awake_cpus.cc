// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/awake_cpus.h"

#include <pthread.h>
#include <sched.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace memstore::daemon {

namespace {

// Lets a sibling hyperthread run and saves power while spinning.
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

}  // namespace

AwakeCpus::AwakeCpus(unsigned count) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  for (int cpu = 0; cpu < CPU_SETSIZE && threads_.size() < count; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) threads_.emplace_back([this, cpu] { spin(cpu); });
  }
  while (settled_.load() < threads_.size()) std::this_thread::yield();
}

AwakeCpus::~AwakeCpus() {
  stop_.store(true);
  for (std::thread& t : threads_) t.join();
}

void AwakeCpus::spin(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  const sched_param idle{};  // SCHED_IDLE takes priority 0
  if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0 ||
      pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle) != 0) {
    settled_.fetch_add(1);
    return;  // a spinner at normal priority would take the CPU from others
  }
  running_.fetch_add(1);
  settled_.fetch_add(1);
  while (!stop_.load(std::memory_order_relaxed)) relax();
  running_.fetch_sub(1);
}

}  // namespace memstore::daemon
