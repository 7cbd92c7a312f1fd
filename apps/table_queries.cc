// SPDX-License-Identifier: Apache-2.0
#include "apps/table_queries.h"

#include <chrono>
#include <random>

#include "apps/batching.h"
#include "apps/random.h"

namespace memstore::apps {
namespace {

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

std::string attribute_names(AttributeMask m) {
  std::string s;
  for (std::size_t a = 0; a < kMaxAttributes; ++a) {
    if ((m >> a) & 1U) s += (s.empty() ? "a" : "+a") + num(a + 1);
  }
  return s;
}

using Clock = std::chrono::steady_clock;

}  // namespace

std::vector<Query> standard_queries(const TableSchema& schema, const QuerySettings& s) {
  const std::uint64_t r = schema.records;
  const AttributeMask all = all_attributes(schema);
  std::vector<Query> q;
  q.push_back({"full scan", {{0, r}}, all});
  q.push_back({attribute_names(s.single) + " scan", {{0, r}}, s.single & all});
  q.push_back({attribute_names(s.pair) + " scan", {{0, r}}, s.pair & all});
  std::mt19937_64 rng(s.seed);
  const std::uint64_t span = std::min(s.short_scan_records, r);
  const AttributeMask short_mask = s.short_attributes & all;
  const std::string short_what = short_mask == all ? "" : " " + attribute_names(short_mask);
  Query shorts{
      num(span) + "-record" + short_what + " scans (" + num(s.short_scans) + ")", {}, short_mask};
  for (std::uint64_t i = 0; i < s.short_scans && r > 0; ++i) {
    shorts.units.push_back({uniform_below(rng, r - span + 1), span});
  }
  q.push_back(std::move(shorts));
  Query reads{"random record reads (" + num(s.random_reads) + ")", {}, all};
  for (std::uint64_t i = 0; i < s.random_reads && r > 0; ++i) {
    reads.units.push_back({uniform_below(rng, r), 1});
  }
  q.push_back(std::move(reads));
  return q;
}

host::Result<QueryRun> run_query(BlockDevice& device, const TableLayout& layout, const Query& q,
                                 bool verify) {
  const auto start = Clock::now();
  QueryRun run;
  run.query = q.name;
  run.layout = layout.name();
  run.units = q.units.size();
  const BatchLimits limits = limits_of(device);
  const std::uint32_t bs = device.block_size();
  Bytes expected(bs);
  for (const RecordRange& unit : q.units) {
    const std::vector<Lbn> blocks = layout.blocks_for(unit.first, unit.count, q.attributes);
    const std::vector<Extent> extents = merge_runs(blocks, Op::kRead);
    for (const std::vector<Extent>& batch : split_batches(extents, limits)) {
      auto done = device.read(batch);
      if (!done.ok()) return done.error();
      ++run.batches;
      run.service_ns += done->service_ns;
      run.reported_us += reported_us(done->service_ns);
      run.media_steps += done->media_steps;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        run.blocks += batch[i].blocks;
        if (!verify || done->data.empty()) continue;
        for (std::uint32_t b = 0; b < batch[i].blocks; ++b) {
          const Lbn lbn = batch[i].lbn + b;
          layout.block_image(lbn, expected);
          const auto got = std::span(done->data[i]).subspan(std::size_t{b} * bs, bs);
          if (!std::equal(got.begin(), got.end(), expected.begin())) {
            return host::bad_response(q.name + " on the " + layout.name() + " layout: block " +
                                      num(lbn) + " does not hold what the layout put there");
          }
          ++run.verified_blocks;
        }
      }
    }
  }
  run.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  return run;
}

host::Result<QueryRun> load_table(BlockDevice& device, const TableLayout& layout,
                                  const TableSchema& schema) {
  const auto start = Clock::now();
  QueryRun run;
  run.query = "load";
  run.layout = layout.name();
  run.units = 1;
  const std::uint32_t bs = device.block_size();
  const std::vector<Lbn> blocks = layout.blocks_for(0, schema.records, all_attributes(schema));
  const std::vector<Extent> extents = merge_runs(blocks, Op::kWrite);
  Bytes data;
  for (const std::vector<Extent>& batch : split_batches(extents, limits_of(device))) {
    data.clear();
    for (const Extent& e : batch) {
      for (std::uint32_t b = 0; b < e.blocks; ++b) {
        data.resize(data.size() + bs);
        layout.block_image(e.lbn + b, std::span(data).last(bs));
      }
      run.blocks += e.blocks;
    }
    auto done = device.submit(batch, data, {});
    if (!done.ok()) return done.error();
    ++run.batches;
    run.service_ns += done->service_ns;
    run.reported_us += reported_us(done->service_ns);
    run.media_steps += done->media_steps;
  }
  run.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  return run;
}

}  // namespace memstore::apps
