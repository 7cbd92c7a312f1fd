// SPDX-License-Identifier: Apache-2.0
#include "target/control/metrics_families.h"

#include <prometheus/text_serializer.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "version/version.h"

namespace memstore::control {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

std::vector<ClientMetric::Label> labels_of(const LunSample& l) {
  return {{"target", l.target}, {"lun", std::to_string(l.id)}};
}

ClientMetric counter(std::vector<ClientMetric::Label> labels, double value) {
  ClientMetric m;
  m.label = std::move(labels);
  m.counter.value = value;
  return m;
}

ClientMetric gauge(std::vector<ClientMetric::Label> labels, double value) {
  ClientMetric m;
  m.label = std::move(labels);
  m.gauge.value = value;
  return m;
}

ClientMetric histogram(const LunSample& l) {
  const delivery::Lateness& late = l.lateness;
  ClientMetric m;
  m.label = labels_of(l);
  m.histogram.sample_count = late.count;
  m.histogram.sample_sum = static_cast<double>(late.sum_ns) / 1e9;
  std::size_t bucket = 0;
  std::uint64_t below = 0;
  for (const double bound : kLatenessBounds) {
    const auto bound_ns = static_cast<std::uint64_t>(bound * 1e9 + 0.5);
    while (bucket < late.buckets.size() &&
           delivery::Lateness::bucket_top(static_cast<int>(bucket)) <= bound_ns) {
      below += late.buckets[bucket++];
    }
    m.histogram.bucket.push_back({below, bound});
  }
  m.histogram.bucket.push_back({late.count, std::numeric_limits<double>::infinity()});
  return m;
}

// The LUN counters: name, help, and where each comes from.
struct LunCounter {
  const char* name;
  const char* help;
  double (*value)(const LunSample&);
};
constexpr LunCounter kLunCounters[] = {
    {"memstore_commands_total", "SCSI commands delivered.",
     [](const LunSample& l) { return static_cast<double>(l.counters.commands); }},
    {"memstore_reads_total", "Commands delivered that read the medium.",
     [](const LunSample& l) { return static_cast<double>(l.counters.reads); }},
    {"memstore_writes_total", "Commands delivered that write the medium.",
     [](const LunSample& l) { return static_cast<double>(l.counters.writes); }},
    {"memstore_check_conditions_total", "Commands that ended in CHECK CONDITION.",
     [](const LunSample& l) { return static_cast<double>(l.counters.check_conditions); }},
    {"memstore_faults_fired_total", "Commands an injected fault rule fired on.",
     [](const LunSample& l) { return static_cast<double>(l.faults_fired); }},
};

// /proc/self/stat's fields after the command's closing parenthesis (proc(5)).
std::vector<std::string> stat_fields() {
  std::ifstream in("/proc/self/stat");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream rest(text.substr(text.rfind(')') + 2));
  return {std::istream_iterator<std::string>(rest), std::istream_iterator<std::string>()};
}

double boot_time_s() {
  std::ifstream in("/proc/stat");
  for (std::string key; in >> key;) {
    if (key == "btime") {
      double t = 0;
      in >> t;
      return t;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

std::size_t open_fds() {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    (void)entry;
    ++n;
  }
  return n;
}

// The process figures Prometheus' client libraries export under these names.
void process_families(std::vector<MetricFamily>& out) {
  const std::vector<std::string> f = stat_fields();
  if (f.size() < 22) return;
  // proc(5), counting from state (field 3) at index 0: utime 14, stime 15,
  // starttime 22, vsize 23, rss 24.
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  const double cpu = (std::stod(f[11]) + std::stod(f[12])) / ticks;
  const double start = boot_time_s() + std::stod(f[19]) / ticks;
  out.push_back({"process_cpu_seconds_total",
                 "User and system CPU time spent in seconds.",
                 MetricType::Counter,
                 {counter({}, cpu)}});
  out.push_back({"process_start_time_seconds",
                 "Start time of the process since the epoch.",
                 MetricType::Gauge,
                 {gauge({}, start)}});
  out.push_back({"process_virtual_memory_bytes",
                 "Virtual memory size in bytes.",
                 MetricType::Gauge,
                 {gauge({}, std::stod(f[20]))}});
  out.push_back({"process_resident_memory_bytes",
                 "Resident memory size in bytes.",
                 MetricType::Gauge,
                 {gauge({}, std::stod(f[21]) * page)}});
  out.push_back({"process_open_fds",
                 "Open file descriptors.",
                 MetricType::Gauge,
                 {gauge({}, static_cast<double>(open_fds()))}});
}

}  // namespace

std::vector<MetricFamily> metric_families(const std::vector<LunSample>& luns,
                                          std::size_t connections) {
  std::vector<MetricFamily> out;
  for (const LunCounter& c : kLunCounters) {
    MetricFamily f{c.name, c.help, MetricType::Counter, {}};
    for (const LunSample& l : luns) f.metric.push_back(counter(labels_of(l), c.value(l)));
    out.push_back(std::move(f));
  }
  MetricFamily bytes{"memstore_bytes_total",
                     "Data moved: in = data-in sent, out = data-out consumed.",
                     MetricType::Counter,
                     {}};
  for (const LunSample& l : luns) {
    auto in = labels_of(l);
    in.push_back({"direction", "in"});
    auto out_labels = labels_of(l);
    out_labels.push_back({"direction", "out"});
    bytes.metric.push_back(counter(in, static_cast<double>(l.counters.bytes_in)));
    bytes.metric.push_back(counter(out_labels, static_cast<double>(l.counters.bytes_out)));
  }
  out.push_back(std::move(bytes));
  MetricFamily late{"memstore_delivery_lateness_seconds",
                    "How late timed completions were delivered after their modeled time.",
                    MetricType::Histogram,
                    {}};
  for (const LunSample& l : luns) late.metric.push_back(histogram(l));
  out.push_back(std::move(late));
  out.push_back({"memstore_connections",
                 "Open iSCSI connections.",
                 MetricType::Gauge,
                 {gauge({}, static_cast<double>(connections))}});
  out.push_back(
      {"memstore_build_info",
       "The memstored build: its version and git revision.",
       MetricType::Gauge,
       {gauge({{"version", std::string(version())}, {"revision", std::string(git_revision())}},
              1)}});
  process_families(out);
  return out;
}

std::string metrics_text(const std::vector<MetricFamily>& families) {
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace memstore::control
