// SPDX-License-Identifier: Apache-2.0
// Targets added to and removed from a running server
// (Server::add_running_target, remove_running_target; the control socket's
// target-add and target-remove): an added target serves on its own portal
// or on one it shares; a removed one ends its sessions, refuses logins,
// stops listening on the portals only it used and hands back its LUNs,
// while the other target goes on serving.
#include <gtest/gtest.h>

#include <future>
#include <optional>

#include "tests/error_text.h"
#include "tests/iscsi/loopback_target.h"

namespace memstore::iscsi {
namespace {

constexpr char kSecond[] = "iqn.2026-11.org.memstore.test:second";

class TargetRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(target_.start(testing::memory_lun()), ""); }

  // Runs `f` on the target's thread, where the server lives, and waits.
  template <class F>
  auto on_target(F f) {
    std::packaged_task<decltype(f())()> task(std::move(f));
    auto result = task.get_future();
    boost::asio::post(target_.io(), [&task] { task(); });
    return result.get();
  }
  TargetSetup second(std::uint16_t port) {
    TargetSetup t;
    t.name = kSecond;
    t.portals = {{"127.0.0.1", port}};
    t.luns[0] = std::make_unique<driver::TimedLun>(target_.io(), testing::memory_lun());
    return t;
  }
  // A READ(16) of 4 KiB on LUN 0: its status, or -1 if the connection ended.
  static int read(testing::RawInitiator& c, std::uint32_t itt) {
    c.send(c.read16(itt, itt, 0, 4096));
    for (;;) {
      auto r = c.receive();
      if (!r) return -1;
      if (const auto* d = std::get_if<DataInPdu>(&r->first); d != nullptr && d->has_status)
        return d->status;
      if (const auto* s = std::get_if<ScsiResponsePdu>(&r->first)) return s->status;
    }
  }

  testing::LoopbackTarget target_;
};

TEST_F(TargetRuntimeTest, AnAddedTargetServesOnItsOwnPortal) {
  ASSERT_EQ(on_target([this] {
              TargetSetup t = second(0);
              return memstore::testing::error_text(target_.server().add_running_target(t));
            }),
            "");
  const auto ports = on_target([this] { return target_.server().bound_ports(); });
  ASSERT_EQ(ports.size(), 2U);
  EXPECT_NE(ports[1], ports[0]);
  testing::RawInitiator c(ports[1]);
  ASSERT_TRUE(c.login(false, false, kSecond));
  EXPECT_EQ(read(c, 1), 0);
}

TEST_F(TargetRuntimeTest, TargetsShareAPortal) {
  const std::uint16_t first = target_.port();
  ASSERT_EQ(on_target([&] {
              TargetSetup t = second(first);
              return memstore::testing::error_text(target_.server().add_running_target(t));
            }),
            "");
  testing::RawInitiator to_second(first);
  ASSERT_TRUE(to_second.login(false, false, kSecond));
  EXPECT_EQ(read(to_second, 1), 0);
  testing::RawInitiator to_first(first, 3);
  ASSERT_TRUE(to_first.login(false));
  EXPECT_EQ(read(to_first, 1), 0);
}

TEST_F(TargetRuntimeTest, ANameServedAlreadyIsRefused) {
  const std::string e = on_target([this] {
    TargetSetup t = second(0);
    t.name = testing::kRawTarget;
    return memstore::testing::error_text(target_.server().add_running_target(t));
  });
  EXPECT_EQ(e, std::string("name: target '") + testing::kRawTarget +
                   "' is served already; remove it first");
}

TEST_F(TargetRuntimeTest, APortalThatCannotBeBoundRefusesTheTargetAndLeavesItsLuns) {
  // Another socket holds the port, without SO_REUSEADDR's leniency: listening.
  boost::asio::io_context other;
  boost::asio::ip::tcp::acceptor holder(
      other, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  const std::uint16_t taken = holder.local_endpoint().port();
  const auto [error, luns_left] = on_target([&] {
    TargetSetup t = second(taken);
    std::string e = memstore::testing::error_text(target_.server().add_running_target(t));
    return std::pair{e, t.luns.size()};
  });
  EXPECT_EQ(error, "portal 127.0.0.1:" + std::to_string(taken) + ": Address already in use");
  EXPECT_EQ(luns_left, 1U);  // still the caller's, to close
  EXPECT_EQ(on_target([this] { return target_.server().bound_ports().size(); }), 1U);
}

TEST_F(TargetRuntimeTest, ARemovedTargetEndsItsSessionsAndStopsListening) {
  ASSERT_EQ(on_target([this] {
              TargetSetup t = second(0);
              return memstore::testing::error_text(target_.server().add_running_target(t));
            }),
            "");
  const std::uint16_t port = on_target([this] { return target_.server().bound_ports().at(1); });
  testing::RawInitiator c(port);
  ASSERT_TRUE(c.login(false, false, kSecond));
  ASSERT_EQ(read(c, 1), 0);

  std::promise<std::unique_ptr<driver::TimedLun>> handed_back;
  ASSERT_EQ(on_target([&] {
              return memstore::testing::error_text(target_.server().remove_running_target(
                  kSecond, [&](std::unique_ptr<driver::TimedLun> d) {
                    handed_back.set_value(std::move(d));
                  }));
            }),
            "");
  // Its session ends, and its LUN comes back to be retired.
  EXPECT_FALSE(c.receive().has_value());
  auto driver = handed_back.get_future().get();
  ASSERT_NE(driver, nullptr);
  // Retired, then destroyed in a later handler, on its own loop.
  on_target([&] {
    EXPECT_TRUE(driver->retire().ok());
    return 0;
  });
  on_target([&] {
    driver.reset();
    return 0;
  });
  // Its own portal no longer listens.
  EXPECT_THROW(testing::RawInitiator{port}, boost::system::system_error);
  // A login by name to it, on the first target's portal, fails.
  testing::RawInitiator again(target_.port(), 4);
  EXPECT_FALSE(again.login(false, false, kSecond));
  // The first target serves on.
  testing::RawInitiator first(target_.port(), 5);
  ASSERT_TRUE(first.login(false));
  EXPECT_EQ(read(first, 1), 0);
  EXPECT_EQ(on_target([this] { return target_.server().bound_ports().size(); }), 1U);
}

}  // namespace
}  // namespace memstore::iscsi
