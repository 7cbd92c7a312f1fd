// SPDX-License-Identifier: Apache-2.0
// OwnedCommand: what LoopBridge posts to a LUN on another loop. The
// data-out buffer travels (the submitter's heap block itself, never a copy
// of a write's data) when the data starts at its owner's buffer; anything
// else is copied; the command it gives back points at what it owns, also
// after it has been moved (as a posted handler is).
#include "target/driver/owned_command.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace memstore::driver {
namespace {

const std::vector<std::uint8_t> kWrite10 = {0x2A, 0, 0, 0, 0x10, 0, 0, 0, 1, 0};

scsi::ScsiCommand write_of(std::span<const std::uint8_t> data, scsi::Bytes* owner) {
  scsi::ScsiCommand c;
  c.nexus = 3;
  c.tag = 9;
  c.cdb = kWrite10;
  c.data_out = data;
  c.data_out_buffer = 4096;
  c.data_out_owner = owner;
  return c;
}

TEST(OwnedCommand, TakesTheOwnersBufferInsteadOfCopyingTheData) {
  scsi::Bytes session(600, 0x5A);  // longer than its data, as a session's may be
  const std::uint8_t* block = session.data();
  OwnedCommand owned(write_of(std::span(session).first(512), &session));
  EXPECT_TRUE(session.empty());  // the submitter keeps an empty buffer
  OwnedCommand moved = std::move(owned);
  const scsi::ScsiCommand c = moved.command();
  EXPECT_EQ(c.data_out.data(), block);
  EXPECT_EQ(c.data_out.size(), 512u);
  ASSERT_NE(c.data_out_owner, nullptr);
  EXPECT_EQ(c.data_out_owner->data(), block);  // offered on: the Lun may keep it
  EXPECT_EQ(c.nexus, 3u);
  EXPECT_EQ(c.tag, 9u);
  EXPECT_EQ(c.data_out_buffer, 4096u);
  EXPECT_TRUE(std::equal(c.cdb.begin(), c.cdb.end(), kWrite10.begin(), kWrite10.end()));
  EXPECT_NE(c.cdb.data(), kWrite10.data());  // a copy: the caller's CDB may go
}

TEST(OwnedCommand, CopiesDataItsOwnerDoesNotStartWith) {
  scsi::Bytes session(600, 0x5A);
  OwnedCommand owned(write_of(std::span(session).subspan(88, 512), &session));
  EXPECT_EQ(session.size(), 600u);  // left alone
  const scsi::ScsiCommand c = owned.command();
  EXPECT_NE(c.data_out.data(), session.data() + 88);
  EXPECT_EQ(scsi::Bytes(c.data_out.begin(), c.data_out.end()), scsi::Bytes(512, 0x5A));
}

TEST(OwnedCommand, CopiesDataWithoutAnOwnerAndLeavesAReadsBufferAlone) {
  const scsi::Bytes data(512, 0x11);
  OwnedCommand copied(write_of(data, nullptr));
  EXPECT_EQ(scsi::Bytes(copied.command().data_out.begin(), copied.command().data_out.end()), data);
  scsi::Bytes session(600, 0x5A);
  OwnedCommand read(write_of(std::span(session).first(0), &session));
  EXPECT_EQ(session.size(), 600u);  // no data: nothing taken
  EXPECT_TRUE(read.command().data_out.empty());
}

}  // namespace
}  // namespace memstore::driver
