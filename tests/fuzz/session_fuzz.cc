// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the iSCSI session: login and text key negotiation,
// then the full feature phase, fed with PDUs a hostile initiator could send.
// The first byte picks how the input is used:
//   0: every PDU comes from the input (the login itself is fuzzed);
//   1: the rest of the input is the text of one Login Request (the key
//      parser and negotiation, with a valid header);
//   2: a valid login first, then PDUs from the input (full feature phase).
// PDUs are 48 header bytes followed by the data segment their header
// announces (cut at the end of the input). Nothing may crash or leak; every
// PDU the session sends must decode. In modes 0 and 1 the first PDU also
// goes where the server sends it first, the choice of its loop
// (placement.h): the LUN's loop or none. Write data lands in the buffer the
// session lends for it (Session::landing), as on a connection.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include "target/iscsi/pdu.h"
#include "target/iscsi/placement.h"
#include "target/iscsi/session.h"
#include "target/iscsi/text_keys.h"
#include "target/scsi/memory_store.h"

namespace {

using namespace memstore;
using namespace memstore::iscsi;

constexpr char kTarget[] = "iqn.2026-11.org.memstore.fuzz:t";

// A small LUN answering at once; shared by all runs (the fuzzer checks the
// session, not the device).
class Port final : public driver::CommandPort {
 public:
  Port() {
    scsi::LunConfig config;
    const model::Geometry g(config.device);
    auto store = scsi::MemoryStore::create(static_cast<std::uint64_t>(g.blocks()), 512);
    lun_ = scsi::Lun::create(std::move(config), std::move(store).value()).value();
  }
  void submit(scsi::ScsiCommand c, Done done) override {
    c.arrival_ns = now_ += 1000;
    done(lun_->execute(c));
  }
  void forget(std::uint64_t) override {}
  std::uint32_t block_size() const override { return lun_->block_size(); }
  const void* loop() const override { return this; }  // a loop of its own, for placement

 private:
  std::unique_ptr<scsi::Lun> lun_;
  model::Ns now_ = 0;
};

void check(bool ok) {
  if (!ok) std::abort();
}

void check_sent(const std::vector<std::uint8_t>& pdu) {
  check(pdu.size() >= kBhsSize);
  Bhs bhs;
  std::copy_n(pdu.begin(), kBhsSize, bhs.begin());
  check(decode_target_pdu(bhs).ok());
}

std::vector<std::uint8_t> login_pdu(std::span<const std::uint8_t> text) {
  LoginRequestPdu req;
  req.transit = true;
  req.csg = LoginStage::kOperationalNegotiation;
  req.nsg = LoginStage::kFullFeaturePhase;
  req.isid = {0x80, 0, 0, 1, 0, 0};
  req.data_segment_length = static_cast<std::uint32_t>(text.size());
  const Bhs bhs = encode(InitiatorPdu{req});
  std::vector<std::uint8_t> out(bhs.begin(), bhs.end());
  out.insert(out.end(), text.begin(), text.end());
  return out;
}

// Feeds the PDUs in `in` to the session until the input ends or it closes.
void feed(Session& s, std::span<const std::uint8_t> in, const bool& closed) {
  while (in.size() >= kBhsSize && !closed) {
    Bhs bhs;
    std::copy_n(in.begin(), kBhsSize, bhs.begin());
    in = in.subspan(kBhsSize);
    const std::size_t ahs_len = std::min<std::size_t>(std::size_t{bhs[4]} * 4, in.size());
    const auto ahs = in.first(ahs_len);
    in = in.subspan(ahs_len);
    const std::size_t announced = (std::size_t{bhs[5]} << 16) | (bhs[6] << 8) | bhs[7];
    const std::size_t len = std::min(announced, in.size());
    const auto segment = in.first(len);
    in = in.subspan(len);
    // Write data the session lends a buffer for is read into it, as the
    // connection does; a segment starting with 0xDD stands for one whose
    // data digest failed.
    if (ahs_len == 0 && len == announced) {
      if (auto landing = s.landing(bhs)) {
        check(landing->buffer.size() >= landing->offset + len);
        std::copy(segment.begin(), segment.end(), landing->buffer.begin() + landing->offset);
        const bool arrived = segment.empty() || segment[0] != 0xDD;
        s.land(bhs, std::move(*landing), arrived);
        if (!arrived) s.reject(bhs, RejectReason::kDataDigestError);
        continue;
      }
    }
    s.on_pdu(bhs, ahs, std::vector<std::uint8_t>(segment.begin(), segment.end()));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A fresh LUN now and then: written chunks of the in-memory store would
  // otherwise pile up over millions of runs.
  static std::unique_ptr<Port> port;
  static int runs = 0;
  static TargetContext context = [] {
    TargetContext c;
    c.name = kTarget;
    c.login.limits.target_name = kTarget;
    c.login.send_targets = {{kTarget, {"127.0.0.1:3260,1"}, {}, false}};
    return c;
  }();
  if (runs++ % 2000 == 0) {
    port = std::make_unique<Port>();
    context.luns[0] = port.get();
  }
  if (size < 1) return 0;
  const std::uint8_t mode = data[0] % 3;
  const std::span<const std::uint8_t> in(data + 1, size - 1);

  bool closed = false;
  // Small limits, so that the fuzzer reaches them: the task limit, the
  // CmdSN window closing, text continuation beyond its bound, and a server
  // that refuses the session at the full feature phase.
  const bool refuse = mode != 2 && (data[0] & 0x80) != 0;
  Session session([](std::string_view n) { return n == kTarget ? &context : nullptr; },
                  LoginConfig{}, 1, 1,
                  Session::Sink{[](std::vector<std::uint8_t> pdu) { check_sent(pdu); },
                                [&closed] { closed = true; }},
                  SessionLimits{.max_tasks = 8, .cmd_window = 8, .max_text_bytes = 8192},
                  [refuse](const SessionIdentity&) { return !refuse; });
  const auto find = [](std::string_view n) { return n == kTarget ? &context : nullptr; };
  const auto place = [&](std::span<const std::uint8_t> pdus) {
    if (pdus.size() < kBhsSize) return;
    Bhs bhs;
    std::copy_n(pdus.begin(), kBhsSize, bhs.begin());
    const void* loop = target_loop(bhs, pdus.subspan(kBhsSize), find);
    check(loop == nullptr || loop == port.get());
  };
  if (mode == 1) {
    const std::vector<std::uint8_t> login = login_pdu(in);
    place(login);
    feed(session, login, closed);
    return 0;
  }
  if (mode == 0) place(in);
  if (mode == 2) {
    const std::vector<TextPair> keys{{"InitiatorName", "iqn.2026-11.org.memstore.fuzz:i"},
                                     {"TargetName", kTarget},
                                     {"InitialR2T", "No"},
                                     {"ImmediateData", "Yes"},
                                     {"MaxOutstandingR2T", "4"}};
    feed(session, login_pdu(serialize_text(keys)), closed);
    check(session.full_feature());
  }
  feed(session, in, closed);
  return 0;
}
