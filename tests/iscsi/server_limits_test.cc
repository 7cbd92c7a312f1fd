// SPDX-License-Identifier: Apache-2.0
// The server's limits and session reinstatement on real loopback sockets
// (docs/memstored.md, "Limits"): too many connections, a connection that
// never logs in, too many sessions of one initiator, an initiator that
// does not read its responses, and an initiator that logs in again after
// losing its connection.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <chrono>

#include "tests/iscsi/loopback_target.h"

namespace memstore::iscsi {
namespace {

namespace asio = boost::asio;
using Client = testing::RawInitiator;

class ServerLimitsTest : public ::testing::Test {
 protected:
  void start(const ServerLimits& limits) {
    target_.server().set_limits(limits);
    ASSERT_EQ(target_.start(testing::memory_lun()), "");
    port_ = target_.port();
  }
  void TearDown() override { target_.stop(); }

  static bool answers_ping(Client& c, std::uint32_t cmd_sn) {
    NopOutPdu ping;
    ping.itt = 9;
    ping.immediate = true;
    ping.cmd_sn = cmd_sn;
    c.send(encode(InitiatorPdu{ping}));
    auto r = c.receive();
    return r.has_value() && std::holds_alternative<NopInPdu>(r->first);
  }

  testing::LoopbackTarget target_;
  std::uint16_t port_ = 0;
};

TEST_F(ServerLimitsTest, ALoginWithTheSameIsidReplacesTheOlderSession) {
  start({});
  Client old_session(port_, 7);
  ASSERT_TRUE(old_session.login(false));
  // The initiator lost its connection without the target noticing, and
  // logs in again with the same ISID and TSIH 0 (RFC 7143 §6.3.5).
  Client again(port_, 7);
  ASSERT_TRUE(again.login(false));
  EXPECT_TRUE(old_session.closed_by_target());
  EXPECT_TRUE(answers_ping(again, 1));
}

TEST_F(ServerLimitsTest, ConnectionsBeyondTheLimitAreClosedAtOnce) {
  ServerLimits limits;
  limits.max_connections = 2;
  start(limits);
  Client a(port_, 1);
  Client b(port_, 2);
  ASSERT_TRUE(a.login(false));
  ASSERT_TRUE(b.login(false));
  Client c(port_, 3);
  EXPECT_TRUE(c.closed_by_target());
  EXPECT_TRUE(answers_ping(a, 1));
  // One leaves: room again.
  a.socket.close();
  bool served = false;
  for (int i = 0; i < 50 && !served; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Client d(port_, 4);
    served = d.login(false);
  }
  EXPECT_TRUE(served);
}

TEST_F(ServerLimitsTest, AConnectionThatNeverLogsInIsClosedAfterTheLoginTimeout) {
  ServerLimits limits;
  limits.connection.login_timeout = std::chrono::seconds(1);
  start(limits);
  const auto began = std::chrono::steady_clock::now();
  Client idle(port_, 1);
  Client working(port_, 2);
  ASSERT_TRUE(working.login(false));
  EXPECT_TRUE(idle.closed_by_target());
  const auto waited = std::chrono::steady_clock::now() - began;
  EXPECT_GE(waited, std::chrono::milliseconds(900));
  EXPECT_LT(waited, std::chrono::seconds(5));
  // The logged-in one outlives the deadline.
  EXPECT_TRUE(answers_ping(working, 1));
}

TEST_F(ServerLimitsTest, AnInitiatorGetsNoMoreSessionsThanItsLimit) {
  ServerLimits limits;
  limits.max_sessions_per_initiator = 1;
  start(limits);
  Client first(port_, 1);
  ASSERT_TRUE(first.login(false));
  Client second(port_, 2);  // another ISID: not a reinstatement
  EXPECT_FALSE(second.login(false));
  EXPECT_TRUE(answers_ping(first, 1));
}

TEST_F(ServerLimitsTest, AnInitiatorThatDoesNotReadIsNotReadEitherAndLosesNothing) {
  ServerLimits limits;
  limits.connection.max_output_bytes = 64 * 1024;
  start(limits);
  Client c(port_, 1);
  ASSERT_TRUE(c.login(false));
  // 48 READs of 32 KiB, 1.5 MiB of responses, before reading any: the
  // target stops reading after the first few, and goes on once the
  // initiator reads.
  constexpr std::uint32_t kCommands = 48;
  for (std::uint32_t i = 0; i < kCommands; ++i) c.send(c.read16(100 + i, 1 + i, 0, 32 * 1024));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::uint32_t done = 0;
  while (done < kCommands) {
    auto r = c.receive();
    ASSERT_TRUE(r.has_value()) << "after " << done << " responses";
    if (const auto* in = std::get_if<DataInPdu>(&r->first); in != nullptr && in->has_status) {
      EXPECT_EQ(in->status, 0);
      ++done;
    }
  }
  EXPECT_TRUE(answers_ping(c, 1 + kCommands));
}

}  // namespace
}  // namespace memstore::iscsi
