// The server's framing against a hostile initiator on a real loopback
// socket: corrupt digests and oversized data segments get the RFC 7143
// answer, and the daemon keeps serving the next initiator.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <thread>

#include "target/iscsi/digest.h"
#include "target/iscsi/lun_driver.h"
#include "target/iscsi/pdu.h"
#include "target/iscsi/server.h"
#include "target/iscsi/text_keys.h"
#include "target/scsi/memory_store.h"

namespace memstore::iscsi {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

constexpr char kTarget[] = "iqn.2026-11.org.memstore.test:server";

std::unique_ptr<scsi::Lun> memory_lun() {
  scsi::LunConfig config;
  config.timing.mode = scsi::TimingMode::kOff;
  const model::Geometry g(config.device);
  auto store = scsi::MemoryStore::create(static_cast<std::uint64_t>(g.blocks()), 512);
  auto lun = scsi::Lun::create(std::move(config),
                               std::move(std::get<std::unique_ptr<scsi::MemoryStore>>(store)));
  return std::move(std::get<std::unique_ptr<scsi::Lun>>(lun));
}

// A memstored-like server on 127.0.0.1:0 with one G2 LUN, on its own thread.
class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TargetSetup t;
    t.name = kTarget;
    t.portals = {{"127.0.0.1", 0}};
    t.luns[0] = std::make_unique<LunDriver>(io_, memory_lun());
    server_.add_target(std::move(t));
    ASSERT_EQ(server_.start(), "");
    port_ = server_.bound_ports().at(0);
    thread_ = std::thread([this] { io_.run(); });
  }
  // As memstored does: closing every connection lets run() return once their
  // coroutines have ended, while the LUNs they point at still exist.
  void TearDown() override {
    asio::post(io_, [this] { server_.stop(); });
    work_.reset();
    thread_.join();
  }

  // A raw initiator: whole PDUs out, whole PDUs in, digests when asked.
  struct Client {
    explicit Client(std::uint16_t port) : socket(io) {
      socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    }
    void send(const Bhs& bhs, std::vector<std::uint8_t> data = {}, bool corrupt_header = false,
              bool corrupt_data = false) {
      std::vector<std::uint8_t> out(bhs.begin(), bhs.end());
      if (digests) {
        append_digest(out, std::span(out).first(kBhsSize));
        if (corrupt_header) out.back() ^= 0xFF;
      }
      data.resize(padded_length(data.size()), 0);
      out.insert(out.end(), data.begin(), data.end());
      if (digests && !data.empty()) {
        append_digest(out, data);
        if (corrupt_data) out.back() ^= 0xFF;
      }
      asio::write(socket, asio::buffer(out));
    }
    // The next PDU, or nullopt when the target closed the connection.
    std::optional<std::pair<TargetPdu, std::vector<std::uint8_t>>> receive() {
      Bhs bhs;
      boost::system::error_code ec;
      asio::read(socket, asio::buffer(bhs), ec);
      if (ec) return std::nullopt;
      if (digests) {
        std::array<std::uint8_t, kDigestSize> d;
        asio::read(socket, asio::buffer(d), ec);
        if (ec || !check_digest(bhs, d)) return std::nullopt;
      }
      const std::size_t len = (std::size_t{bhs[5]} << 16) | (bhs[6] << 8) | bhs[7];
      std::vector<std::uint8_t> data(padded_length(len));
      if (!data.empty()) asio::read(socket, asio::buffer(data), ec);
      if (digests && len > 0) {
        std::array<std::uint8_t, kDigestSize> d;
        asio::read(socket, asio::buffer(d), ec);
      }
      if (ec) return std::nullopt;
      data.resize(len);
      auto decoded = decode_target_pdu(bhs);
      if (!std::holds_alternative<TargetPdu>(decoded)) return std::nullopt;
      return std::make_pair(std::get<TargetPdu>(decoded), std::move(data));
    }
    bool login(bool with_digests) {
      LoginRequestPdu req;
      req.transit = true;
      req.csg = LoginStage::kOperationalNegotiation;
      req.nsg = LoginStage::kFullFeaturePhase;
      req.isid = {0x80, 0, 0, 2, 0, 0};
      req.cmd_sn = 1;
      const std::string d = with_digests ? "CRC32C" : "None";
      const auto text = serialize_text(std::vector<TextPair>{
          {"InitiatorName", "iqn.2026-11.org.memstore.test:raw"},
          {"TargetName", kTarget},
          {"HeaderDigest", d},
          {"DataDigest", d},
          {"ImmediateData", "Yes"},
          {"InitialR2T", "No"}});
      req.data_segment_length = static_cast<std::uint32_t>(text.size());
      send(encode(InitiatorPdu{req}), text);
      auto r = receive();
      if (!r) return false;
      const auto* resp = std::get_if<LoginResponsePdu>(&r->first);
      digests = with_digests;
      return resp != nullptr && resp->status_class == 0 && resp->transit;
    }
    Bhs write10(std::uint32_t itt, std::uint32_t cmd_sn, std::uint32_t bytes) {
      ScsiCommandPdu c;
      c.write = true;
      c.itt = itt;
      c.cmd_sn = cmd_sn;
      c.expected_data_transfer_length = bytes;
      c.data_segment_length = bytes;
      c.cdb = {0x2A, 0, 0, 0, 0, 0, 0, 0, static_cast<std::uint8_t>(bytes / 512), 0};
      return encode(InitiatorPdu{c});
    }
    bool closed_by_target() {
      std::uint8_t b;
      boost::system::error_code ec;
      asio::read(socket, asio::buffer(&b, 1), ec);
      return ec == asio::error::eof || ec == asio::error::connection_reset;
    }
    asio::io_context io;
    tcp::socket socket;
    bool digests = false;
  };

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

  asio::io_context io_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_{
      asio::make_work_guard(io_)};
  Server server_{io_};
  std::uint16_t port_ = 0;
  std::thread thread_;
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
