// SPDX-License-Identifier: Apache-2.0
// The C API's contract without a device: every bad argument is a code and a
// message, never a crash; the per-thread last error. The calls against a
// running memstored are in tests/integration/host_test.sh (examples/).
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "host/memstore_host.h"

namespace {

std::string last() {
  return memstore_last_error();
}

TEST(CApi, OpenRefusesBadArguments) {
  memstore_device* dev = reinterpret_cast<memstore_device*>(0x1);
  EXPECT_EQ(memstore_open(nullptr, nullptr, &dev), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "target is NULL");
  EXPECT_EQ(memstore_open("iscsi://x/y/0", nullptr, nullptr), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_open("disk0", nullptr, &dev), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(dev, nullptr);
  EXPECT_NE(last().find("neither an iSCSI URL"), std::string::npos) << last();
  EXPECT_EQ(memstore_open("/nonexistent/sg9", nullptr, &dev), MEMSTORE_ERR_TRANSPORT);
  EXPECT_NE(last().find("cannot open /nonexistent/sg9"), std::string::npos) << last();
  EXPECT_EQ(memstore_open("/dev/null", nullptr, &dev), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(last().find("not a SCSI device"), std::string::npos) << last();
  EXPECT_EQ(memstore_last_sense(nullptr, nullptr, nullptr), 0);
}

TEST(CApi, UnreachablePortalIsATransportError) {
  memstore_device* dev = nullptr;
  // Port 1 on loopback: nothing listens there.
  EXPECT_EQ(memstore_open("iscsi://127.0.0.1:1/iqn.2026-11.org.memstore:none/0", nullptr, &dev),
            MEMSTORE_ERR_TRANSPORT);
  EXPECT_EQ(dev, nullptr);
  EXPECT_NE(last().find("127.0.0.1:1"), std::string::npos) << last();
}

TEST(CApi, NullHandlesAreRefusedNotDereferenced) {
  uint32_t p = 0;
  size_t count = 0;
  int conflicting = 0;
  uint64_t first = 0, lastlbn = 0;
  unsigned char buf[512];
  memstore_batch* batch = nullptr;
  EXPECT_EQ(memstore_get_parallelism(nullptr, &p), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "dev is NULL");
  EXPECT_EQ(memstore_get_equivalent(nullptr, 0, -1, nullptr, 0, &count),
            MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_check_conflicting(nullptr, 0, 1, &conflicting), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_get_ensemble(nullptr, 0, &first, &lastlbn), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_read(nullptr, 0, 1, buf, sizeof buf), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_write(nullptr, 0, buf, sizeof buf), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_batch_new(nullptr, &batch), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_batch_add_read(nullptr, 0, 1, buf, sizeof buf), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_batch_add_write(nullptr, 0, buf, sizeof buf), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_batch_submit(nullptr, nullptr, 0, nullptr), MEMSTORE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(memstore_blocks(nullptr), 0u);
  EXPECT_EQ(memstore_block_size(nullptr), 0u);
  EXPECT_EQ(memstore_is_memstore(nullptr), 0);
  EXPECT_EQ(memstore_batch_size(nullptr), 0u);
  memstore_close(nullptr);
  memstore_batch_free(nullptr);
}

TEST(CApi, LastErrorIsPerThread) {
  EXPECT_EQ(memstore_get_parallelism(nullptr, nullptr), MEMSTORE_ERR_INVALID_ARGUMENT);
  std::string other;
  std::thread([&] { other = memstore_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_EQ(last(), "dev is NULL");
}

}  // namespace
