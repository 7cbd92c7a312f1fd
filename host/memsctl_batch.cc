// SPDX-License-Identifier: Apache-2.0
// memsctl batch: one MEMS BATCH of reads and writes in command-line order,
// then MEMS BATCH RESULTS (docs/vendor-interface.md).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

#include "host/memsctl_args.h"

namespace memstore::memsctl {
namespace {

struct Item {
  bool write = false;
  std::string arg;  // as given, for messages
  ExtentSpec spec;
};

std::optional<host::Bytes> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return host::Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool write_file(const std::string& path, std::span<const std::uint8_t> data, bool append) {
  std::ofstream out(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  return static_cast<bool>(out);
}

}  // namespace

int cmd_batch(const Common& c, const BatchArgs& a) {
  if (a.items.empty()) {
    return usage_error(c, "batch: give at least one --read LBN:COUNT or --write LBN:COUNT@FILE");
  }
  std::vector<Item> items;
  for (const auto& [is_write, text] : a.items) {
    const char* option = is_write ? "--write" : "--read";
    auto parsed = parse_extent(option, text, is_write);
    if (!parsed.ok()) return usage_error(c, parsed.error().message);
    items.push_back({is_write, std::string(option) + " " + text, *parsed});
  }

  int status = 0;
  auto dev = open_device(c, status);
  if (!dev) return status;
  auto batch = dev->new_batch();
  if (!batch.ok()) return report(c, batch.error());
  std::vector<host::Lbn> lbns;
  for (const Item& it : items) {
    host::Status s;
    if (it.write) {
      auto data = read_file(it.spec.file);
      if (!data) return usage_error(c, it.arg + ": cannot read '" + it.spec.file + "'");
      const std::uint64_t want = std::uint64_t{it.spec.count} * dev->block_size();
      if (data->size() != want) {
        return usage_error(
            c, it.arg + ": '" + it.spec.file + "' holds " + std::to_string(data->size()) +
                   " bytes; " + std::to_string(it.spec.count) + " blocks of " +
                   std::to_string(dev->block_size()) + " bytes need " + std::to_string(want));
      }
      s = batch->add_write(it.spec.lbn, *data);
    } else {
      s = batch->add_read(it.spec.lbn, it.spec.count);
    }
    if (!s.ok()) {
      host::Error e = s.error();
      e.message = it.arg + ": " + e.message;
      return report(c, e);
    }
    for (std::uint32_t k = 0; k < it.spec.count && lbns.size() <= dev->geometry()->parallelism();
         ++k) {
      lbns.push_back(it.spec.lbn + k);
    }
  }
  // Whether the host's own geometry expects one media access (advisory).
  const bool parallel = dev->geometry()->parallel_accessible(lbns);

  host::SubmitOptions o;
  o.strict = a.strict;
  o.fua = a.fua;
  auto r = dev->submit(*batch, o);
  if (!r.ok()) return report(c, r.error());

  if (!a.output.empty()) {
    if (!write_file(a.output, {}, false)) {
      return report(c, host::transport_error("cannot write '" + a.output + "'"));
    }
  }
  Json descriptors = Json::array();
  std::uint64_t read_bytes = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    const host::Bytes& data = r->data[i];
    Json d = {{"op", it.write ? "write" : "read"}, {"lbn", it.spec.lbn}, {"blocks", it.spec.count}};
    if (!it.spec.file.empty()) d["file"] = it.spec.file;
    if (!it.write) {
      read_bytes += data.size();
      if (!it.spec.file.empty() && !write_file(it.spec.file, data, false)) {
        return report(c, host::transport_error(it.arg + ": cannot write '" + it.spec.file + "'"));
      }
      if (!a.output.empty() && !write_file(a.output, data, true)) {
        return report(c, host::transport_error("cannot write '" + a.output + "'"));
      }
    }
    descriptors.push_back(d);
  }
  if (c.json) {
    Json j = {{"batch_id", r->batch_id},
              {"descriptors", descriptors},
              {"blocks", batch->blocks()},
              {"read_bytes", read_bytes},
              {"media_steps", r->media_steps},
              {"service_us", r->service_us},
              {"host_parallel_accessible", parallel}};
    if (!a.output.empty()) j["output"] = a.output;
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::printf(
      "batch %u: %zu descriptors, %llu blocks: %u media step(s), modeled service time "
      "%u us%s\n",
      r->batch_id, items.size(), static_cast<unsigned long long>(batch->blocks()), r->media_steps,
      r->service_us, parallel ? "" : " (the host's geometry expected more than one step)");
  for (const Item& it : items) {
    std::printf("  %-5s LBN %llu, %u block(s)%s%s\n", it.write ? "write" : "read",
                static_cast<unsigned long long>(it.spec.lbn), it.spec.count,
                it.spec.file.empty() ? ""
                : it.write           ? " from "
                                     : " to ",
                it.spec.file.c_str());
  }
  if (!a.output.empty()) {
    std::printf("  %llu bytes of read data in %s\n", static_cast<unsigned long long>(read_bytes),
                a.output.c_str());
  }
  return kExitOk;
}

}  // namespace memstore::memsctl
