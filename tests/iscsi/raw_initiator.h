// SPDX-License-Identifier: Apache-2.0
// A raw iSCSI initiator on a blocking loopback socket, for tests that need
// to send what no well-behaved initiator would (corrupt digests, oversized
// segments) or to count what the target does per command; and a G2 LUN in
// memory with timing off to serve it.
#pragma once

#include <boost/asio.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "target/iscsi/digest.h"
#include "target/iscsi/pdu.h"
#include "target/iscsi/text_keys.h"
#include "target/scsi/lun.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::iscsi::testing {

namespace asio = boost::asio;
using asio::ip::tcp;

inline constexpr char kRawTarget[] = "iqn.2026-11.org.memstore.test:server";

inline std::unique_ptr<scsi::Lun> memory_lun(scsi::Timing timing = {scsi::TimingMode::kOff, 1.0}) {
  scsi::LunConfig config;
  config.timing = timing;
  return scsi::testing::make_lun(std::move(config));
}

// An in-memory LUN (timing off) whose READs meet one fault rule, fired
// once (docs/faults.md).
inline std::unique_ptr<scsi::Lun> memory_lun_with_read_fault(scsi::FaultAction action,
                                                             bool reject_abort = false) {
  scsi::FaultRule rule;
  rule.op = scsi::FaultOp::kRead;
  rule.once = true;
  rule.action = action;
  rule.reject_abort = reject_abort;
  auto lun = memory_lun();
  lun->add_fault(rule);
  return lun;
}

// A raw initiator: whole PDUs out, whole PDUs in, digests when asked.
struct RawInitiator {
  // Sessions of one initiator port (the same ISID) replace each other
  // (reinstatement); give each concurrent session its own.
  explicit RawInitiator(std::uint16_t port, std::uint8_t isid_qualifier = 2)
      : qualifier(isid_qualifier), socket(io) {
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }
  void send(const Bhs& bhs, std::vector<std::uint8_t> data = {}, bool corrupt_header = false,
            bool corrupt_data = false) {
    asio::write(socket, asio::buffer(frame(bhs, std::move(data), corrupt_header, corrupt_data)));
  }
  // One PDU's bytes as send() writes them: BHS, digests, padded segment.
  std::vector<std::uint8_t> frame(const Bhs& bhs, std::vector<std::uint8_t> data = {},
                                  bool corrupt_header = false, bool corrupt_data = false) const {
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
    return out;
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
      if (ec || !check_digest(data, d)) return std::nullopt;  // over the padded segment
    }
    if (ec) return std::nullopt;
    data.resize(len);
    auto decoded = decode_target_pdu(bhs);
    if (!decoded.ok()) return std::nullopt;
    return std::make_pair(std::move(decoded).value(), std::move(data));
  }
  // With `solicited`, writes must wait for R2Ts (ImmediateData=No,
  // InitialR2T=Yes); else their data rides in the command.
  // The last login response's status class and detail (RFC 7143 §11.13.5).
  std::pair<std::uint8_t, std::uint8_t> login_status{0xFF, 0xFF};
  bool login(bool with_digests, bool solicited = false, const std::string& target = kRawTarget) {
    LoginRequestPdu req;
    req.transit = true;
    req.csg = LoginStage::kOperationalNegotiation;
    req.nsg = LoginStage::kFullFeaturePhase;
    req.isid = {0x80, 0, 0, qualifier, 0, 0};
    req.cmd_sn = 1;
    const std::string d = with_digests ? "CRC32C" : "None";
    const auto text =
        serialize_text(std::vector<TextPair>{{"InitiatorName", "iqn.2026-11.org.memstore.test:raw"},
                                             {"TargetName", target},
                                             {"HeaderDigest", d},
                                             {"DataDigest", d},
                                             {"ImmediateData", solicited ? "No" : "Yes"},
                                             {"InitialR2T", solicited ? "Yes" : "No"}});
    req.data_segment_length = static_cast<std::uint32_t>(text.size());
    send(encode(InitiatorPdu{req}), text);
    auto r = receive();
    if (!r) return false;
    const auto* resp = std::get_if<LoginResponsePdu>(&r->first);
    digests = with_digests;
    if (resp != nullptr) login_status = {resp->status_class, resp->status_detail};
    return resp != nullptr && resp->status_class == 0 && resp->transit;
  }
  Bhs write10(std::uint32_t itt, std::uint32_t cmd_sn, std::uint32_t bytes, std::uint32_t lba = 0) {
    ScsiCommandPdu c;
    c.write = true;
    c.itt = itt;
    c.cmd_sn = cmd_sn;
    c.expected_data_transfer_length = bytes;
    c.data_segment_length = bytes;
    c.cdb = {0x2A,
             0,
             static_cast<std::uint8_t>(lba >> 24),
             static_cast<std::uint8_t>(lba >> 16),
             static_cast<std::uint8_t>(lba >> 8),
             static_cast<std::uint8_t>(lba),
             0,
             0,
             static_cast<std::uint8_t>(bytes / 512),
             0};
    return encode(InitiatorPdu{c});
  }
  Bhs read16(std::uint32_t itt, std::uint32_t cmd_sn, std::uint64_t lba, std::uint32_t bytes) {
    ScsiCommandPdu c;
    c.read = true;
    c.itt = itt;
    c.cmd_sn = cmd_sn;
    c.expected_data_transfer_length = bytes;
    c.cdb = {0x88};
    for (int i = 0; i < 8; ++i) c.cdb[2 + i] = static_cast<std::uint8_t>(lba >> (56 - 8 * i));
    for (int i = 0; i < 4; ++i)
      c.cdb[10 + i] = static_cast<std::uint8_t>((bytes / 512) >> (24 - 8 * i));
    return encode(InitiatorPdu{c});
  }
  // An immediate Task Management Function Request (RFC 7143 §11.5).
  static Bhs tmf(TmfFunction function, std::uint32_t itt, std::uint32_t cmd_sn,
                 std::uint32_t referenced = kReservedTag) {
    TaskMgmtRequestPdu t;
    t.immediate = true;
    t.function = function;
    t.itt = itt;
    t.referenced_task_tag = referenced;
    t.cmd_sn = cmd_sn;
    return encode(InitiatorPdu{t});
  }
  bool closed_by_target() {
    std::uint8_t b;
    boost::system::error_code ec;
    asio::read(socket, asio::buffer(&b, 1), ec);
    return ec == asio::error::eof || ec == asio::error::connection_reset;
  }
  asio::io_context io;
  std::uint8_t qualifier;
  tcp::socket socket;
  bool digests = false;
};

}  // namespace memstore::iscsi::testing
