// SPDX-License-Identifier: Apache-2.0
// The server's framing against a hostile initiator on a real loopback
// socket: corrupt digests and oversized data segments get the RFC 7143
// answer, and the daemon keeps serving the next initiator.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <chrono>
#include <future>
#include <map>
#include <set>
#include <thread>

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

// A LUN's power cut (docs/crash-consistency.md): the target's sessions end,
// logins are refused with 0301h, Service Unavailable (RFC 7143 §11.13.5),
// while the power is off, and succeed again after.
TEST_F(ServerTest, APowerCutEndsTheSessionsAndRefusesLoginsWhileOff) {
  Client c(port_);
  ASSERT_TRUE(c.login(false));
  const auto cut = std::chrono::steady_clock::now();
  target_.server().power_cut(testing::kRawTarget, std::chrono::seconds(3));
  EXPECT_FALSE(c.receive().has_value()) << "the session's connection is aborted";
  Client refused(port_, 3);
  EXPECT_FALSE(refused.login(false));
  EXPECT_EQ(refused.login_status, std::make_pair(std::uint8_t{3}, std::uint8_t{1}));
  std::this_thread::sleep_until(cut + std::chrono::milliseconds(3100));
  expect_still_serving();
}

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
// Solicited data is read from the socket straight into the write's buffer
// (Session::landing): a Data-Out that fails its digest is rejected and
// leaves nothing behind, and the same PDU sent again completes the write.
TEST_F(ServerTest, DataOutDigestErrorIsRejectedAndItsResendIsWritten) {
  Client c(port_);
  ASSERT_TRUE(c.login(true, /*solicited=*/true));
  Bhs cmd = c.write10(1, 1, 1024, 20);
  cmd[5] = cmd[6] = cmd[7] = 0;  // no immediate data: all of it after the R2T
  c.send(cmd);
  auto r = c.receive();
  ASSERT_TRUE(r && std::holds_alternative<R2tPdu>(r->first));
  DataOutPdu d;
  d.final = true;
  d.itt = 1;
  d.ttt = std::get<R2tPdu>(r->first).ttt;
  d.data_segment_length = 1024;
  const std::vector<std::uint8_t> data(1024, 0x5A);
  c.send(encode(InitiatorPdu{d}), std::vector<std::uint8_t>(1024, 0xEE), false,
         /*corrupt_data=*/true);
  r = c.receive();
  ASSERT_TRUE(r && std::holds_alternative<RejectPdu>(r->first));
  EXPECT_EQ(std::get<RejectPdu>(r->first).reason, RejectReason::kDataDigestError);
  c.send(encode(InitiatorPdu{d}), data);
  r = c.receive();
  ASSERT_TRUE(r && std::holds_alternative<ScsiResponsePdu>(r->first));
  EXPECT_EQ(std::get<ScsiResponsePdu>(r->first).status, 0);
  c.send(c.read16(2, 2, 20, 1024));
  r = c.receive();
  ASSERT_TRUE(r && std::holds_alternative<DataInPdu>(r->first));
  EXPECT_EQ(r->second, data);
}

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

// Several PDUs in one TCP segment, or one PDU cut across segments: the
// connection reads ahead (Connection, "Reading several PDUs at once") and
// must find every PDU's end. Writes of 4 KiB (inside one read ahead) and 64
// KiB (longer than it: the rest is read in place), a write whose data digest
// fails among them, and reads of both, all written at once, then again cut
// into pieces of 997 and of 53 bytes (headers cut too) sent apart.
TEST_F(ServerTest, PdusSentTogetherOrCutApartAreEachServed) {
  for (const bool digests : {false, true}) {
    for (const std::size_t cut : {0, 997, 53}) {
      SCOPED_TRACE(std::string(digests ? "digests" : "no digests") + ", cut " +
                   std::to_string(cut));
      Client c(port_, static_cast<std::uint8_t>(10 + 3 * digests + cut % 3));
      ASSERT_TRUE(c.login(digests));
      std::vector<std::uint8_t> small(4096), large(65536);
      for (std::size_t i = 0; i < small.size(); ++i)
        small[i] = static_cast<std::uint8_t>(i * 3 + cut);
      for (std::size_t i = 0; i < large.size(); ++i)
        large[i] = static_cast<std::uint8_t>(i * 5 + digests);
      std::vector<std::uint8_t> all;
      auto add = [&all](const std::vector<std::uint8_t>& pdu) {
        all.insert(all.end(), pdu.begin(), pdu.end());
      };
      add(c.frame(c.write10(1, 1, 4096, 100), small));
      add(c.frame(c.write10(2, 2, 65536, 200), large));
      if (digests) {
        add(c.frame(c.write10(3, 3, 512, 400), std::vector<std::uint8_t>(512, 1), false, true));
      }
      const std::uint32_t sn = digests ? 4 : 3;
      add(c.frame(c.read16(4, sn, 100, 4096)));
      add(c.frame(c.read16(5, sn + 1, 200, 65536)));
      if (cut == 0) {
        asio::write(c.socket, asio::buffer(all));
      } else {
        for (std::size_t at = 0; at < all.size(); at += cut) {
          asio::write(c.socket,
                      asio::buffer(all.data() + at, std::min<std::size_t>(cut, all.size() - at)));
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
      }
      std::map<std::uint32_t, std::vector<std::uint8_t>> read;
      std::set<std::uint32_t> written;
      int rejected = 0, done_reads = 0;
      while (done_reads < 2) {
        auto r = c.receive();
        ASSERT_TRUE(r.has_value()) << "the connection ended or a digest failed";
        if (const auto* in = std::get_if<DataInPdu>(&r->first)) {
          auto& got = read[in->itt];
          EXPECT_EQ(in->buffer_offset, got.size());
          got.insert(got.end(), r->second.begin(), r->second.end());
          done_reads += in->has_status;
        } else if (const auto* resp = std::get_if<ScsiResponsePdu>(&r->first)) {
          EXPECT_EQ(resp->status, 0);
          written.insert(resp->itt);
        } else if (const auto* rej = std::get_if<RejectPdu>(&r->first)) {
          EXPECT_EQ(rej->reason, RejectReason::kDataDigestError);
          ++rejected;
        } else {
          ADD_FAILURE() << "an unexpected PDU";
        }
      }
      EXPECT_EQ(written, (std::set<std::uint32_t>{1, 2}));
      EXPECT_EQ(rejected, digests ? 1 : 0);
      EXPECT_EQ(read[4], small);
      EXPECT_EQ(read[5], large);
    }
  }
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

// An initiator that is still sending is alive, even when the answer to the
// ping waits behind its data (a slow link, a queue of writes resent after a
// reconnection): after the ping, a 64 KiB write trickles in over 2.5 s, past
// the ping's 1 s timeout, and only then comes the answer. The connection
// stays, and the write completes.
TEST_F(PingServerTest, AnInitiatorStillSendingIsNotDisconnected) {
  testing::RawInitiator c(port_);
  ASSERT_TRUE(c.login(false));
  auto r = c.receive();  // after 1 s of silence
  ASSERT_TRUE(r.has_value());
  const auto* ping = std::get_if<NopInPdu>(&r->first);
  ASSERT_NE(ping, nullptr);
  const std::uint32_t ttt = ping->ttt;
  const std::vector<std::uint8_t> write =
      c.frame(c.write10(1, 1, 65536, 8), std::vector<std::uint8_t>(65536, 0x5A));
  const std::size_t piece = write.size() / 25 + 1;
  boost::system::error_code ec;
  for (std::size_t at = 0; at < write.size() && !ec; at += piece) {
    asio::write(c.socket, asio::buffer(write.data() + at, std::min(piece, write.size() - at)), ec);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  NopOutPdu answer;
  answer.immediate = true;
  answer.ttt = ttt;
  answer.cmd_sn = 2;
  c.send(encode(InitiatorPdu{answer}));
  r = c.receive();
  ASSERT_TRUE(r.has_value()) << "the target closed the connection";
  const auto* response = std::get_if<ScsiResponsePdu>(&r->first);
  ASSERT_NE(response, nullptr);
  EXPECT_EQ(response->status, 0);
}

}  // namespace
}  // namespace memstore::iscsi

namespace memstore::iscsi {
namespace {

// A session that writes its own blocks of LUN 0 and reads them back,
// `rounds` times, with digests on: "" when it saw its own data each time.
std::string write_and_read(std::uint16_t port, std::uint8_t seed, std::uint32_t lba, int rounds) {
  testing::RawInitiator c(port, seed);
  if (!c.login(true)) return "login failed";
  std::uint32_t itt = 1;
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::uint8_t> data(4096);
    for (std::size_t i = 0; i < data.size(); ++i) {
      data[i] = static_cast<std::uint8_t>(i * seed + static_cast<std::size_t>(round));
    }
    c.send(c.write10(itt, itt, 4096, lba), data);
    ++itt;
    auto r = c.receive();
    if (!r || !std::holds_alternative<ScsiResponsePdu>(r->first)) return "write";
    c.send(c.read16(itt, itt, lba, 4096));
    ++itt;
    std::vector<std::uint8_t> got;
    for (bool status = false; !status;) {
      r = c.receive();
      if (!r) return "read: connection ended";
      const auto* in = std::get_if<DataInPdu>(&r->first);
      if (in == nullptr) return "read: not Data-In";
      got.insert(got.end(), r->second.begin(), r->second.end());
      status = in->has_status;
    }
    if (got != data) return "round " + std::to_string(round) + ": wrong data";
  }
  return "";
}

// Two event loops, each on its own thread, as memstored runs with
// --threads 2, serving one target. `luns` gives the loop of each LUN
// (0: the server's, 1: the other).
class TwoLoopServer : public ::testing::Test {
 protected:
  void start(const std::vector<int>& luns) {
    server_.set_loops({&server_loop_, &lun_loop_});
    TargetSetup t;
    t.name = testing::kRawTarget;
    t.portals = {{"127.0.0.1", 0}};
    for (std::size_t id = 0; id < luns.size(); ++id) {
      t.luns[static_cast<std::uint16_t>(id)] = std::make_unique<driver::TimedLun>(
          luns[id] == 0 ? server_loop_ : lun_loop_, testing::memory_lun());
    }
    server_.add_target(std::move(t));
    ASSERT_TRUE(server_.start().ok());
    port_ = server_.bound_ports().at(0);
    a_ = std::thread([this] { server_loop_.run(); });
    b_ = std::thread([this] { lun_loop_.run(); });
  }
  void TearDown() override {
    boost::asio::post(server_loop_, [this] { server_.stop(); });
    for (int i = 0; i < 500 && server_.connections() > 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(server_.connections(), 0U);
    guard_a_.reset();
    guard_b_.reset();
    if (a_.joinable()) a_.join();
    if (b_.joinable()) b_.join();
  }
  // Two sessions at once, each writing and reading back its own blocks
  // (write_and_read): what each reported, "" when it saw its data.
  std::pair<std::string, std::string> two_sessions_at_once(std::uint8_t seed_a, std::uint8_t seed_b,
                                                           int rounds) {
    std::pair<std::string, std::string> got;
    std::thread a([&] { got.first = write_and_read(port_, seed_a, 64, rounds); });
    std::thread b([&] { got.second = write_and_read(port_, seed_b, 4096, rounds); });
    a.join();
    b.join();
    return got;
  }
  // Connections per loop, once they settle (a moved one ends on its old loop
  // shortly after it opens on the new one).
  std::vector<std::size_t> connections_by_loop(std::size_t expected_total) {
    std::vector<std::size_t> count;
    for (int i = 0; i < 200; ++i) {
      std::promise<std::vector<std::size_t>> p;
      boost::asio::post(server_loop_, [&] { p.set_value(server_.connections_by_loop()); });
      count = p.get_future().get();
      if (count.size() == 2 && count[0] + count[1] == expected_total) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return count;
  }

  boost::asio::io_context server_loop_, lun_loop_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_a_ =
      boost::asio::make_work_guard(server_loop_);
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_b_ =
      boost::asio::make_work_guard(lun_loop_);
  Server server_{server_loop_};
  std::uint16_t port_ = 0;
  std::thread a_, b_;
};

// The target's LUNs span both loops, so connections stay on the loop they
// were accepted onto, in turn: one session reaches LUN 0 directly and the
// other through a driver::LoopBridge that posts across threads. Both see their data.
TEST_F(TwoLoopServer, SessionsOnEitherLoopReachALunOnTheOther) {
  start({1, 0});
  EXPECT_EQ(two_sessions_at_once(3, 5, 50), (std::pair<std::string, std::string>{"", ""}));
}

// The target's only LUN lives on the second loop: every session moves there
// at its login, whichever loop accepted it, and works there (its login was
// read on the other loop and answered on this one).
TEST_F(TwoLoopServer, ConnectionsMoveToTheLoopOfTheirTargetsLuns) {
  start({1});
  std::vector<std::unique_ptr<testing::RawInitiator>> open;
  for (std::uint8_t seed = 3; seed < 6; ++seed) {
    open.push_back(std::make_unique<testing::RawInitiator>(port_, seed));
    ASSERT_TRUE(open.back()->login(true));
  }
  EXPECT_EQ(connections_by_loop(3), (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(two_sessions_at_once(7, 8, 20), (std::pair<std::string, std::string>{"", ""}));
}

// A login to a target that does not exist stays where it was accepted and
// gets its refusal there.
TEST_F(TwoLoopServer, ALoginToAnUnknownTargetIsRefusedWhereItLands) {
  start({1});
  for (std::uint8_t seed = 3; seed < 5; ++seed) {
    testing::RawInitiator c(port_, seed);
    EXPECT_FALSE(c.login(false, false, "iqn.2026-11.org.memstore.test:nobody"));
  }
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
