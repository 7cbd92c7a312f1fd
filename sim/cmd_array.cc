// SPDX-License-Identifier: Apache-2.0
// memsim array: the disk-array configurations of Uysal, Merchant and Alvarez, "Using
// MEMS-based storage in disk arrays" (FAST 2003), on synthetic workloads or a trace, each
// replayed 1x to 16x faster (sim/array.h; docs/disk-models.md, "Disk arrays").
//
// Every configuration holds the same logical volume: the capacity of `disks` disks. The
// MEMS-only array and the mirror's MEMS side take as many MEMStores as hold it (equal
// capacity); the cache and the mixed stripe take `cache_mems` and `stripe_mems`; the log
// one MEMStore. The paper's ranking, as its abstract states it: the MEMS-only array is the
// fastest and the conventional disk array the slowest, every hybrid lying between.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "model/device_factory.h"
#include "sim/array.h"
#include "sim/array_workload.h"
#include "sim/commands.h"
#include "sim/progress.h"
#include "sim/trace.h"

namespace memstore::sim {
namespace {

struct Measured {
  ArrayKind kind;
  std::int64_t mems = 0, disks = 0;
  double cost = 0;  // relative to the disk-only array
  ArrayStats stats;
};

struct Row {
  std::string workload;
  double speedup = 0;
  std::vector<Measured> configs;
  std::string error;  // a trace that failed part-way
};

std::unique_ptr<model::Device> device_or_report(const std::string& name,
                                                const std::vector<std::string>& set,
                                                const char* flag) {
  DeviceOptions o;
  o.device = name;
  o.set = set;
  auto d = build_device(o);
  if (!d.ok()) {
    std::cerr << "memsim: " << flag << ": " << d.error().message << "\n";
    return nullptr;
  }
  return std::move(d).value();
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// The configurations, fastest first, as "mems<mirror<...".
std::string order(const Row& r) {
  std::vector<const Measured*> v;
  for (const Measured& m : r.configs) v.push_back(&m);
  std::stable_sort(v.begin(), v.end(), [](const Measured* a, const Measured* b) {
    return a->stats.mean_response_ms() < b->stats.mean_response_ms();
  });
  std::string s;
  for (const Measured* m : v) s += (s.empty() ? "" : "<") + array_kind_name(m->kind);
  return s;
}

// The paper's ranking: MEMS-only fastest, disk-only slowest, every hybrid between.
bool ranking_holds(const Row& r) {
  double mems = -1, disk = -1;
  for (const Measured& m : r.configs) {
    if (m.kind == ArrayKind::kMemsOnly) mems = m.stats.mean_response_ms();
    if (m.kind == ArrayKind::kDiskOnly) disk = m.stats.mean_response_ms();
  }
  for (const Measured& m : r.configs) {
    const double ms = m.stats.mean_response_ms();
    if ((mems >= 0 && ms < mems) || (disk >= 0 && ms > disk)) return false;
  }
  return true;
}

nlohmann::ordered_json stats_json(const Measured& m) {
  const ArrayStats& s = m.stats;
  return {{"config", array_kind_name(m.kind)},
          {"mems_devices", m.mems},
          {"disks", m.disks},
          {"relative_cost", m.cost},
          {"requests", s.requests},
          {"response_ms", s.mean_response_ms()},
          {"read_ms", s.mean_read_ms()},
          {"write_ms", s.mean_write_ms()},
          {"reads_served_by_mems", s.reads_served_by_mems},
          {"mems_read_parts", s.mems_read_parts},
          {"mems_write_parts", s.mems_write_parts},
          {"disk_read_parts", s.disk_read_parts},
          {"disk_write_parts", s.disk_write_parts},
          {"cache_hits", s.cache_hits},
          {"cache_misses", s.cache_misses},
          {"cache_fills", s.cache_fills},
          {"cache_fills_skipped", s.cache_fills_skipped},
          {"cache_destages", s.cache_destages},
          {"log_read_hits", s.log_read_hits},
          {"log_bypassed_writes", s.log_bypassed_writes},
          {"log_segments_cleaned", s.log_segments_cleaned}};
}

}  // namespace

int cmd_array(const ArrayArgs& a) {
  if (a.disks < 1) {
    std::cerr << "memsim: --disks must be at least 1\n";
    return 2;
  }
  if (a.cache_mems < 1 || a.stripe_mems < 0) {
    std::cerr << "memsim: --cache-mems must be at least 1 and --stripe-mems at least 0\n";
    return 2;
  }
  std::vector<ArrayKind> kinds;
  for (const std::string& name : a.configs) {
    bool found = false;
    for (ArrayKind k : all_array_kinds()) {
      if (array_kind_name(k) == name) {
        kinds.push_back(k);
        found = true;
      }
    }
    if (!found) {
      std::cerr << "memsim: --configs: unknown configuration '" << name
                << "'; use disk, mems, mirror, cache, log, stripe\n";
      return 2;
    }
  }
  for (double speedup : a.speedups) {
    if (!(speedup > 0)) {
      std::cerr << "memsim: --speedups must be positive, got " << speedup << "\n";
      return 2;
    }
  }
  std::optional<TraceFormat> trace_format;
  std::vector<std::string> workloads = a.workloads;
  if (!a.trace.empty()) {
    trace_format = parse_trace_format(a.trace_format);
    if (!trace_format) {
      std::cerr << "memsim: --trace-format must be disksim or spc\n";
      return 2;
    }
    workloads = {"trace"};
  }
  for (const std::string& w : workloads) {
    if (w != "trace" && !array_workload(w)) {
      std::cerr << "memsim: --workloads: unknown workload '" << w << "'; use random, oltp, dss\n";
      return 2;
    }
  }
  auto probe_disk = device_or_report(a.disk, a.disk_set, "--disk/--disk-set");
  auto probe_mems = device_or_report(a.mems, a.mems_set, "--mems/--mems-set");
  if (!probe_disk || !probe_mems) return 2;
  ArrayParams params;
  params.stripe_blocks = static_cast<std::int32_t>(std::lround(a.stripe_kb * 2));
  params.line_blocks = static_cast<std::int32_t>(std::lround(a.line_kb * 2));
  if (params.stripe_blocks < 1 || params.line_blocks < 1) {
    std::cerr << "memsim: --stripe-kb and --line-kb must be at least 0.5 (one block)\n";
    return 2;
  }
  params.log.segments = a.log_segments;
  // The array's log cleans in the background between its own water marks (memsim's
  // choices for the array; `memsim wbuffer` has the write-buffer paper's blocking cleaner).
  params.log.high_water = 0.8;
  params.log.low_water = 0.5;
  if (params.log.segments * kSegmentBlocks > probe_mems->blocks()) {
    std::cerr << "memsim: --log-segments: the log (" << a.log_segments
              << " segments of 128 KB) does not fit on " << a.mems << "; at most "
              << probe_mems->blocks() / kSegmentBlocks << "\n";
    return 2;
  }
  const std::int64_t disk_rows = probe_disk->blocks() / params.stripe_blocks;
  params.volume_blocks = disk_rows * params.stripe_blocks * a.disks;
  const std::int64_t mems_rows = probe_mems->blocks() / params.stripe_blocks;
  const std::int64_t equal_mems = ceil_div(params.volume_blocks, mems_rows * params.stripe_blocks);
  const std::int64_t stripe_mems = a.stripe_mems > 0 ? a.stripe_mems : a.disks;
  // Relative cost: capacity times price per byte, MEMS at --mems-cost times the disk's.
  const double disk_bytes = static_cast<double>(probe_disk->blocks());
  const double mems_bytes = static_cast<double>(probe_mems->blocks());
  auto cost = [&](std::int64_t m, std::int64_t d) {
    return (static_cast<double>(d) * disk_bytes +
            a.mems_cost * static_cast<double>(m) * mems_bytes) /
           (static_cast<double>(a.disks) * disk_bytes);
  };

  std::vector<Row> rows;
  Progress progress("memsim array",
                    static_cast<std::int64_t>(workloads.size() * a.speedups.size() * kinds.size()),
                    "runs");
  for (const std::string& workload : workloads) {
    for (double speedup : a.speedups) {
      Row row;
      row.workload = workload;
      row.speedup = speedup;
      for (ArrayKind kind : kinds) {
        Measured m;
        m.kind = kind;
        switch (kind) {
          case ArrayKind::kDiskOnly:
            m.disks = a.disks;
            break;
          case ArrayKind::kMemsOnly:
            m.mems = equal_mems;
            break;
          case ArrayKind::kMirror:
            m.mems = equal_mems;
            m.disks = a.disks;
            break;
          case ArrayKind::kMemsCache:
            m.mems = a.cache_mems;
            m.disks = a.disks;
            break;
          case ArrayKind::kMemsLog:
            m.mems = 1;
            m.disks = a.disks;
            break;
          case ArrayKind::kMixedStripe:
            m.mems = stripe_mems;
            m.disks = a.disks;
            break;
        }
        m.cost = cost(m.mems, m.disks);
        std::vector<std::unique_ptr<model::Device>> owned;
        std::vector<model::Device*> mems, disks;
        for (std::int64_t i = 0; i < m.mems; ++i) {
          owned.push_back(device_or_report(a.mems, a.mems_set, "--mems"));
          mems.push_back(owned.back().get());
        }
        for (std::int64_t i = 0; i < m.disks; ++i) {
          owned.push_back(device_or_report(a.disk, a.disk_set, "--disk"));
          disks.push_back(owned.back().get());
        }
        Expected<ArrayStats> run = ArrayStats{};
        if (workload == "trace") {
          std::ifstream in(a.trace);
          if (!in) {
            std::cerr << "memsim: --trace: cannot open " << a.trace << "\n";
            return 1;
          }
          TraceOptions to;
          to.scale = speedup;
          to.capacity_blocks = params.volume_blocks;
          TraceReader reader(in, *trace_format, to);
          run = run_array(kind, params, mems, disks, requests_of(reader));
          if (const Status read = reader.status(); !read.ok()) {
            std::cerr << "memsim: " << a.trace << ": " << read.error().message << "\n";
            return 1;
          }
        } else {
          ArrayWorkloadSpec spec = *array_workload(workload);
          spec.requests = a.requests;
          spec.interarrival_ms = a.interarrival_ms / speedup;
          spec.seed = a.seed;
          spec.capacity_blocks = params.volume_blocks;
          ArrayWorkload w(spec);  // the same requests for every configuration
          // The cache starts warm: --warmup-requests more of the same workload (another
          // seed) pass through its bookkeeping first.
          ArrayWorkloadSpec warm_spec = spec;
          warm_spec.requests = a.warmup_requests;
          warm_spec.seed = a.seed + 0x9e3779b97f4a7c15ULL;
          ArrayWorkload warm(warm_spec);
          ArrayParams run_params = params;
          run_params.warmup = [&warm] { return warm.next(); };
          run = run_array(kind, run_params, mems, disks, [&w] { return w.next(); });
        }
        if (!run.ok()) {
          std::cerr << "memsim: " << array_kind_name(kind) << ": " << run.error().message
                    << " (check --disks, --log-segments, --stripe-kb)\n";
          return 2;
        }
        m.stats = *run;
        row.configs.push_back(m);
      }
      rows.push_back(std::move(row));
      progress.step(static_cast<std::int64_t>(kinds.size()));
    }
  }

  if (a.format == OutputFormat::kJson) {
    nlohmann::ordered_json runs = nlohmann::json::array();
    for (const Row& r : rows) {
      nlohmann::ordered_json configs = nlohmann::json::array();
      for (const Measured& m : r.configs) configs.push_back(stats_json(m));
      runs.push_back(
          {{"workload", r.workload},
           {"speedup", r.speedup},
           {"interarrival_ms", r.workload == "trace" ? 0 : a.interarrival_ms / r.speedup},
           {"configs", configs},
           {"order", order(r)},
           {"paper_ranking_holds", ranking_holds(r)}});
    }
    std::cout << nlohmann::ordered_json{{"disk", a.disk},
                                        {"disk_set", a.disk_set},
                                        {"mems_set", a.mems_set},
                                        {"mems", a.mems},
                                        {"disks", a.disks},
                                        {"volume_blocks", params.volume_blocks},
                                        {"stripe_kb", a.stripe_kb},
                                        {"line_kb", a.line_kb},
                                        {"log_segments", a.log_segments},
                                        {"mems_cost", a.mems_cost},
                                        {"requests", a.requests},
                                        {"warmup_requests", a.warmup_requests},
                                        {"seed", a.seed},
                                        {"runs", runs}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::printf(
      "workload,speedup,config,mems_devices,disks,relative_cost,response_ms,read_ms,"
      "write_ms,reads_served_by_mems,cache_hits,log_read_hits,order,paper_ranking_holds\n");
  for (const Row& r : rows) {
    const std::string ord = order(r);
    const char* holds = ranking_holds(r) ? "yes" : "no";
    for (const Measured& m : r.configs) {
      const ArrayStats& s = m.stats;
      std::printf("%s,%g,%s,%lld,%lld,%.2f,%.4f,%.4f,%.4f,%lld,%lld,%lld,%s,%s\n",
                  r.workload.c_str(), r.speedup, array_kind_name(m.kind).c_str(),
                  static_cast<long long>(m.mems), static_cast<long long>(m.disks), m.cost,
                  s.mean_response_ms(), s.mean_read_ms(), s.mean_write_ms(),
                  static_cast<long long>(s.reads_served_by_mems),
                  static_cast<long long>(s.cache_hits), static_cast<long long>(s.log_read_hits),
                  ord.c_str(), holds);
    }
  }
  return 0;
}

}  // namespace memstore::sim
