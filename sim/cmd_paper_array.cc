// SPDX-License-Identifier: Apache-2.0
// memsim paper-array: Figures 5, 6 and 10 of Uysal, Merchant and Alvarez (FAST '03) on the
// paper's architectures (sim/paper_array.h) and configurations (sim/paper_setup.h). CSV on
// stdout, one row per plotted value.
#include "sim/cmd_paper_array.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "sim/paper_setup.h"
#include "sim/trace.h"

namespace memstore::sim {
namespace {

int fail(const std::string& why) {
  std::cerr << "memsim: paper-array: " << why << "\n";
  return 1;
}

// Figure 5's CSV (this command's own): architecture -> max_throughput_iops.
bool read_fig5(const std::string& path, std::map<std::string, double>& out) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line) || line.rfind("architecture,max_throughput_iops,", 0) != 0)
    return false;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string name, iops;
    if (!std::getline(row, name, ',') || !std::getline(row, iops, ',')) return false;
    out[name] = std::stod(iops);
  }
  return !out.empty();
}

PaperSetup setup(const PaperArrayArgs& a) {
  PaperSetup s;
  s.banks = a.banks;
  return s;
}

PaperWorkload workload(const PaperArrayArgs& a) {
  PaperWorkload w;  // §4.2: 4 KB mean, 67% reads, uniform, exponential gaps
  w.seed = a.seed;
  return w;
}

// Figure 5: every configuration's maximum throughput and its normal-usage latency.
int figure5(const PaperArrayArgs& a) {
  const PaperSetup s = setup(a);
  std::cout << "architecture,max_throughput_iops,normal_latency_ms,disks,chips,"
               "read_hits_at_max,writes_waited_at_max\n";
  for (const PaperConfig& c : figure5_configs(s)) {
    const Expected<PaperPoint> p =
        measure_paper_point(s, c, workload(a), a.max_requests, a.half_requests);
    if (!p.ok()) return fail(p.error().message);
    std::cout << c.name << "," << std::fixed << std::setprecision(1) << p->max_iops << ","
              << std::setprecision(3) << p->normal_ms << "," << c.disks << "," << c.chips << ","
              << p->at_max.read_hits << "," << p->at_max.writes_waited << "\n"
              << std::flush;
  }
  return 0;
}

// Figure 6: LogDisk+K's maximum throughput against the read fraction, 4 KB and 64 KB IOs.
int figure6(const PaperArrayArgs& a) {
  const PaperSetup s = setup(a);
  std::cout << "size_kb,read_fraction,variant,disks,max_throughput_iops\n";
  for (const double size_kb : {4.0, 64.0}) {
    for (const double reads : a.read_fractions) {
      for (const std::int64_t k : a.ks) {
        const PaperConfig c = logdisk_k(s, static_cast<std::int32_t>(k));
        PaperWorkload w = workload(a);
        w.size_kb = size_kb;
        w.fixed_size = true;
        w.read_fraction = reads;
        const Expected<PaperPoint> p = measure_paper_point(s, c, w, a.max_requests, 0);
        if (!p.ok()) return fail(p.error().message);
        std::cout << std::setprecision(0) << std::fixed << size_kb << "," << std::setprecision(2)
                  << reads << "," << c.name << "," << c.disks << "," << std::setprecision(1)
                  << p->max_iops << "\n"
                  << std::flush;
      }
    }
  }
  return 0;
}

// Figure 10: maximum throughput per dollar at MEMS/disk cost ratios 1 to 10 (§4.3.4), on the
// synthetic workload standing in for the paper's traces. With --max-from, the maximum
// throughputs are Figure 5's, read from its CSV, instead of measured again.
int figure10(const PaperArrayArgs& a) {
  const PaperSetup s = setup(a);
  std::map<std::string, double> from_fig5;
  if (!a.max_from.empty() && !read_fig5(a.max_from, from_fig5)) {
    return fail("--max-from: cannot read " + a.max_from + " as Figure 5's CSV");
  }
  std::cout << "architecture,cost_ratio,cost_dollars,max_throughput_iops,iops_per_kilodollar\n";
  for (const PaperConfig& c : figure5_configs(s)) {
    if (c.name.rfind("Isocost", 0) == 0) continue;
    double max_iops = 0;
    if (!a.max_from.empty()) {
      const auto found = from_fig5.find(c.name);
      if (found == from_fig5.end()) return fail(a.max_from + " has no row for " + c.name);
      max_iops = found->second;
    } else {
      const Expected<PaperPoint> p = measure_paper_point(s, c, workload(a), a.max_requests, 0);
      if (!p.ok()) return fail(p.error().message);
      max_iops = p->max_iops;
    }
    for (int x = 1; x <= 10; ++x) {
      CostModel m;
      m.mems_to_disk_ratio = x;
      const double dollars = array_cost_dollars(m, c.bill);
      std::cout << c.name << "," << x << "," << std::fixed << std::setprecision(0) << dollars << ","
                << std::setprecision(1) << max_iops << "," << std::setprecision(3)
                << max_iops / dollars * 1000 << "\n"
                << std::flush;
    }
  }
  return 0;
}

// §4.3.3: the trace on every configuration of Figure 5, at each scale factor.
int replay(const PaperArrayArgs& a) {
  const std::optional<TraceFormat> format = parse_trace_format(a.trace_format);
  if (!format) return fail("--trace-format: must be disksim or spc");
  const PaperSetup s = setup(a);
  std::cout << "architecture,scale,requests,mean_response_ms,mean_read_ms,mean_write_ms\n";
  for (const PaperConfig& c : figure5_configs(s)) {
    for (const double scale : a.scales) {
      std::ifstream in(a.trace);
      if (!in) return fail("--trace: cannot open " + a.trace);
      TraceOptions to;
      to.scale = scale;
      to.capacity_blocks = c.params.volume_blocks;  // a larger trace folds into the LU
      TraceReader reader(in, *format, to);
      const Expected<PaperArrayStats> run = run_paper_config_on(s, c, requests_of(reader));
      if (const Status read = reader.status(); !read.ok()) {
        return fail(a.trace + ": " + read.error().message);
      }
      if (!run.ok()) return fail(run.error().message);
      const PaperArrayStats& st = *run;
      std::cout << c.name << "," << scale << "," << st.requests << "," << std::fixed
                << std::setprecision(3) << st.mean_response_ms() << "," << st.mean_read_ms() << ","
                << st.mean_write_ms() << std::defaultfloat << "\n"
                << std::flush;
    }
  }
  return 0;
}

}  // namespace

int cmd_paper_array(const PaperArrayArgs& a) {
  if (!a.trace.empty()) return replay(a);
  if (a.figure == 5) return figure5(a);
  if (a.figure == 6) return figure6(a);
  if (a.figure == 10) return figure10(a);
  std::cerr << "memsim: --figure: must be 5, 6 or 10\n";
  return 2;
}

}  // namespace memstore::sim
