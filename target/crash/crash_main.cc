// SPDX-License-Identifier: Apache-2.0
// memstore-crash: what a write log (write_log = "PATH") holds, the image it
// leads to, and the crash states along it (docs/crash-consistency.md).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>

#include "target/crash/crash_states.h"
#include "target/scsi/file_store.h"
#include "target/scsi/posix_file.h"
#include "target/scsi/volatile_cache.h"
#include "version/unknown_command.h"
#include "version/version.h"

namespace {

using namespace memstore;
namespace wl = scsi::write_log;

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

struct ImageArgs {
  std::string base;  // the image the log started from; empty: zeros
  std::uint64_t blocks = 0;
};

// A sparse copy of the base image (or an empty one) at `out`, opened as
// the medium.
Expected<std::unique_ptr<scsi::FileStore>> image_at(const std::string& out, const ImageArgs& a,
                                                    const wl::Log& log) {
  const std::uint32_t block_size = log.block_size;
  std::uint64_t blocks = a.blocks != 0 ? a.blocks : log.blocks().value_or(0);
  if (!a.base.empty()) {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(a.base, ec);
    if (ec) {
      return Error("--base: " + a.base + ": " + ec.message());
    }
    blocks = bytes / block_size;
  }
  if (blocks == 0) {
    return Error(
        "the image's size is unknown (the log does not give it): give --base (the image "
        "the log started from) or --blocks (the LUN's size in blocks)");
  }
  std::filesystem::remove(out);
  auto opened = scsi::FileStore::open(out, blocks, block_size, scsi::DurabilityMode::kWriteBack);
  if (!opened.ok()) return opened;
  auto store = std::move(opened).value();
  if (a.base.empty()) return store;
  const int fd = ::open(a.base.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Error("--base: " + a.base + ": cannot open it");
  }
  // Copied in 1 MiB pieces, leaving holes where the base reads as zeros.
  const std::uint64_t piece = std::max<std::uint64_t>(1, (1u << 20) / block_size);
  std::vector<std::uint8_t> buf(piece * block_size);
  for (std::uint64_t lba = 0; lba < blocks; lba += piece) {
    const std::uint64_t n = std::min(piece, blocks - lba);
    const auto want = static_cast<std::size_t>(n * block_size);
    std::size_t done = 0;
    if (scsi::transfer_all(::pread, fd, std::span(buf).first(want), lba * block_size, done) != 0) {
      ::close(fd);
      return Error("--base: " + a.base + ": a read failed");
    }
    if (std::all_of(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(want),
                    [](std::uint8_t b) { return b == 0; })) {
      continue;
    }
    if (auto e = store->write(lba, n, std::span(buf).first(want)); !e.ok()) {
      ::close(fd);
      return e.error();
    }
  }
  ::close(fd);
  return store;
}

std::optional<wl::Log> load(const std::string& path) {
  auto read = wl::read(path);
  if (!read.ok()) {
    std::cerr << "memstore-crash: " << read.error().message << "\n";
    return {};
  }
  return std::move(read).value();
}

int list(const std::string& path) {
  const auto log = load(path);
  if (!log) return kExitFailure;
  std::cout << "# " << log->entries.size() << " entries, blocks of " << log->block_size
            << " bytes\n";
  for (std::size_t i = 0; i < log->entries.size(); ++i) {
    std::cout << i << " " << crash::describe(log->entries[i]) << "\n";
  }
  return 0;
}

int replay(const std::string& path, const std::string& out, const ImageArgs& image,
           std::optional<std::size_t> to) {
  const auto log = load(path);
  if (!log) return kExitFailure;
  auto opened = image_at(out, image, *log);
  if (!opened.ok()) {
    std::cerr << "memstore-crash: " << opened.error().message << "\n";
    return kExitFailure;
  }
  auto& store = *opened;
  const std::size_t upto = to.value_or(log->entries.size());
  scsi::StoreStatus e = crash::replay(*log, upto, *store);
  if (e.ok()) e = store->flush();
  if (!e.ok()) {
    std::cerr << "memstore-crash: " << e.error().message << "\n";
    return kExitFailure;
  }
  std::cout << out << ": the first " << std::min(upto, log->entries.size()) << " of "
            << log->entries.size() << " entries\n";
  return 0;
}

int states(const std::string& path, const std::string& dir, const ImageArgs& image,
           const crash::Points& points, scsi::CutPolicy policy, std::uint64_t seed) {
  const auto log = load(path);
  if (!log) return kExitFailure;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::cerr << "memstore-crash: --out-dir: " << dir << ": " << ec.message() << "\n";
    return kExitFailure;
  }
  const std::vector<std::size_t> at = crash::crash_points(*log, points, seed);
  for (const std::size_t k : at) {
    const std::string out = dir + "/state-" + std::to_string(k) + ".img";
    auto medium = image_at(out, image, *log);
    if (!medium.ok()) {
      std::cerr << "memstore-crash: " << medium.error().message << "\n";
      return kExitFailure;
    }
    // A cache that never fills and never writes back on its own: what is
    // volatile at the cut is exactly what no flush or FUA made durable.
    scsi::VolatileCacheConfig unbounded;
    unbounded.capacity_bytes = std::numeric_limits<std::uint64_t>::max();
    scsi::VolatileCacheStore device(std::move(medium).value(), unbounded);
    if (auto e = crash::replay(*log, k, device); !e.ok()) {
      std::cerr << "memstore-crash: " << e.error().message << "\n";
      return kExitFailure;
    }
    auto cut = device.power_cut(policy, seed + k);
    if (!cut.ok()) {
      std::cerr << "memstore-crash: " << cut.error().message << "\n";
      return kExitFailure;
    }
    const scsi::PowerCutReport& report = *cut;
    std::cout << out << ": cut after " << k << " of " << log->entries.size() << " entries, "
              << report.writes.size() << " volatile writes, " << report.blocks_lost()
              << " blocks lost, " << report.blocks_kept() << " kept\n";
  }
  std::cout << at.size() << " crash states in " << dir << " (" << scsi::cut_policy_name(policy)
            << ", seed " << seed << ")\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "memstore-crash: a LUN's write log (write_log), the image it leads to, and its "
      "crash states"};
  app.require_subcommand(1);
  app.set_version_flag("--version", memstore::version_line("memstore-crash"));
  std::string log_path, out, policy_name = "drop-all", at_name = "flushes";
  ImageArgs image;
  std::optional<std::size_t> to;
  std::uint64_t seed = 1;
  int status = 0;

  auto* l = app.add_subcommand("list", "Every entry of the log, numbered from 0");
  l->add_option("log", log_path, "The write log")->required();
  l->callback([&] { status = list(log_path); });

  auto add_image = [&](CLI::App* c) {
    c->add_option("log", log_path, "The write log")->required();
    c->add_option("--base", image.base, "The image the log started from (default: zeros)");
    c->add_option("--blocks", image.blocks,
                  "The LUN's size in blocks (default: the log's first mark, or --base's size)");
  };
  auto* r = app.add_subcommand("replay", "The image after the log's first entries, all durable");
  add_image(r);
  r->add_option("--out", out, "The image to write (sparse)")->required();
  r->add_option("--to", to, "Apply entries 0 to N-1 (default: all)");
  r->callback([&] { status = replay(log_path, out, image, to); });

  auto* s = app.add_subcommand("states",
                               "Crash states: an image per cut, volatile writes "
                               "kept, lost or torn as a power cut would");
  add_image(s);
  s->add_option("--out-dir", out, "Where the images go (state-K.img: cut after K entries)")
      ->required();
  s->add_option("--at", at_name, "flushes (default), writes, or random:N");
  s->add_option("--policy", policy_name, "drop-all (default), keep-random or torn");
  s->add_option("--seed", seed, "Seeds random:N and the policy's draws (default 1)");
  s->callback([&] {
    const auto points = crash::points_named(at_name);
    const auto policy = scsi::cut_policy_named(policy_name);
    if (!points) {
      std::cerr << "memstore-crash: --at: must be flushes, writes or random:N, not '" << at_name
                << "'\n";
      status = kExitUsage;
    } else if (!policy) {
      std::cerr << "memstore-crash: --policy: must be drop-all, keep-random or torn, not '"
                << policy_name << "'\n";
      status = kExitUsage;
    } else {
      status = states(log_path, out, image, *points, *policy, seed);
    }
  });

  if (const auto unknown = memstore::unknown_command(app, "memstore-crash", argc, argv)) {
    std::cerr << "memstore-crash: " << *unknown << "\n";
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitUsage;
  }
  return status;
}
