// SPDX-License-Identifier: Apache-2.0
// memstore-scan: read the whole device for free beside a random 4 KB
// foreground workload (thesis §6.3.6; docs/applications.md).
//
//   memstore-scan --target iscsi://127.0.0.1:3260/iqn.2026-11.org.memstore:g2/0 [--json]
//   memstore-scan --sim --set active_tips=1280 --set micropositioning=5
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/device_args.h"
#include "apps/freeblock.h"
#include "version/version.h"

namespace apps = memstore::apps;
using Json = nlohmann::ordered_json;

namespace {

Json geometry_json(const memstore::host::HostGeometry& g) {
  const auto& p = g.page();
  return {{"p", p.p},
          {"N", p.n},
          {"Sx", p.sx},
          {"Sy", p.sy},
          {"M", p.m},
          {"ST", p.st},
          {"SC", p.sc},
          {"conflict_group", p.conflict_group},
          {"blocks", g.blocks()}};
}

Json result_json(const apps::BlockDevice& d, const apps::ScanOptions& o,
                 const apps::ScanResult& r) {
  Json j;
  j["device"] = d.name();
  j["geometry"] = geometry_json(d.geometry());
  j["options"] = {{"request_blocks", o.request_blocks},
                  {"seed", o.seed},
                  {"background", o.background},
                  {"max_requests", o.max_requests},
                  {"max_time_s", o.max_time_s}};
  j["complete"] = r.complete;
  j["blocks_read"] = r.blocks_read;
  j["percent_read"] =
      100.0 * static_cast<double>(r.blocks_read) / static_cast<double>(r.device_blocks);
  j["requests"] = r.requests;
  j["foreground_new_blocks"] = r.foreground_new_blocks;
  j["free_blocks"] = r.free_blocks;
  j["mean_free_blocks_per_request"] = r.mean_free_per_request();
  j["foreground_accesses"] = r.foreground_accesses;
  j["mean_accesses_per_request"] = r.mean_accesses_per_request();
  j["media_steps"] = r.media_steps;
  j["modeled_time_s"] = static_cast<double>(r.service_ns) * 1e-9;
  j["modeled_us_reported"] = r.reported_us;
  j["service_resolution_ns"] = d.service_resolution_ns();
  j["wall_s"] = r.wall_s;
  Json to = Json::object();
  for (int pct : {10, 25, 50, 75, 90, 95, 99, 100}) to[std::to_string(pct)] = r.time_to(pct);
  j["time_to_percent_s"] = to;
  Json samples = Json::array();
  for (const apps::ScanSample& s : r.samples) {
    samples.push_back({{"percent", s.percent},
                       {"time_s", s.time_s},
                       {"requests", s.requests},
                       {"free_blocks", s.free_blocks}});
  }
  j["samples"] = samples;
  return j;
}

void print_text(const apps::BlockDevice& d, const apps::ScanOptions& o, const apps::ScanResult& r) {
  const auto& g = d.geometry().page();
  std::printf("device: %s\n", d.name().c_str());
  std::printf(
      "p = %u, N = %u, M = %u, %llu blocks; foreground: random %u-block reads, seed %llu%s\n", g.p,
      g.n, g.m, static_cast<unsigned long long>(r.device_blocks), o.request_blocks,
      static_cast<unsigned long long>(o.seed), o.background ? "" : ", no background");
  std::printf("%s %.2f%% of the device in %.3f s of modeled time (%llu requests, %.1f s wall)\n",
              r.complete ? "read all of it:" : "stopped at",
              100.0 * static_cast<double>(r.blocks_read) / static_cast<double>(r.device_blocks),
              static_cast<double>(r.service_ns) * 1e-9, static_cast<unsigned long long>(r.requests),
              r.wall_s);
  std::printf("free blocks per foreground request: %.3f (%llu free, %llu new foreground blocks)\n",
              r.mean_free_per_request(), static_cast<unsigned long long>(r.free_blocks),
              static_cast<unsigned long long>(r.foreground_new_blocks));
  std::printf("media accesses per foreground request: %.3f (requests start anywhere)\n",
              r.mean_accesses_per_request());
  std::printf("\n  %% read   modeled time (s)   requests   free blocks/request so far\n");
  double next = 10;
  for (const apps::ScanSample& s : r.samples) {
    if (s.percent + 1e-9 < next && &s != &r.samples.back()) continue;
    std::printf("  %6.2f   %16.3f   %8llu   %.3f\n", s.percent, s.time_s,
                static_cast<unsigned long long>(s.requests),
                s.requests == 0
                    ? 0.0
                    : static_cast<double>(s.free_blocks) / static_cast<double>(s.requests));
    while (next <= s.percent + 1e-9) next += 10;
  }
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App app{
      "memstore-scan: read the whole device for free beside a random 4 KB foreground workload "
      "(Schlosser thesis §6.3.6)"};
  app.set_version_flag("--version", memstore::version_line("memstore-scan"));
  apps::DeviceArgs device_args;
  apps::add_device_args(app, device_args);
  apps::ScanOptions o;
  std::uint32_t request_kb = 4;
  bool json = false;
  app.add_option("--request-kb", request_kb, "Foreground request size in KB (default 4)")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--seed", o.seed, "Seed of the foreground's random starts (default 1)");
  app.add_option("--max-requests", o.max_requests, "Stop after this many requests (0: no limit)");
  app.add_option("--max-time-s", o.max_time_s, "Stop after this much modeled time (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--sample-percent", o.sample_percent,
                 "Record the progress each time this much more of the device is read")
      ->check(CLI::Range(0.001, 100.0));
  bool no_background = false;
  app.add_flag("--no-background", no_background, "The foreground alone (baseline)");
  app.add_flag("--json", json, "Print JSON (with every progress sample)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? apps::kExitOk : apps::kExitUsage;
  }
  o.background = !no_background;

  auto device = apps::open_device(device_args, false);
  if (!device.ok()) {
    std::cerr << "memstore-scan: " << device.error().message << "\n";
    return apps::exit_status(device.error());
  }
  const std::uint32_t bs = (*device)->block_size();
  if (std::uint64_t{request_kb} * 1024 % bs != 0) {
    std::cerr << "memstore-scan: --request-kb " << request_kb << " is not whole blocks of " << bs
              << " bytes\n";
    return apps::kExitUsage;
  }
  o.request_blocks = static_cast<std::uint32_t>(std::uint64_t{request_kb} * 1024 / bs);
  auto r = apps::run_scan(**device, o);
  if (!r.ok()) {
    std::cerr << "memstore-scan: " << r.error().message << "\n";
    return apps::exit_status(r.error());
  }
  if (json) {
    std::cout << result_json(**device, o, *r).dump(2) << "\n";
  } else {
    print_text(**device, o, *r);
  }
  return apps::kExitOk;
} catch (const std::exception& e) {
  std::cerr << "memstore-scan: " << e.what() << "\n";
  return apps::kExitFailure;
}
