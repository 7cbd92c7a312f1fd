// SPDX-License-Identifier: Apache-2.0
#include "sim/sweep_shard.h"

#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

constexpr const char* kHeader = "a,b";

std::string shard_file(std::int64_t i, std::int64_t n, std::int64_t points, const std::string& rows,
                       const std::string& args = "x=1") {
  return shard_comment({i, n}, points, args) + "\npoint,a,b\n" + rows;
}

// The message of a merge that must fail; "" if it succeeded.
std::string merge_error(const std::vector<ShardInput>& inputs) {
  const Expected<std::string> out = merge_shards(inputs, kHeader);
  return out.ok() ? std::string() : out.error().message;
}

TEST(SweepShard, ParsesIOverN) {
  const auto s = parse_shard("2/4");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 4);
  for (const char* bad : {"4/4", "0/0", "-1/4", "1", "1/", "/4", "1/4x", "a/b", "1/-4"}) {
    const auto b = parse_shard(bad);
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_NE(b.error().message.find("--shard"), std::string::npos);
  }
}

TEST(SweepShard, EveryPointInExactlyOneShard) {
  for (std::int64_t n = 1; n <= 5; ++n) {
    for (std::int64_t k = 0; k < 17; ++k) {
      int owners = 0;
      for (std::int64_t i = 0; i < n; ++i) owners += in_shard(k, {i, n}) ? 1 : 0;
      EXPECT_EQ(owners, 1) << k << " of " << n;
    }
  }
}

TEST(SweepShard, MergeOrdersRowsByPoint) {
  const auto out = merge_shards(
      {{"s1", shard_file(1, 2, 4, "1,r1\n3,r3\n")}, {"s0", shard_file(0, 2, 4, "0,r0\n2,r2")}},
      kHeader);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(*out, "a,b\nr0\nr1\nr2\nr3\n");
}

TEST(SweepShard, MergeRejectsWhatAJobArrayCanGetWrong) {
  const ShardInput s0{"s0", shard_file(0, 2, 4, "0,r0\n2,r2\n")};
  const ShardInput s1{"s1", shard_file(1, 2, 4, "1,r1\n3,r3\n")};
  // A missing shard, a repeated one, one cut short, one from another sweep,
  // a row in the wrong shard, and a file that is no shard at all.
  EXPECT_NE(merge_error({s0}).find("shard 1/2 is missing"), std::string::npos);
  EXPECT_NE(merge_error({s0, s1, s1}).find("given twice"), std::string::npos);
  EXPECT_NE(merge_error({s0, {"s1", shard_file(1, 2, 4, "1,r1\n")}}).find("3 of 4 points"),
            std::string::npos);
  EXPECT_NE(merge_error({s0, {"s1", shard_file(1, 2, 4, "1,r1\n3,r3\n", "x=2")}})
                .find("from a different sweep"),
            std::string::npos);
  EXPECT_NE(merge_error({s0, {"s1", shard_file(1, 2, 4, "1,r1\n2,r3\n")}}).find("not a row"),
            std::string::npos);
  EXPECT_NE(merge_error({s0, {"s1", "a,b\nr1\n"}}).find("not a memsim sweep shard"),
            std::string::npos);
  EXPECT_NE(merge_error({}).find("no shard files"), std::string::npos);
}

}  // namespace
}  // namespace memstore::sim
