// SPDX-License-Identifier: Apache-2.0
// The C ABI the tcmu-runner shell calls: config checking, opening against
// the backstore's size, commands with data scattered over several iovecs,
// sense data, and the CDB lengths TCMU hands over.
#include "target/tcmu/handler_core.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "target/tcmu/cdb_length.h"
#include "target/tcmu/log_lines.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::tcmu {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr std::uint64_t kG2Bytes = 6'750'000ull * 512;

std::string take(char* message) {
  std::string s = message == nullptr ? "" : message;
  std::free(message);
  return s;
}

struct LunCloser {
  void operator()(memstore_tcmu_lun* lun) const { take(memstore_tcmu_close(lun)); }
};
using LunPtr = std::unique_ptr<memstore_tcmu_lun, LunCloser>;

LunPtr open_ok(const std::string& cfg) {
  char* error = nullptr;
  LunPtr lun(memstore_tcmu_open(cfg.c_str(), kG2Bytes, 512, &error));
  EXPECT_NE(lun, nullptr) << take(error);
  return lun;
}

// A buffer cut into iovecs of the given sizes.
struct Buffers {
  std::vector<std::vector<std::uint8_t>> parts;
  std::vector<iovec> iov;
  explicit Buffers(std::initializer_list<std::size_t> sizes) {
    for (std::size_t n : sizes) parts.emplace_back(n, 0xEE);
    for (auto& p : parts) iov.push_back({p.data(), p.size()});
  }
  std::vector<std::uint8_t> joined() const {
    std::vector<std::uint8_t> all;
    for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
    return all;
  }
};

memstore_tcmu_status run(memstore_tcmu_lun* lun, std::vector<std::uint8_t> cdb, Buffers& b,
                         std::uint8_t* sense = nullptr) {
  cdb.resize(16, 0);
  std::uint8_t scratch[96];
  return memstore_tcmu_execute(lun, cdb.data(), b.iov.data(), b.iov.size(),
                               sense != nullptr ? sense : scratch, 96);
}

TEST(TcmuHandlerCore, CheckConfig) {
  EXPECT_EQ(memstore_tcmu_check_config("memstore/memory;timing=off"), nullptr);
  EXPECT_THAT(take(memstore_tcmu_check_config("memstore/memory;timing=fast")),
              StartsWith("timing: "));
  EXPECT_THAT(take(memstore_tcmu_check_config(nullptr)), StartsWith("backing image: missing"));
  EXPECT_THAT(memstore_tcmu_config_help(), HasSubstr("size=3456000000"));
}

TEST(TcmuHandlerCore, OpenNeedsTheDevicesCapacity) {
  char* error = nullptr;
  EXPECT_EQ(memstore_tcmu_open("memory", 1 << 30, 512, &error), nullptr);
  EXPECT_EQ(take(error),
            "size: the backstore has 1073741824 bytes but the device (device=g2) holds "
            "3456000000; create it with size=3456000000");
  EXPECT_EQ(memstore_tcmu_open("memory", kG2Bytes, 4096, &error), nullptr);
  EXPECT_THAT(take(error), StartsWith("block size: the backstore has 4096-byte blocks"));
  EXPECT_EQ(memstore_tcmu_open("memory;device=g7", kG2Bytes, 512, &error), nullptr);
  EXPECT_THAT(take(error), StartsWith("device: "));
}

TEST(TcmuHandlerCore, OpensAnAtlas10kOfItsOwnSize) {
  // 17,966,953 blocks of 512 bytes (docs/disk-models.md).
  constexpr std::uint64_t kAtlasBytes = 9'199'079'936;
  char* error = nullptr;
  EXPECT_EQ(memstore_tcmu_open("memory;device=atlas10k", kG2Bytes, 512, &error), nullptr);
  EXPECT_EQ(take(error),
            "size: the backstore has 3456000000 bytes but the device (device=atlas10k) holds "
            "9199079936; create it with size=9199079936");
  memstore_tcmu_lun* lun =
      memstore_tcmu_open("memory;device=atlas10k;timing=off", kAtlasBytes, 512, &error);
  ASSERT_NE(lun, nullptr) << take(error);
  EXPECT_EQ(memstore_tcmu_size_bytes(lun), kAtlasBytes);
  // VPD B1h: MEDIUM ROTATION RATE 10025 rpm (2729h).
  Buffers b1({64});
  EXPECT_EQ(run(lun, {0x12, 1, 0xB1, 0, 64, 0}, b1), MEMSTORE_TCMU_GOOD);
  EXPECT_EQ(b1.parts[0][4], 0x27);
  EXPECT_EQ(b1.parts[0][5], 0x29);
  take(memstore_tcmu_close(lun));
}

TEST(TcmuHandlerCore, OpensAnImageFileAndReportsOnClose) {
  scsi::testing::TempDir dir;
  const std::string image = dir.file("g2.img");
  char* error = nullptr;
  memstore_tcmu_lun* lun = memstore_tcmu_open(("memstore/" + image).c_str(), kG2Bytes, 512, &error);
  ASSERT_NE(lun, nullptr) << take(error);
  EXPECT_EQ(memstore_tcmu_size_bytes(lun), kG2Bytes);
  Buffers tur({0});
  EXPECT_EQ(run(lun, {0, 0, 0, 0, 0, 0}, tur), MEMSTORE_TCMU_GOOD);
  EXPECT_THAT(take(memstore_tcmu_close(lun)), StartsWith("g2, realtime: 1 timed completions"));
}

TEST(TcmuHandlerCore, InquiryScattersOverIovecs) {
  LunPtr lun = open_ok("memory;timing=off");
  Buffers b({5, 20, 71});
  ASSERT_EQ(run(lun.get(), {0x12, 0, 0, 0, 96, 0}, b), MEMSTORE_TCMU_GOOD);
  const auto data = b.joined();
  EXPECT_EQ(data[0], 0x00);  // direct-access block device
  EXPECT_EQ(std::string(data.begin() + 16, data.begin() + 27), "MEMStore G2");
}

// TCMU cannot report a residual: the initiator gets the whole buffer, so
// what the result does not fill is zeroed rather than left as the kernel's
// data area had it (an earlier command's data).
TEST(TcmuHandlerCore, ShortDataInIsZeroPadded) {
  LunPtr lun = open_ok("memory;timing=off");
  Buffers b({100, 155});  // 0xEE everywhere
  ASSERT_EQ(run(lun.get(), {0x12, 0, 0, 0, 255, 0}, b), MEMSTORE_TCMU_GOOD);
  const auto data = b.joined();
  const std::size_t n = 5u + data[4];  // the standard INQUIRY data's length
  ASSERT_LT(n, data.size());
  for (std::size_t i = n; i < data.size(); ++i) ASSERT_EQ(data[i], 0) << "byte " << i;
}

TEST(TcmuHandlerCore, DataOutBufferIsLeftAlone) {
  LunPtr lun = open_ok("memory;timing=off");
  Buffers out({1024});
  ASSERT_EQ(run(lun.get(), {0x2A, 0, 0, 0, 0, 9, 0, 0, 1, 0}, out), MEMSTORE_TCMU_GOOD);
  EXPECT_EQ(out.parts[0][600], 0xEE);  // beyond the one block written: untouched
}

TEST(TcmuHandlerCore, ReadCapacity16) {
  LunPtr lun = open_ok("memory;timing=off");
  Buffers b({32});
  ASSERT_EQ(run(lun.get(), {0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0}, b),
            MEMSTORE_TCMU_GOOD);
  const auto d = b.joined();
  std::uint64_t last = 0;
  for (int i = 0; i < 8; ++i) last = last << 8 | d[static_cast<std::size_t>(i)];
  EXPECT_EQ(last, 6'749'999u);
}

TEST(TcmuHandlerCore, WriteGathersAndReadScatters) {
  LunPtr lun = open_ok("memory;timing=off");
  Buffers out({100, 700, 224});  // 1024 bytes: two blocks
  std::uint8_t v = 1;
  for (auto& p : out.parts) {
    for (auto& byte : p) byte = v++;
  }
  ASSERT_EQ(run(lun.get(), {0x2A, 0, 0, 0, 0, 42, 0, 0, 2, 0}, out), MEMSTORE_TCMU_GOOD);
  Buffers in({512, 1, 511});
  ASSERT_EQ(run(lun.get(), {0x28, 0, 0, 0, 0, 42, 0, 0, 2, 0}, in), MEMSTORE_TCMU_GOOD);
  EXPECT_EQ(in.joined(), out.joined());
}

TEST(TcmuHandlerCore, CheckConditionCopiesTheSense) {
  LunPtr lun = open_ok("memory;timing=off");
  Buffers none({0});
  std::uint8_t sense[96];
  std::memset(sense, 0xAA, sizeof sense);
  // An opcode the device does not have: INVALID COMMAND OPERATION CODE.
  ASSERT_EQ(run(lun.get(), {0xA7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, none, sense),
            MEMSTORE_TCMU_CHECK_CONDITION);
  EXPECT_EQ(sense[0] & 0x7F, 0x70);
  EXPECT_EQ(sense[2] & 0x0F, 0x05);
  EXPECT_EQ(sense[12], 0x20);
  EXPECT_EQ(sense[95], 0);  // the rest is cleared
  // READ(10) past the end: LOGICAL BLOCK ADDRESS OUT OF RANGE.
  Buffers in({512});
  ASSERT_EQ(run(lun.get(), {0x28, 0, 0, 0x67, 0, 0, 0, 0, 1, 0}, in, sense),
            MEMSTORE_TCMU_CHECK_CONDITION);
  EXPECT_EQ(sense[12], 0x21);
}

// The lines the core logs, as the shell hands them to tcmu-runner's log.
struct LogLines {
  std::mutex mu;
  std::vector<std::string> lines;
  static void add(void* context, memstore_tcmu_log_level, const char* message) {
    auto* self = static_cast<LogLines*>(context);
    std::lock_guard lock(self->mu);
    self->lines.emplace_back(message);
  }
  std::string all() {
    std::lock_guard lock(mu);
    std::string s;
    for (const std::string& l : lines) s += l + "\n";
    return s;
  }
};

std::vector<std::uint8_t> block_io(std::uint8_t op, std::uint8_t lba) {
  return {op, 0, 0, 0, 0, lba, 0, 0, 1, 0};
}

// A power cut under LIO (docs/crash-consistency.md, "Under LIO"): the
// command that meets the rule and every command that arrives while the
// power is off wait for off_ms, then are answered with POWER ON
// (06h/29h/00h), neither carried out; the next command meets the LUN's own
// unit attention. The volatile cache lost what the host had not flushed,
// the flushed write survived, and the log says which write lost which
// blocks.
TEST(TcmuHandlerCore, PowerCutHoldsTheLunThenReportsPowerOn) {
  using Clock = std::chrono::steady_clock;
  scsi::testing::TempDir dir;
  const std::string faults = dir.file("faults.toml");
  std::ofstream(faults) << "[[fault]]\nop = \"write\"\nevery = 3\nonce = true\n"
                           "action = \"power-cut\"\noff_ms = 400\n";
  LogLines log;  // outlives the LUN, which logs until it is closed
  LunPtr lun = open_ok("memory;timing=off;durability=volatile;faults=" + faults);
  memstore_tcmu_set_log(lun.get(), LogLines::add, &log, "ms0");

  Buffers a({512}), b({512}), c({512}), none({0});
  for (auto* buf : {&a, &b, &c}) std::memset(buf->parts[0].data(), 0xAA, 512);
  ASSERT_EQ(run(lun.get(), block_io(0x2A, 10), a), MEMSTORE_TCMU_GOOD);  // write 1
  ASSERT_EQ(run(lun.get(), {0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0}, none), MEMSTORE_TCMU_GOOD);  // flush
  ASSERT_EQ(run(lun.get(), block_io(0x2A, 30), b), MEMSTORE_TCMU_GOOD);  // write 2

  const Clock::time_point start = Clock::now();
  std::uint8_t cut_sense[96] = {};
  memstore_tcmu_status cut_status = MEMSTORE_TCMU_GOOD;
  Clock::time_point cut_back;
  std::thread cut([&] {  // the third write cuts the power
    cut_status = run(lun.get(), block_io(0x2A, 40), c, cut_sense);
    cut_back = Clock::now();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::uint8_t tur_sense[96] = {};
  std::thread held_write([&] {
    Buffers e({512});
    std::memset(e.parts[0].data(), 0xAA, 512);
    EXPECT_EQ(run(lun.get(), block_io(0x2A, 50), e), MEMSTORE_TCMU_CHECK_CONDITION);
  });
  const memstore_tcmu_status tur = run(lun.get(), {0, 0, 0, 0, 0, 0}, none, tur_sense);
  const Clock::time_point tur_back = Clock::now();
  cut.join();
  held_write.join();

  EXPECT_GE(cut_back - start, std::chrono::milliseconds(390));
  EXPECT_GE(tur_back - start, std::chrono::milliseconds(390));
  ASSERT_EQ(cut_status, MEMSTORE_TCMU_CHECK_CONDITION);
  EXPECT_EQ(cut_sense[2] & 0x0F, 0x06);  // UNIT ATTENTION
  EXPECT_EQ(cut_sense[12], 0x29);        // POWER ON, RESET, OR BUS DEVICE RESET OCCURRED
  EXPECT_EQ(cut_sense[13], 0x00);
  ASSERT_EQ(tur, MEMSTORE_TCMU_CHECK_CONDITION);
  EXPECT_EQ(tur_sense[2] & 0x0F, 0x06);
  EXPECT_EQ(tur_sense[12], 0x29);
  // The LUN's own unit attention, reported once; then the LUN is back.
  EXPECT_EQ(run(lun.get(), {0, 0, 0, 0, 0, 0}, none, tur_sense), MEMSTORE_TCMU_CHECK_CONDITION);
  EXPECT_EQ(tur_sense[12], 0x29);
  EXPECT_EQ(run(lun.get(), {0, 0, 0, 0, 0, 0}, none), MEMSTORE_TCMU_GOOD);

  const std::vector<std::uint8_t> data(512, 0xAA), zero(512, 0);
  Buffers in({512});
  ASSERT_EQ(run(lun.get(), block_io(0x28, 10), in), MEMSTORE_TCMU_GOOD);
  EXPECT_EQ(in.joined(), data);  // flushed before the cut
  ASSERT_EQ(run(lun.get(), block_io(0x28, 30), in), MEMSTORE_TCMU_GOOD);
  EXPECT_EQ(in.joined(), zero);  // volatile at the cut: drop-all lost it
  ASSERT_EQ(run(lun.get(), block_io(0x28, 40), in), MEMSTORE_TCMU_GOOD);
  EXPECT_EQ(in.joined(), zero);  // the write the cut took was never carried out
  ASSERT_EQ(run(lun.get(), block_io(0x28, 50), in), MEMSTORE_TCMU_GOOD);
  EXPECT_EQ(in.joined(), zero);  // nor the one that came while the power was off

  const std::string lines = log.all();
  EXPECT_THAT(lines, HasSubstr("ms0: power cut (fault rule 1): policy drop-all, seed 1, after 1 "
                               "flushes: 1 volatile writes, 1 blocks lost, 0 kept"));
  EXPECT_THAT(lines, HasSubstr("ms0: write 2 (LBA 30, 1 blocks, after flush 1): lost"));
  EXPECT_THAT(lines, HasSubstr("ms0: power on after 400 ms: 3 commands held answered "
                               "POWER ON (06h/29h/00h)"));
}

// Commands still arriving after the power came back run as before; a
// second cut (every = 2, not once) holds the LUN again.
TEST(TcmuHandlerCore, PowerCutsRepeat) {
  scsi::testing::TempDir dir;
  const std::string faults = dir.file("faults.toml");
  std::ofstream(faults) << "[[fault]]\nop = \"write\"\nevery = 2\n"
                           "action = \"power-cut\"\noff_ms = 50\n";
  LunPtr lun = open_ok("memory;timing=off;durability=volatile;faults=" + faults);
  Buffers a({512}), none({0});
  std::uint8_t sense[96];
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(run(lun.get(), block_io(0x2A, 1), a), MEMSTORE_TCMU_GOOD) << round;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(run(lun.get(), block_io(0x2A, 2), a, sense), MEMSTORE_TCMU_CHECK_CONDITION);
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(45));
    EXPECT_EQ(sense[12], 0x29);
    // The LUN's own unit attention, then nothing pending.
    EXPECT_EQ(run(lun.get(), {0, 0, 0, 0, 0, 0}, none, sense), MEMSTORE_TCMU_CHECK_CONDITION);
    EXPECT_EQ(sense[12], 0x29);
    EXPECT_EQ(run(lun.get(), {0, 0, 0, 0, 0, 0}, none), MEMSTORE_TCMU_GOOD);
  }
}

// tcmu-runner cuts a message at its 256-byte buffer and loses the newline:
// a long line goes in pieces at spaces, each after the first marked as
// going on, and nothing is lost.
TEST(TcmuHandlerCore, LongLogLinesGoInPieces) {
  EXPECT_EQ(log_pieces("short line", "ms0"), std::vector<std::string>{"short line"});
  std::string line = "ms0: write 7 (LBA 100, 128 blocks, after flush 3): torn; kept";
  for (int i = 0; i < 64; ++i) line += " " + std::to_string(100 + 2 * i) + "+1";
  const std::vector<std::string> pieces = log_pieces(line, "ms0", 60);
  ASSERT_GT(pieces.size(), 5u);
  std::string joined = pieces[0];
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    EXPECT_LE(pieces[i].size(), 60u) << pieces[i];
    if (i == 0) continue;
    EXPECT_THAT(pieces[i], StartsWith("ms0: ... "));
    joined += " " + pieces[i].substr(9);
  }
  EXPECT_EQ(joined, line);
  // A word longer than a piece is cut anyway.
  const std::string word(150, 'x');
  for (const std::string& p : log_pieces(word, "ms0", 60)) EXPECT_LE(p.size(), 60u);
}

// A torn cut of many writes: every line the shell gets fits tcmu-runner's
// buffer.
TEST(TcmuHandlerCore, PowerCutLinesFitTcmuRunnersLog) {
  scsi::testing::TempDir dir;
  const std::string faults = dir.file("faults.toml");
  std::ofstream(faults) << "[[fault]]\nop = \"write\"\nevery = 9\nonce = true\n"
                           "action = \"power-cut\"\npolicy = \"torn\"\noff_ms = 0\n";
  LogLines log;  // outlives the LUN, which logs until it is closed
  LunPtr lun = open_ok("memory;timing=off;durability=volatile;cache_mb=8;faults=" + faults);
  memstore_tcmu_set_log(lun.get(), LogLines::add, &log, "ms0");
  Buffers big({128 * 512});
  std::uint8_t sense[96];
  for (std::uint8_t i = 0; i < 9; ++i) {
    std::vector<std::uint8_t> cdb = {0x2A, 0, 0, 0, 0, 0, 0, 0, 128, 0};
    cdb[4] = i;  // LBA i * 256
    run(lun.get(), cdb, big, sense);
  }
  std::lock_guard lock(log.mu);
  ASSERT_GT(log.lines.size(), 8u);
  bool continued = false;
  for (const std::string& l : log.lines) {
    EXPECT_LE(l.size(), kMaxLogLine) << l;
    continued = continued || l.starts_with("ms0: ... ");
  }
  EXPECT_TRUE(continued);
}

TEST(TcmuHandlerCore, CdbLengthAsLinuxCopiesIt) {
  const auto len = [](std::initializer_list<std::uint8_t> bytes) {
    std::vector<std::uint8_t> cdb(bytes);
    cdb.resize(16, 0);
    return cdb_length(cdb.data());
  };
  EXPECT_EQ(len({0x00}), 6u);                         // TEST UNIT READY
  EXPECT_EQ(len({0x12}), 6u);                         // INQUIRY
  EXPECT_EQ(len({0x28}), 10u);                        // READ(10)
  EXPECT_EQ(len({0x3B}), 10u);                        // WRITE BUFFER
  EXPECT_EQ(len({0x5A}), 10u);                        // MODE SENSE(10)
  EXPECT_EQ(len({0x88}), 16u);                        // READ(16)
  EXPECT_EQ(len({0x9E}), 16u);                        // SERVICE ACTION IN(16)
  EXPECT_EQ(len({0xA0}), 12u);                        // REPORT LUNS
  EXPECT_EQ(len({0xC5}), 10u);                        // vendor: as the kernel sizes it
  EXPECT_EQ(len({0x7F, 0, 0, 0, 0, 0, 0, 24}), 32u);  // variable length
}

}  // namespace
}  // namespace memstore::tcmu
