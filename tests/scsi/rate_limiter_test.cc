// SPDX-License-Identifier: Apache-2.0
// The log rate limiter (target/scsi/rate_limiter.h) and the control page
// access rule (target/scsi/control_access.h), with a fake clock.
#include "target/scsi/rate_limiter.h"

#include <gtest/gtest.h>

#include "target/scsi/control_access.h"
#include "target/scsi/log_sink.h"

namespace memstore::scsi {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

TEST(RateLimiter, LetsNPerWindowThroughThenCountsTheRest) {
  RateLimiter limit(3);
  for (int i = 0; i < 3; ++i) {
    const auto v = limit.admit(100 + i);
    EXPECT_TRUE(v.log);
    EXPECT_EQ(v.suppressed, 0u);
  }
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(limit.admit(200 + i).log);
  EXPECT_EQ(limit.pending_suppressed(), 5u);
  // Still inside the window that opened at 100 ns.
  EXPECT_FALSE(limit.admit(100 + kSecond - 1).log);
  // The first line of the next window reports what was dropped, once.
  const auto next = limit.admit(100 + kSecond);
  EXPECT_TRUE(next.log);
  EXPECT_EQ(next.suppressed, 6u);
  EXPECT_EQ(limit.pending_suppressed(), 0u);
  EXPECT_EQ(limit.admit(100 + kSecond + 1).suppressed, 0u);
}

TEST(RateLimiter, AQuietSpellOpensAFreshWindow) {
  RateLimiter limit(1, 10);
  EXPECT_TRUE(limit.admit(0).log);
  EXPECT_FALSE(limit.admit(5).log);
  const auto later = limit.admit(1'000'000);
  EXPECT_TRUE(later.log);
  EXPECT_EQ(later.suppressed, 1u);
  EXPECT_FALSE(limit.admit(1'000'005).log);
}

TEST(RateLimiter, AFloodCostsAtMostNLinesPerWindow) {
  RateLimiter limit(10);
  int logged = 0;
  std::uint64_t reported = 0;
  for (std::int64_t t = 0; t < 5 * kSecond; t += 100'000) {  // 50,000 events in 5 s
    const auto v = limit.admit(t);
    logged += v.log ? 1 : 0;
    reported += v.suppressed;
  }
  EXPECT_EQ(logged, 50);
  EXPECT_EQ(reported + limit.pending_suppressed() + static_cast<std::uint64_t>(logged), 50'000u);
}

TEST(RateLimiter, ZeroArgumentsAreRaisedToOne) {
  RateLimiter limit(0, 0);
  EXPECT_TRUE(limit.admit(0).log);
  EXPECT_FALSE(limit.admit(0).log);
  EXPECT_TRUE(limit.admit(1).log);
}

TEST(ControlAccess, NamedPortsByNameUnnamedByFlag) {
  ControlAccess a;
  a.initiators = {"iqn.2026-11.org.example:admin"};
  EXPECT_TRUE(a.allows(InitiatorPort::named("iqn.2026-11.org.example:admin,i,0x023d00000001")));
  EXPECT_TRUE(a.allows(InitiatorPort::named("IQN.2026-11.Org.Example:Admin,i,0x1")));
  EXPECT_TRUE(a.allows(InitiatorPort::named("iqn.2026-11.org.example:admin")));
  EXPECT_FALSE(a.allows(InitiatorPort::named("iqn.2026-11.org.example:admin2,i,0x1")));
  EXPECT_FALSE(a.allows(InitiatorPort::named("iqn.2026-11.org.example:adm,i,0x1")));
  EXPECT_FALSE(a.allows(InitiatorPort::named(",i,0x023d00000001")));  // no name at all
  EXPECT_FALSE(a.allows(InitiatorPort::anonymous(5)));
  a.unnamed = true;
  EXPECT_TRUE(a.allows(InitiatorPort::anonymous(5)));
  EXPECT_FALSE(ControlAccess{}.allows(InitiatorPort::named("iqn.2026-11.org.example:admin")));
}

TEST(Loggable, EscapesWhatCouldForgeALineAndCuts) {
  EXPECT_EQ(loggable("iqn.2026-11.org.example:a"), "iqn.2026-11.org.example:a");
  EXPECT_EQ(loggable("evil\nWARN forged"), "evil\\x0aWARN forged");
  EXPECT_EQ(loggable("back\\slash\x7f"), "back\\x5cslash\\x7f");
  EXPECT_EQ(loggable(std::string(300, 'a'), 4), "aaaa...");
}

}  // namespace
}  // namespace memstore::scsi
