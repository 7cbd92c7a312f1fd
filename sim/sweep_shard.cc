// SPDX-License-Identifier: Apache-2.0
#include "sim/sweep_shard.h"

#include <charconv>
#include <map>
#include <set>
#include <sstream>

namespace memstore::sim {
namespace {

constexpr std::string_view kCommentPrefix = "# memsim-sweep-shard ";

// A whole non-negative decimal integer, nothing else.
std::optional<std::int64_t> parse_count(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || v < 0) return std::nullopt;
  return v;
}

struct ShardHeader {
  std::int64_t index = 0;
  std::int64_t count = 0;
  std::int64_t points = 0;
  std::string args;
};

// "index=I count=N points=P args=..." after the prefix; args runs to the end.
std::optional<ShardHeader> parse_comment(std::string_view line) {
  if (!line.starts_with(kCommentPrefix)) return std::nullopt;
  line.remove_prefix(kCommentPrefix.size());
  ShardHeader h;
  std::int64_t* fields[] = {&h.index, &h.count, &h.points};
  const std::string_view keys[] = {"index=", "count=", "points="};
  for (int i = 0; i < 3; ++i) {
    if (!line.starts_with(keys[i])) return std::nullopt;
    line.remove_prefix(keys[i].size());
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    const auto v = parse_count(line.substr(0, space));
    if (!v) return std::nullopt;
    *fields[i] = *v;
    line.remove_prefix(space + 1);
  }
  if (!line.starts_with("args=")) return std::nullopt;
  h.args = std::string(line.substr(5));
  if (h.count < 1 || h.index >= h.count) return std::nullopt;
  return h;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

}  // namespace

Expected<Shard> parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  std::optional<std::int64_t> i;
  std::optional<std::int64_t> n;
  if (slash != std::string::npos) {
    i = parse_count(std::string_view(text).substr(0, slash));
    n = parse_count(std::string_view(text).substr(slash + 1));
  }
  if (!i || !n || *n < 1 || *i >= *n) {
    return Error("--shard: expected I/N with 0 <= I < N (e.g. 0/4), got '" + text + "'");
  }
  return Shard{*i, *n};
}

std::string shard_comment(const Shard& s, std::int64_t points, const std::string& args) {
  std::ostringstream out;
  out << kCommentPrefix << "index=" << s.index << " count=" << s.count << " points=" << points
      << " args=" << args;
  return out.str();
}

Expected<std::string> merge_shards(const std::vector<ShardInput>& inputs,
                                   const std::string& csv_header) {
  if (inputs.empty()) {
    return Error("merge: no shard files given");
  }
  const std::string shard_header = "point," + csv_header;
  std::optional<ShardHeader> first;
  std::set<std::int64_t> shards_seen;
  std::map<std::int64_t, std::string> rows;  // point -> unsharded row
  for (const ShardInput& in : inputs) {
    const std::vector<std::string_view> lines = lines_of(in.content);
    const auto h = lines.empty() ? std::nullopt : parse_comment(lines[0]);
    if (!h) {
      return Error(in.name + ":1: not a memsim sweep shard (expected a '" +
                   std::string(kCommentPrefix) + "index=I count=N points=P args=...' line)");
    }
    if (!first) {
      first = h;
    } else if (h->count != first->count || h->points != first->points || h->args != first->args) {
      return Error(in.name + ":1: from a different sweep than " + inputs.front().name +
                   " (shard count, points or arguments differ)");
    }
    if (!shards_seen.insert(h->index).second) {
      return Error(in.name + ": shard " + std::to_string(h->index) + "/" +
                   std::to_string(h->count) + " given twice");
    }
    if (lines.size() < 2 || lines[1] != shard_header) {
      return Error(in.name + ":2: expected the header '" + shard_header + "'");
    }
    for (std::size_t l = 2; l < lines.size(); ++l) {
      const std::string where = in.name + ":" + std::to_string(l + 1) + ": ";
      const std::size_t comma = lines[l].find(',');
      const auto k =
          comma == std::string_view::npos ? std::nullopt : parse_count(lines[l].substr(0, comma));
      if (!k || *k >= h->points || *k % h->count != h->index) {
        return Error(where + "not a row of shard " + std::to_string(h->index) + "/" +
                     std::to_string(h->count) + " of " + std::to_string(h->points) + " points");
      }
      if (!rows.emplace(*k, std::string(lines[l].substr(comma + 1))).second) {
        return Error(where + "point " + std::to_string(*k) + " appears twice");
      }
    }
  }
  for (std::int64_t i = 0; i < first->count; ++i) {
    if (!shards_seen.contains(i)) {
      return Error("merge: shard " + std::to_string(i) + "/" + std::to_string(first->count) +
                   " is missing");
    }
  }
  if (static_cast<std::int64_t>(rows.size()) != first->points) {
    return Error("merge: " + std::to_string(rows.size()) + " of " + std::to_string(first->points) +
                 " points present (a shard file is truncated)");
  }
  std::string out = csv_header + "\n";
  for (const auto& [k, row] : rows) out += row + "\n";
  return out;
}

}  // namespace memstore::sim
