// SPDX-License-Identifier: Apache-2.0
// memsctl stats (vendor log pages 30h and 31h) and memsctl set (vendor
// control mode page 22h through MODE SELECT(10)); docs/vendor-interface.md.
#include <iterator>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <tuple>

#include "host/memsctl_args.h"

namespace memstore::memsctl {
namespace {

// Page 30h's state order (docs/vendor-interface.md, "Page 30h").
constexpr const char* kPowerStates[] = {"inactive", "idle", "seek", "access", "startup"};
// Page 31h's metric order (docs/vendor-interface.md, "Page 31h").
constexpr const char* kMetrics[] = {"seek_x",   "seek_y",      "settle",           "turnaround",
                                    "transfer", "queue_depth", "delivery_lateness"};
static_assert(std::size(kMetrics) == modepages::kPositioningMetrics, "a name per metric");
constexpr int kQueueDepth = static_cast<int>(modepages::PositioningMetric::kQueueDepth);

const char* kTimingNames[] = {"realtime", "scaled", "off"};

}  // namespace

int cmd_stats(const Common& c) {
  int status = 0;
  auto dev = open_device(c, status);
  if (!dev) return status;
  auto power = dev->power_log();
  if (!power.ok()) return report(c, power.error());
  auto pos = dev->positioning_log();
  if (!pos.ok()) return report(c, pos.error());

  Json time = Json::object();
  Json energy = Json::object();
  static_assert(std::size(kPowerStates) == std::tuple_size_v<decltype(power->time_ms)>);
  for (std::size_t s = 0; s < std::size(kPowerStates); ++s) {
    time[kPowerStates[s]] = power->time_ms[s];
    energy[kPowerStates[s]] = power->energy_uj[s];
  }
  Json positioning = Json::object();
  for (int m = 0; m < modepages::kPositioningMetrics; ++m) {
    const modepages::MetricSummary& s = pos->metrics[static_cast<std::size_t>(m)];
    positioning[kMetrics[m]] =
        m == kQueueDepth ? Json{{"count", s.count}, {"mean_milli", s.mean}, {"max", s.max}}
                         : Json{{"count", s.count}, {"mean_ns", s.mean}, {"max_ns", s.max}};
  }
  if (c.json) {
    Json j = {{"target", dev->name()},
              {"power", {{"time_ms", time}, {"energy_uj", energy}, {"startups", power->startups}}},
              {"positioning", positioning}};
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::printf("%s\npower (log page 30h), since the device started:\n", dev->name().c_str());
  std::printf("  %-10s %14s %16s\n", "state", "time (ms)", "energy (uJ)");
  for (std::size_t s = 0; s < std::size(kPowerStates); ++s) {
    std::printf("  %-10s %14llu %16llu\n", kPowerStates[s],
                static_cast<unsigned long long>(power->time_ms[s]),
                static_cast<unsigned long long>(power->energy_uj[s]));
  }
  std::printf("  startups: %llu\n", static_cast<unsigned long long>(power->startups));
  std::printf("positioning (log page 31h):\n  %-12s %10s %14s %14s\n", "metric", "count", "mean",
              "max");
  for (int m = 0; m < modepages::kPositioningMetrics; ++m) {
    const modepages::MetricSummary& s = pos->metrics[static_cast<std::size_t>(m)];
    if (m == kQueueDepth) {
      std::printf("  %-12s %10llu %14.3f %14llu  (requests)\n", kMetrics[m],
                  static_cast<unsigned long long>(s.count), static_cast<double>(s.mean) / 1000.0,
                  static_cast<unsigned long long>(s.max));
    } else {
      std::printf("  %-12s %10llu %11.1f us %11.1f us\n", kMetrics[m],
                  static_cast<unsigned long long>(s.count), static_cast<double>(s.mean) / 1000.0,
                  static_cast<double>(s.max) / 1000.0);
    }
  }
  return kExitOk;
}

int cmd_set(const Common& c, const SetArgs& a) {
  if (!a.scheduler && !a.timing && !a.scale) {
    return usage_error(c, "set: nothing to set; give --scheduler, --timing or --scale");
  }
  modepages::ControlPage wanted_fields;
  if (a.scheduler) {
    const auto index = modepages::scheduler_index(*a.scheduler);
    if (!index) {
      return usage_error(c, "--scheduler '" + *a.scheduler + "' is not one of " + scheduler_list());
    }
    wanted_fields.scheduler = *index;
  }
  if (a.timing) {
    int mode = -1;
    for (int i = 0; i < 3; ++i) {
      if (*a.timing == kTimingNames[i]) mode = i;
    }
    if (mode < 0) {
      return usage_error(c, "--timing '" + *a.timing + "' must be realtime, scaled or off");
    }
    wanted_fields.timing = static_cast<modepages::TimingMode>(mode);
  }
  if (a.scale) {
    const double milli = std::round(*a.scale * 1000.0);
    if (!(milli >= 1.0) || milli > 4294967295.0) {
      char given[32];
      std::snprintf(given, sizeof given, "%g", *a.scale);
      return usage_error(c, std::string("--scale ") + given +
                                " must be between 0.001 and 4294967 (the page holds scale x 1000)");
    }
    wanted_fields.scale_milli = static_cast<std::uint32_t>(milli);
  }

  int status = 0;
  auto dev = open_device(c, status);
  if (!dev) return status;
  auto current = dev->control_page();
  if (!current.ok()) return report(c, current.error());
  modepages::ControlPage page = *current;
  if (a.scheduler) page.scheduler = wanted_fields.scheduler;
  if (a.timing) page.timing = wanted_fields.timing;
  if (a.scale) page.scale_milli = wanted_fields.scale_milli;
  if (host::Status s = dev->set_control_page(page); !s.ok()) return report(c, s.error());
  auto now = dev->control_page();  // what the device reports back
  if (!now.ok()) return report(c, now.error());
  const Json before = control_json(*current);
  const Json after = control_json(*now);
  if (c.json) {
    std::cout << Json{{"target", dev->name()}, {"before", before}, {"after", after}}.dump(2)
              << "\n";
    return kExitOk;
  }
  std::printf("%s: scheduler %s, timing %s, scale %g (was %s, %s, %g)\n", dev->name().c_str(),
              after["scheduler"].get<std::string>().c_str(),
              after["timing"].get<std::string>().c_str(), after["scale"].get<double>(),
              before["scheduler"].get<std::string>().c_str(),
              before["timing"].get<std::string>().c_str(), before["scale"].get<double>());
  return kExitOk;
}

}  // namespace memstore::memsctl
