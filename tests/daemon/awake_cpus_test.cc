// SPDX-License-Identifier: Apache-2.0
// AwakeCpus ([daemon] awake_cpus): its spinners run at SCHED_IDLE, one per
// CPU the process may use at most, and are gone once it is destroyed.
#include "target/daemon/awake_cpus.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sched.h>

#include <string>

namespace memstore::daemon {
namespace {

// Threads of this process under SCHED_IDLE, from /proc/self/task.
unsigned idle_threads() {
  unsigned n = 0;
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return 0;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    if (sched_getscheduler(std::stoi(e->d_name)) == SCHED_IDLE) ++n;
  }
  closedir(d);
  return n;
}

unsigned allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? static_cast<unsigned>(CPU_COUNT(&set)) : 0;
}

TEST(AwakeCpus, SpinsAtTheLowestPriorityOnAtMostTheAllowedCpus) {
  const unsigned before = idle_threads();
  {
    AwakeCpus awake(2);
    EXPECT_EQ(awake.running(), std::min(2u, allowed_cpus()));
    EXPECT_EQ(idle_threads(), before + awake.running());
  }
  EXPECT_EQ(idle_threads(), before);  // joined: no spinner is left behind
}

TEST(AwakeCpus, AskingForMoreCpusThanThereAreSpinsOnEachOnce) {
  AwakeCpus awake(100000);
  EXPECT_EQ(awake.running(), allowed_cpus());
}

TEST(AwakeCpus, NoneAskedNoneStarted) {
  AwakeCpus awake(0);
  EXPECT_EQ(awake.running(), 0u);
}

}  // namespace
}  // namespace memstore::daemon
