#include "sim/sweep_shard.h"

#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

constexpr const char* kHeader = "a,b";

std::string shard_file(std::int64_t i, std::int64_t n, std::int64_t points, const std::string& rows,
                       const std::string& args = "x=1") {
  return shard_comment({i, n}, points, args) + "\npoint,a,b\n" + rows;
}

TEST(SweepShard, ParsesIOverN) {
  std::string error;
  const auto s = parse_shard("2/4", error);
  ASSERT_TRUE(s.has_value()) << error;
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 4);
  for (const char* bad : {"4/4", "0/0", "-1/4", "1", "1/", "/4", "1/4x", "a/b", "1/-4"}) {
    EXPECT_FALSE(parse_shard(bad, error).has_value()) << bad;
    EXPECT_NE(error.find("--shard"), std::string::npos);
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
  std::string error;
  const auto out = merge_shards(
      {{"s1", shard_file(1, 2, 4, "1,r1\n3,r3\n")}, {"s0", shard_file(0, 2, 4, "0,r0\n2,r2")}},
      kHeader, error);
  ASSERT_TRUE(out.has_value()) << error;
  EXPECT_EQ(*out, "a,b\nr0\nr1\nr2\nr3\n");
}

TEST(SweepShard, MergeRejectsWhatAJobArrayCanGetWrong) {
  std::string error;
  const ShardInput s0{"s0", shard_file(0, 2, 4, "0,r0\n2,r2\n")};
  const ShardInput s1{"s1", shard_file(1, 2, 4, "1,r1\n3,r3\n")};
  // A missing shard, a repeated one, one cut short, one from another sweep,
  // a row in the wrong shard, and a file that is no shard at all.
  EXPECT_FALSE(merge_shards({s0}, kHeader, error));
  EXPECT_NE(error.find("shard 1/2 is missing"), std::string::npos) << error;
  EXPECT_FALSE(merge_shards({s0, s1, s1}, kHeader, error));
  EXPECT_FALSE(merge_shards({s0, {"s1", shard_file(1, 2, 4, "1,r1\n")}}, kHeader, error));
  EXPECT_NE(error.find("3 of 4 points"), std::string::npos) << error;
  EXPECT_FALSE(
      merge_shards({s0, {"s1", shard_file(1, 2, 4, "1,r1\n3,r3\n", "x=2")}}, kHeader, error));
  EXPECT_FALSE(merge_shards({s0, {"s1", shard_file(1, 2, 4, "1,r1\n2,r3\n")}}, kHeader, error));
  EXPECT_FALSE(merge_shards({s0, {"s1", "a,b\nr1\n"}}, kHeader, error));
  EXPECT_FALSE(merge_shards({}, kHeader, error));
}

}  // namespace
}  // namespace memstore::sim
