// SPDX-License-Identifier: Apache-2.0
// memsctl's LBN:COUNT[@FILE] syntax: every error names the option and the
// argument as typed.
#include "host/memsctl_args.h"

#include <gtest/gtest.h>

namespace memstore::memsctl {
namespace {

std::string error_of(std::string_view text, bool file_required = false) {
  auto r = parse_extent(file_required ? "--write" : "--read", text, file_required);
  return !r.ok() ? r.error().message : "";
}

TEST(MemsctlArgs, ParsesExtents) {
  EXPECT_EQ(parse_extent("--read", "100:4", false).value(), (ExtentSpec{100, 4, ""}));
  EXPECT_EQ(parse_extent("--write", "0:1@data.bin", true).value(), (ExtentSpec{0, 1, "data.bin"}));
  EXPECT_EQ(parse_extent("--read", "7:2@out:x.bin", false).value(),
            (ExtentSpec{7, 2, "out:x.bin"}));
}

TEST(MemsctlArgs, ErrorsNameTheArgument) {
  EXPECT_EQ(error_of("12x:4"), "--read 12x:4: LBN '12x' is not a number");
  EXPECT_EQ(error_of("12"), "--read 12: expected LBN:COUNT or LBN:COUNT@FILE");
  EXPECT_EQ(error_of("12:"), "--read 12:: COUNT '' is not a number");
  EXPECT_EQ(error_of("12:0"), "--read 12:0: COUNT must be at least 1");
  EXPECT_EQ(error_of("-1:2"), "--read -1:2: LBN '-1' is not a number");
  EXPECT_EQ(error_of("1:4294967296"),
            "--read 1:4294967296: COUNT must fit in 32 bits (at most 4294967295)");
  EXPECT_EQ(error_of("1:2@"), "--read 1:2@: the file name after '@' is empty");
  EXPECT_EQ(error_of("1:2", true),
            "--write 1:2: expected LBN:COUNT@FILE (the data to write comes from FILE)");
  EXPECT_EQ(error_of("99999999999999999999:1"),
            "--read 99999999999999999999:1: LBN '99999999999999999999' is not a number");
}

TEST(MemsctlArgs, ParsesUnsigned) {
  EXPECT_EQ(parse_u64("0"), 0u);
  EXPECT_EQ(parse_u64("18446744073709551615"), 18446744073709551615u);
  EXPECT_FALSE(parse_u64("18446744073709551616"));
  EXPECT_FALSE(parse_u64(""));
  EXPECT_FALSE(parse_u64(" 1"));
  EXPECT_FALSE(parse_u64("+1"));
}

TEST(MemsctlArgs, SchedulerListComesFromThePageCodec) {
  EXPECT_EQ(scheduler_list(), "fcfs, clook, sstf, sptf, asptf, sdf, zsptf, zfcfs, ztsptf");
}

}  // namespace
}  // namespace memstore::memsctl
