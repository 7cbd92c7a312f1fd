// SPDX-License-Identifier: Apache-2.0
// LUNs added to and removed from a running target (Server::add_lun,
// remove_lun; the control socket's lun-add and lun-remove), seen from a
// session that was logged in all along: the other LUNs report REPORTED LUNS
// DATA HAS CHANGED, REPORT LUNS lists the new set, a new LUN serves at once,
// and a removed LUN's commands, even those waiting for their modeled
// completion, end at once with LOGICAL UNIT NOT SUPPORTED.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <optional>

#include "tests/error_text.h"
#include "tests/iscsi/loopback_target.h"
#include "tests/scsi/cdb_builders.h"

namespace memstore::iscsi {
namespace {

using Clock = std::chrono::steady_clock;
using scsi::testing::read16;
using std::chrono::milliseconds;

struct Answer {
  std::uint8_t status = 0xFF;
  std::uint8_t key = 0, asc = 0, ascq = 0;  // fixed-format sense, when CHECK CONDITION
  std::vector<std::uint8_t> data;           // Data-In
};

class LunRuntimeTest : public ::testing::Test {
 protected:
  void start(scsi::Timing lun0_timing) {
    ASSERT_EQ(target_.start(testing::memory_lun(lun0_timing)), "");
    client_.emplace(target_.port());
    ASSERT_TRUE(client_->login(false));
  }

  // A command to `lun`; `in` bytes of Data-In expected at most.
  void send(std::uint32_t itt, std::uint16_t lun, std::vector<std::uint8_t> cdb, std::uint32_t in) {
    ScsiCommandPdu c;
    c.read = in > 0;
    c.itt = itt;
    c.cmd_sn = cmd_sn_++;
    c.lun = encode_lun(lun);
    c.expected_data_transfer_length = in;
    std::copy(cdb.begin(), cdb.end(), c.cdb.begin());
    client_->send(encode(InitiatorPdu{c}));
  }
  // The next command's answer: its Data-In, then its status.
  Answer receive(std::uint32_t itt) {
    Answer a;
    for (;;) {
      auto r = client_->receive();
      if (!r) {
        ADD_FAILURE() << "the connection ended";
        return a;
      }
      if (const auto* d = std::get_if<DataInPdu>(&r->first)) {
        EXPECT_EQ(d->itt, itt);
        a.data.insert(a.data.end(), r->second.begin(), r->second.end());
        if (d->has_status) {
          a.status = d->status;
          return a;
        }
        continue;
      }
      const auto* s = std::get_if<ScsiResponsePdu>(&r->first);
      if (s == nullptr) {
        ADD_FAILURE() << "neither Data-In nor a SCSI Response";
        return a;
      }
      EXPECT_EQ(s->itt, itt);
      a.status = s->status;
      // The data segment: SenseLength (2 bytes), then fixed-format sense.
      if (r->second.size() >= 2 + 14) {
        a.key = r->second[2 + 2] & 0x0F;
        a.asc = r->second[2 + 12];
        a.ascq = r->second[2 + 13];
      }
      return a;
    }
  }
  Answer command(std::uint32_t itt, std::uint16_t lun, std::vector<std::uint8_t> cdb,
                 std::uint32_t in) {
    send(itt, lun, std::move(cdb), in);
    return receive(itt);
  }
  static std::vector<std::uint8_t> report_luns() {
    return {0xA0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};  // ALLOCATION LENGTH 256
  }
  // Runs `f` on the target's thread, where the server lives, and waits.
  std::string on_target(std::function<std::string()> f) {
    std::packaged_task<std::string()> task(std::move(f));
    auto result = task.get_future();
    boost::asio::post(target_.io(), [&task] { task(); });
    return result.get();
  }

  testing::LoopbackTarget target_;
  std::optional<testing::RawInitiator> client_;
  std::uint32_t cmd_sn_ = 1;  // the login was immediate
};

constexpr std::uint8_t kGood = 0x00, kCheckCondition = 0x02;

TEST_F(LunRuntimeTest, AnAddedLunIsReportedAndServes) {
  start({scsi::TimingMode::kOff, 1.0});
  EXPECT_EQ(command(1, 0, read16(0, 8), 4096).status, kGood);
  const std::string added = on_target([this] {
    return memstore::testing::error_text(target_.server().add_lun(
        testing::kRawTarget, 2,
        std::make_unique<driver::TimedLun>(target_.io(), testing::memory_lun())));
  });
  ASSERT_EQ(added, "");
  // LUN 0 tells this I_T nexus that the inventory changed, once.
  const Answer ua = command(2, 0, read16(0, 8), 4096);
  EXPECT_EQ(ua.status, kCheckCondition);
  EXPECT_EQ(ua.key, 0x6);
  EXPECT_EQ(ua.asc, 0x3F);
  EXPECT_EQ(ua.ascq, 0x0E);
  EXPECT_EQ(command(3, 0, read16(0, 8), 4096).status, kGood);
  // REPORT LUNS, from either LUN: 0 and 2.
  for (const std::uint16_t lun : {std::uint16_t{0}, std::uint16_t{2}}) {
    const Answer list = command(4 + lun, lun, report_luns(), 256);
    ASSERT_EQ(list.status, kGood);
    ASSERT_EQ(list.data.size(), 8U + 16U);
    EXPECT_EQ(list.data[3], 16);  // LUN LIST LENGTH: two entries
    EXPECT_EQ(list.data[8 + 1], 0);
    EXPECT_EQ(list.data[16 + 1], 2);
  }
  const Answer read = command(7, 2, read16(100, 8), 4096);
  EXPECT_EQ(read.status, kGood);
  EXPECT_EQ(read.data.size(), 4096U);
  // A number already taken, or a target that does not exist, is refused.
  EXPECT_NE(on_target([this] {
              return memstore::testing::error_text(target_.server().add_lun(
                  testing::kRawTarget, 2,
                  std::make_unique<driver::TimedLun>(target_.io(), testing::memory_lun())));
            }),
            "");
  EXPECT_NE(on_target([this] {
              return memstore::testing::error_text(target_.server().add_lun(
                  "iqn.2026-11.org.memstore:none", 3,
                  std::make_unique<driver::TimedLun>(target_.io(), testing::memory_lun())));
            }),
            "");
}

TEST_F(LunRuntimeTest, RemovingABusyLunEndsItsCommandsAtOnce) {
  // 1000 times slower than the model: the READs queued below are due
  // seconds apart.
  start({scsi::TimingMode::kScaled, 1000.0});
  for (std::uint32_t itt = 1; itt <= 3; ++itt) send(itt, 0, read16(itt * 300'000, 8), 4096);
  const auto removed_at = Clock::now();
  std::promise<void> retired;
  const std::string removed = on_target([this, &retired] {
    return memstore::testing::error_text(target_.server().remove_lun(
        testing::kRawTarget, 0, [&retired](std::unique_ptr<driver::TimedLun> d) {
          // As memstored does: retire on the LUN's loop, destroy later.
          boost::asio::io_context& loop = d->context();
          boost::asio::post(loop,
                            [&loop, &retired, d = std::shared_ptr<driver::TimedLun>(std::move(d))] {
                              EXPECT_TRUE(d->retire().ok());
                              boost::asio::post(loop, [d, &retired] { retired.set_value(); });
                            });
        }));
  });
  ASSERT_EQ(removed, "");
  for (std::uint32_t itt = 1; itt <= 3; ++itt) {
    const Answer a = receive(itt);
    EXPECT_EQ(a.status, kCheckCondition);
    EXPECT_EQ(a.key, 0x5);
    EXPECT_EQ(a.asc, 0x25);  // LOGICAL UNIT NOT SUPPORTED
    EXPECT_EQ(a.ascq, 0x00);
  }
  EXPECT_LT(Clock::now() - removed_at, milliseconds(500));  // not at their due times
  retired.get_future().wait();
  // From now on the LUN does not exist: INQUIRY says so in its data
  // (peripheral qualifier 011b), anything else fails.
  const Answer inquiry = command(10, 0, {0x12, 0, 0, 0, 36, 0}, 36);
  EXPECT_EQ(inquiry.status, kGood);
  ASSERT_FALSE(inquiry.data.empty());
  EXPECT_EQ(inquiry.data[0], 0x7F);
  const Answer read = command(11, 0, read16(0, 8), 4096);
  EXPECT_EQ(read.status, kCheckCondition);
  EXPECT_EQ(read.asc, 0x25);
  // Removing it again is refused.
  EXPECT_NE(on_target([this] {
              return memstore::testing::error_text(target_.server().remove_lun(
                  testing::kRawTarget, 0, [](std::unique_ptr<driver::TimedLun>) {}));
            }),
            "");
}

}  // namespace
}  // namespace memstore::iscsi
