// SPDX-License-Identifier: Apache-2.0
// --json for memsim's CSV commands (sim/csv_json.h): rows keyed by the
// header, integers and decimals as numbers, anything else as a string.
#include "sim/csv_json.h"

#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

TEST(CsvJson, RowsAreObjectsKeyedByTheHeaderWithNumbersAsNumbers) {
  const auto rows = csv_to_json("from,x,seek_ms\ncorner,0,0.25\ncentre,-3,1e-3\n\n");
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0]["from"], "corner");
  EXPECT_TRUE(rows[0]["x"].is_number_integer());
  EXPECT_EQ(rows[1]["x"], -3);
  EXPECT_TRUE(rows[0]["seek_ms"].is_number_float());
  EXPECT_DOUBLE_EQ(rows[1]["seek_ms"].get<double>(), 0.001);
  // Columns in the header's order, as the CSV has them.
  EXPECT_EQ(rows[0].begin().key(), "from");
}

TEST(CsvJson, AFieldThatIsNotWhollyANumberStaysAString) {
  const auto rows = csv_to_json("name,size\n12abc,1.5x\n");
  EXPECT_EQ(rows[0]["name"], "12abc");
  EXPECT_EQ(rows[0]["size"], "1.5x");
  EXPECT_TRUE(csv_to_json("only,a,header\n").empty());
}

}  // namespace
}  // namespace memstore::sim
