// The server's framing against a hostile initiator on a real loopback
// socket: corrupt digests and oversized data segments get the RFC 7143
// answer, and the daemon keeps serving the next initiator.
#include <gtest/gtest.h>

#include <boost/asio.hpp>

#include "tests/iscsi/loopback_target.h"

namespace memstore::iscsi {
namespace {

namespace asio = boost::asio;

// A memstored-like server on 127.0.0.1:0 with one G2 LUN, on its own thread.
class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(target_.start(testing::memory_lun()), "");
    port_ = target_.port();
  }
  void TearDown() override { target_.stop(); }

  using Client = testing::RawInitiator;

  // After any hostile client, a well-behaved one logs in and gets an answer.
  void expect_still_serving() {
    Client c(port_);
    ASSERT_TRUE(c.login(false));
    NopOutPdu ping;
    ping.itt = 9;
    ping.immediate = true;
    ping.cmd_sn = 1;
    c.send(encode(InitiatorPdu{ping}));
    auto r = c.receive();
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(std::holds_alternative<NopInPdu>(r->first));
  }

  testing::LoopbackTarget target_;
  std::uint16_t port_ = 0;
};

TEST_F(ServerTest, DataDigestErrorGetsARejectAndTheConnectionLives) {
  Client c(port_);
  ASSERT_TRUE(c.login(true));
  c.send(c.write10(1, 1, 512), std::vector<std::uint8_t>(512, 0xAB), false, /*corrupt_data=*/true);
  auto r = c.receive();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(std::holds_alternative<RejectPdu>(r->first));
  const RejectPdu reject = std::get<RejectPdu>(r->first);
  EXPECT_EQ(reject.reason, RejectReason::kDataDigestError);  // RFC 7143 §11.17.1
  ASSERT_EQ(r->second.size(), kBhsSize);
  EXPECT_EQ(r->second[0] & 0x3F, 0x01);  // the rejected SCSI Command's header
  // The initiator retries the command (new CmdSN, §7.8) and it completes.
  c.send(c.write10(2, 2, 512), std::vector<std::uint8_t>(512, 0xAB));
  r = c.receive();
  ASSERT_TRUE(r.has_value());
  const auto* resp = std::get_if<ScsiResponsePdu>(&r->first);
  ASSERT_NE(resp, nullptr);
  EXPECT_EQ(resp->status, 0);
  EXPECT_EQ(resp->sn.stat_sn, reject.sn.stat_sn + 1);
}

// Data-In segments go out from the READ's buffer in place: with digests on,
// their data digest (checked by receive()) covers those bytes, and they are
// the bytes written.
TEST_F(ServerTest, ReadDataInCarriesTheWrittenDataAndItsDigest) {
  Client c(port_);
  ASSERT_TRUE(c.login(true));
  std::vector<std::uint8_t> data(4096);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7);
  c.send(c.write10(1, 1, 4096, 64), data);
  auto r = c.receive();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(std::holds_alternative<ScsiResponsePdu>(r->first));
  c.send(c.read16(2, 2, 64, 4096));
  std::vector<std::uint8_t> got;
  bool status = false;
  while (!status) {
    r = c.receive();
    ASSERT_TRUE(r.has_value()) << "a PDU failed its digest or the connection ended";
    const auto* in = std::get_if<DataInPdu>(&r->first);
    ASSERT_NE(in, nullptr);
    EXPECT_EQ(in->buffer_offset, got.size());
    got.insert(got.end(), r->second.begin(), r->second.end());
    status = in->has_status;
  }
  EXPECT_EQ(got, data);
}

TEST_F(ServerTest, HeaderDigestErrorEndsTheConnection) {
  Client c(port_);
  ASSERT_TRUE(c.login(true));
  c.send(c.write10(1, 1, 512), std::vector<std::uint8_t>(512, 0), /*corrupt_header=*/true);
  // The framing can no longer be trusted (RFC 7143 §7.8): the connection ends.
  EXPECT_TRUE(c.closed_by_target());
  expect_still_serving();
}

TEST_F(ServerTest, OversizedDataSegmentIsRejectedAndEndsTheConnection) {
  Client c(port_);
  ASSERT_TRUE(c.login(false));
  // More than our MaxRecvDataSegmentLength (262144) in one PDU (§13.12).
  Bhs bhs = c.write10(1, 1, 512);
  const std::uint32_t len = 1U << 20;
  bhs[5] = static_cast<std::uint8_t>(len >> 16);
  bhs[6] = static_cast<std::uint8_t>(len >> 8);
  bhs[7] = static_cast<std::uint8_t>(len);
  asio::write(c.socket, asio::buffer(bhs));
  auto r = c.receive();
  ASSERT_TRUE(r.has_value());
  const auto* reject = std::get_if<RejectPdu>(&r->first);
  ASSERT_NE(reject, nullptr);
  EXPECT_EQ(reject->reason, RejectReason::kProtocolError);
  EXPECT_TRUE(c.closed_by_target());
  expect_still_serving();
}

TEST_F(ServerTest, GarbageBeforeLoginEndsTheConnection) {
  Client c(port_);
  Bhs junk;
  junk.fill(0xEE);
  junk[5] = junk[6] = junk[7] = 0;
  junk[4] = 0;
  asio::write(c.socket, asio::buffer(junk));
  // Whatever the target answers (a Reject), the connection ends.
  while (c.receive().has_value()) {
  }
  expect_still_serving();
}

}  // namespace
}  // namespace memstore::iscsi

namespace memstore::iscsi {
namespace {

// With NOP-In pings every second, an initiator that never answers them is
// disconnected after the second ping finds the first unanswered.
class PingServerTest : public ServerTest {
 protected:
  void SetUp() override {
    target_.server().set_nop_in_interval(std::chrono::seconds(1));
    ServerTest::SetUp();
  }
};

TEST_F(PingServerTest, SilentInitiatorIsDisconnected) {
  testing::RawInitiator c(port_);
  ASSERT_TRUE(c.login(false));
  const auto start = std::chrono::steady_clock::now();
  auto r = c.receive();
  ASSERT_TRUE(r.has_value());
  const auto* ping = std::get_if<NopInPdu>(&r->first);
  ASSERT_NE(ping, nullptr);
  EXPECT_EQ(ping->itt, kReservedTag);
  EXPECT_TRUE(c.closed_by_target());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(900));
}

}  // namespace
}  // namespace memstore::iscsi

namespace memstore::iscsi {
namespace {

// Two event loops, each on its own thread, as memstored runs with
// --threads 2: the LUN lives on the second loop; connections are spread
// over both, so one session reaches the LUN directly and the other through
// a LunLink that posts across threads. Each writes its own blocks and reads
// them back, several times, with digests on; both see their own data.
TEST(TwoLoopServer, SessionsOnEitherLoopReachALunOnTheOther) {
  boost::asio::io_context server_loop, lun_loop;
  auto guard_a = boost::asio::make_work_guard(server_loop);
  auto guard_b = boost::asio::make_work_guard(lun_loop);
  Server server(server_loop);
  server.set_loops({&server_loop, &lun_loop});
  TargetSetup t;
  t.name = testing::kRawTarget;
  t.portals = {{"127.0.0.1", 0}};
  t.luns[0] = std::make_unique<LunDriver>(lun_loop, testing::memory_lun());
  server.add_target(std::move(t));
  ASSERT_EQ(server.start(), "");
  const std::uint16_t port = server.bound_ports().at(0);
  std::thread a([&] { server_loop.run(); });
  std::thread b([&] { lun_loop.run(); });

  auto session = [port](std::uint8_t seed, std::uint32_t lba, int rounds) {
    testing::RawInitiator c(port, seed);
    if (!c.login(true)) return std::string("login failed");
    std::uint32_t itt = 1;
    for (int round = 0; round < rounds; ++round) {
      std::vector<std::uint8_t> data(4096);
      for (std::size_t i = 0; i < data.size(); ++i) {
        data[i] = static_cast<std::uint8_t>(i * seed + static_cast<std::size_t>(round));
      }
      c.send(c.write10(itt, itt, 4096, lba), data);
      ++itt;
      auto r = c.receive();
      if (!r || !std::holds_alternative<ScsiResponsePdu>(r->first)) return std::string("write");
      c.send(c.read16(itt, itt, lba, 4096));
      ++itt;
      std::vector<std::uint8_t> got;
      for (bool status = false; !status;) {
        r = c.receive();
        if (!r) return std::string("read: connection ended");
        const auto* in = std::get_if<DataInPdu>(&r->first);
        if (in == nullptr) return std::string("read: not Data-In");
        got.insert(got.end(), r->second.begin(), r->second.end());
        status = in->has_status;
      }
      if (got != data) return "round " + std::to_string(round) + ": wrong data";
    }
    return std::string();
  };
  std::string first, second;
  std::thread s1([&] { first = session(3, 64, 50); });
  std::thread s2([&] { second = session(5, 4096, 50); });
  s1.join();
  s2.join();
  EXPECT_EQ(first, "");
  EXPECT_EQ(second, "");

  boost::asio::post(server_loop, [&] { server.stop(); });
  for (int i = 0; i < 500 && server.connections() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(server.connections(), 0U);
  guard_a.reset();
  guard_b.reset();
  a.join();
  b.join();
}

// An injected "corrupt-digest" fault (docs/faults.md): the READ's Data-In
// goes out with a wrong data digest, which the initiator must detect; the
// rule fired once, so the same READ on a new connection is intact.
TEST(ServerFaultTest, CorruptDigestSpoilsTheResponsesDataDigest) {
  testing::LoopbackTarget target;
  ASSERT_EQ(target.start(testing::memory_lun_with_read_fault(scsi::FaultAction::kCorruptDigest)),
            "");
  {
    testing::RawInitiator c(target.port());
    ASSERT_TRUE(c.login(true));
    c.send(c.read16(1, 1, 0, 512));
    EXPECT_FALSE(c.receive().has_value()) << "the Data-In passed its digest check";
  }
  testing::RawInitiator c(target.port(), 3);
  ASSERT_TRUE(c.login(true));
  c.send(c.read16(1, 1, 0, 512));
  const auto r = c.receive();
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(std::holds_alternative<DataInPdu>(r->first));
  target.stop();
}

}  // namespace
}  // namespace memstore::iscsi
