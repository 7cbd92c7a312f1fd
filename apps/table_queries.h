// SPDX-License-Identifier: Apache-2.0
// The queries of the 2D-table experiment (thesis §6.3.7) and how they are
// run against a layout on a BlockDevice.
//
// A query is a list of units; a unit is a set of records and attributes the
// scan operator wants at once (the whole table for a scan, 100 consecutive
// records for a short scan, one record for a random read). A unit's blocks
// (TableLayout::blocks_for) are read in LBN order as consecutive runs, in
// as few batches as mode page 20h allows; units run one after another,
// one batch outstanding at a time. The time of a query is the sum of its
// batches' modeled service times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/block_device.h"
#include "apps/table.h"
#include "host/result.h"

namespace memstore::apps {

struct RecordRange {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

struct Query {
  std::string name;
  std::vector<RecordRange> units;
  AttributeMask attributes = 0;
};

struct QuerySettings {
  std::uint64_t short_scans = 100;         // units of the short-scan query
  std::uint64_t short_scan_records = 100;  // records per short scan
  std::uint64_t random_reads = 1000;       // single-record reads
  std::uint64_t seed = 1;
  AttributeMask single = 1;                            // the single-attribute scan: a1
  AttributeMask pair = 3;                              // the two-attribute scan: a1 and a2
  AttributeMask short_attributes = ~AttributeMask{0};  // the short scans' (default: all)
};

// Full scan, single-attribute scan, two-attribute scan, short scans, random
// record reads; the random starts come from `seed` (the same for every layout).
std::vector<Query> standard_queries(const TableSchema& schema, const QuerySettings& s);

struct QueryRun {
  std::string query;
  std::string layout;
  std::uint64_t units = 0;
  std::uint64_t batches = 0;
  std::uint64_t blocks = 0;
  std::uint64_t media_steps = 0;
  std::int64_t service_ns = 0;
  std::int64_t reported_us = 0;
  std::uint64_t verified_blocks = 0;  // compared with the expected content
  double wall_s = 0;
};

// Runs `q` on `layout`. With `verify` and a device that returns data, every
// block read is compared with layout.block_image; a difference is a
// kBadResponse naming the block.
host::Result<QueryRun> run_query(BlockDevice& device, const TableLayout& layout, const Query& q,
                                 bool verify);

// Writes the whole table into the layout's blocks (batches of writes), so
// queries can be verified. The run reports the load's modeled time.
host::Result<QueryRun> load_table(BlockDevice& device, const TableLayout& layout,
                                  const TableSchema& schema);

}  // namespace memstore::apps
