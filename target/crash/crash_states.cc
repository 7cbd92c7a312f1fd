// SPDX-License-Identifier: Apache-2.0
#include "target/crash/crash_states.h"

#include <algorithm>
#include <charconv>
#include <random>
#include <set>

namespace memstore::crash {

namespace wl = scsi::write_log;

std::optional<Points> points_named(std::string_view text) {
  if (text == "flushes") return Points{Points::Kind::kFlushes, 0};
  if (text == "writes") return Points{Points::Kind::kWrites, 0};
  constexpr std::string_view kRandom = "random:";
  if (text.starts_with(kRandom)) {
    const std::string_view n = text.substr(kRandom.size());
    std::size_t count = 0;
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), count);
    if (!n.empty() && ec == std::errc{} && end == n.data() + n.size() && count > 0) {
      return Points{Points::Kind::kRandom, count};
    }
  }
  return {};
}

std::vector<std::size_t> crash_points(const wl::Log& log, const Points& points,
                                      std::uint64_t seed) {
  std::vector<std::size_t> out;
  const std::size_t n = log.entries.size();
  if (points.kind == Points::Kind::kRandom) {
    std::mt19937_64 draw(seed);
    std::set<std::size_t> chosen;
    const std::size_t want = std::min(points.count, n + 1);
    while (chosen.size() < want) chosen.insert(static_cast<std::size_t>(draw() % (n + 1)));
    return {chosen.begin(), chosen.end()};
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t f = log.entries[i].flags;
    const bool flush = (f & wl::kFlush) != 0;
    const bool write = (f & (wl::kFlush | wl::kMark)) == 0;
    if (points.kind == Points::Kind::kFlushes ? flush : write) out.push_back(i + 1);
  }
  return out;
}

scsi::StoreStatus replay(const wl::Log& log, std::size_t upto, scsi::BackingStore& store) {
  for (std::size_t i = 0; i < std::min(upto, log.entries.size()); ++i) {
    const wl::Entry& e = log.entries[i];
    scsi::StoreStatus s;
    if ((e.flags & wl::kMark) != 0) continue;
    if ((e.flags & wl::kFlush) != 0) {
      s = store.flush();
    } else if ((e.flags & wl::kDiscard) != 0) {
      s = store.unmap(e.sector, e.blocks);
    } else if ((e.flags & wl::kFua) != 0) {
      s = store.write_durable(e.sector, e.blocks, e.data);
    } else {
      s = store.write(e.sector, e.blocks, e.data);
    }
    if (!s.ok()) {
      s.error().message = "entry " + std::to_string(i) + ": " + s.error().message;
      return s;
    }
  }
  return {};
}

std::string describe(const wl::Entry& e) {
  if ((e.flags & wl::kMark) != 0) return "mark " + e.mark;
  if ((e.flags & wl::kFlush) != 0) return "flush";
  std::string s = (e.flags & wl::kDiscard) != 0 ? "discard " : "write ";
  s += std::to_string(e.sector) + "+" + std::to_string(e.blocks);
  if ((e.flags & wl::kFua) != 0) s += " fua";
  return s;
}

}  // namespace memstore::crash
