// iscsi-load: a load generator over libiscsi's asynchronous API. It keeps
// QD commands in flight per session (random or sequential READ(16) or
// WRITE(16) of a fixed size), times each one from submission to completion
// on the steady clock, and prints IOPS, MB/s and latency percentiles.
// With --csv it writes one line per command (its ITT is the target's task
// tag, so bench/timing-report can join it with memstored's --completion-log).
//
//   iscsi-load [options] iscsi://host:port/iqn/lun
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <poll.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string url;
  std::string pattern = "randread";  // randread, randwrite, seqread, seqwrite
  std::uint32_t block_bytes = 4096;  // bytes per command
  int qd = 1;
  int sessions = 1;
  std::uint64_t count = 10000;  // commands in all
  std::uint64_t warmup = 0;     // commands issued first and not counted
  bool digests = false;
  std::string csv;
  bool json = false;
  std::uint64_t seed = 1;
  std::uint64_t range_blocks = 0;  // 0: the whole LUN
  std::uint64_t step_bytes = 0;    // sequential patterns: distance between commands (0: --bs)
  bool busy_poll = false;          // poll without sleeping
};

struct Record {
  std::uint32_t session = 0;
  std::uint32_t itt = 0;
  bool write = false;
  std::uint64_t lba = 0;
  std::int64_t submit_ns = 0;
  std::int64_t complete_ns = 0;
  int status = 0;
};

struct Session;

struct Slot {
  Session* session = nullptr;
  std::size_t record = 0;
};

struct Session {
  iscsi_context* ctx = nullptr;
  int lun = 0;
  std::uint32_t index = 0;
  std::vector<Slot> slots;
};

struct Run {
  Options opt;
  std::uint32_t lun_block = 512;
  std::uint64_t lun_blocks = 0;
  std::uint64_t blocks_per_cmd = 0;
  std::uint64_t step_cmds = 1;  // sequential patterns advance by this many commands' worth
  std::uint64_t next_seq = 0;
  std::mt19937_64 rng;
  std::vector<std::uint8_t> write_buffer;
  std::vector<Record> records;
  std::uint64_t issued = 0;
  std::uint64_t done = 0;
  std::uint64_t failed = 0;
  Clock::time_point epoch = Clock::now();
  std::string error;

  std::int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - epoch).count();
  }
  bool writes() const { return opt.pattern == "randwrite" || opt.pattern == "seqwrite"; }
  bool sequential() const { return opt.pattern == "seqread" || opt.pattern == "seqwrite"; }
  std::uint64_t next_lba() {
    const std::uint64_t range = opt.range_blocks ? std::min(opt.range_blocks, lun_blocks) : lun_blocks;
    const std::uint64_t slots = range / blocks_per_cmd;
    // A step of several commands' worth wraps around the range, so with a step
    // not dividing it the pattern spreads over the whole range, like qemu-img
    // bench's -S, and visits each of its places once before repeating.
    if (sequential()) return (next_seq++ * step_cmds % slots) * blocks_per_cmd;
    return std::uniform_int_distribution<std::uint64_t>(0, slots - 1)(rng) * blocks_per_cmd;
  }
};

Run* g_run = nullptr;

void issue(Session& s, Slot& slot);

void on_complete(iscsi_context* /*ctx*/, int status, void* command_data, void* private_data) {
  auto* slot = static_cast<Slot*>(private_data);
  auto* task = static_cast<scsi_task*>(command_data);
  Run& run = *g_run;
  Record& r = run.records[slot->record];
  r.complete_ns = run.now_ns();
  r.status = status;
  if (status != SCSI_STATUS_GOOD) {
    ++run.failed;
    if (run.error.empty()) run.error = iscsi_get_error(slot->session->ctx);
  }
  if (task != nullptr) scsi_free_scsi_task(task);
  ++run.done;
  if (run.issued < run.records.size()) issue(*slot->session, *slot);
}

void issue(Session& s, Slot& slot) {
  Run& run = *g_run;
  slot.record = run.issued++;
  Record& r = run.records[slot.record];
  r.session = s.index;
  r.write = run.writes();
  r.lba = run.next_lba();
  r.submit_ns = run.now_ns();
  const auto bytes = run.opt.block_bytes;
  scsi_task* task =
      r.write ? iscsi_write16_task(s.ctx, s.lun, r.lba, run.write_buffer.data(), bytes,
                                   static_cast<int>(run.lun_block), 0, 0, 0, 0, 0, on_complete, &slot)
              : iscsi_read16_task(s.ctx, s.lun, r.lba, bytes, static_cast<int>(run.lun_block), 0, 0,
                                  0, 0, 0, on_complete, &slot);
  if (task == nullptr) {
    run.error = iscsi_get_error(s.ctx);
    r.status = -1;
    ++run.failed;
    ++run.done;
    return;
  }
  r.itt = task->itt;
}

double percentile(std::vector<std::int64_t>& v, double p) {
  if (v.empty()) return 0;
  const std::size_t i =
      std::min(v.size() - 1, static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v.end());
  return static_cast<double>(v[i]);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"iscsi-load: timed READ/WRITE load over libiscsi's asynchronous API"};
  Options opt;
  app.add_option("url", opt.url, "iscsi://host:port/target-iqn/lun")->required();
  app.add_option("--pattern", opt.pattern, "randread, randwrite, seqread or seqwrite")
      ->check(CLI::IsMember({"randread", "randwrite", "seqread", "seqwrite"}));
  app.add_option("--bs", opt.block_bytes, "bytes per command (a multiple of the block size)");
  app.add_option("--qd", opt.qd, "commands in flight per session")->check(CLI::Range(1, 1024));
  app.add_option("--sessions", opt.sessions, "sessions (connections)")->check(CLI::Range(1, 64));
  app.add_option("--count", opt.count, "commands to time, over all sessions");
  app.add_option("--warmup", opt.warmup, "commands issued first and not counted");
  app.add_flag("--digests", opt.digests,
               "negotiate the CRC32C header digest (libiscsi 1.19 offers no data digest)");
  app.add_option("--csv", opt.csv, "write one line per timed command to this file");
  app.add_flag("--json", opt.json, "print the summary as JSON");
  app.add_option("--seed", opt.seed, "random LBA seed");
  app.add_option("--range-blocks", opt.range_blocks, "use only the first N blocks of the LUN");
  app.add_option("--step", opt.step_bytes,
                 "seqread/seqwrite: bytes from one command's start to the next's, wrapping "
                 "around the range (a multiple of --bs; default --bs)");
  app.add_flag("--busy-poll", opt.busy_poll,
               "poll the sockets without sleeping (one core at 100%): a completion is seen "
               "when it arrives, not when the scheduler wakes the client");
  CLI11_PARSE(app, argc, argv);

  Run run;
  run.opt = opt;
  run.rng.seed(opt.seed);
  g_run = &run;

  std::vector<Session> sessions(static_cast<std::size_t>(opt.sessions));
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    Session& s = sessions[i];
    s.index = static_cast<std::uint32_t>(i);
    const std::string initiator =
        "iqn.2026-11.org.memstore:iscsi-load-" + std::to_string(::getpid()) + "-" + std::to_string(i);
    s.ctx = iscsi_create_context(initiator.c_str());
    iscsi_url* url = iscsi_parse_full_url(s.ctx, opt.url.c_str());
    if (url == nullptr) {
      std::cerr << "iscsi-load: url " << opt.url << ": " << iscsi_get_error(s.ctx)
                << " (expected iscsi://host:port/target-iqn/lun)\n";
      return 2;
    }
    iscsi_set_targetname(s.ctx, url->target);
    iscsi_set_session_type(s.ctx, ISCSI_SESSION_NORMAL);
    iscsi_set_header_digest(s.ctx,
                            opt.digests ? ISCSI_HEADER_DIGEST_CRC32C : ISCSI_HEADER_DIGEST_NONE);
    if (url->user[0] != '\0') iscsi_set_initiator_username_pwd(s.ctx, url->user, url->passwd);
    if (iscsi_full_connect_sync(s.ctx, url->portal, url->lun) != 0) {
      std::cerr << "iscsi-load: login to " << opt.url << " failed: " << iscsi_get_error(s.ctx)
                << "\n";
      return 1;
    }
    s.lun = url->lun;
    iscsi_destroy_url(url);
  }

  // Capacity and block size from READ CAPACITY(16).
  {
    scsi_task* t = iscsi_readcapacity16_sync(sessions[0].ctx, sessions[0].lun);
    if (t == nullptr || t->status != SCSI_STATUS_GOOD) {
      std::cerr << "iscsi-load: READ CAPACITY(16) failed: " << iscsi_get_error(sessions[0].ctx)
                << "\n";
      return 1;
    }
    auto* rc = static_cast<scsi_readcapacity16*>(scsi_datain_unmarshall(t));
    run.lun_block = rc->block_length;
    run.lun_blocks = rc->returned_lba + 1;
    scsi_free_scsi_task(t);
  }
  if (opt.block_bytes == 0 || opt.block_bytes % run.lun_block != 0) {
    std::cerr << "iscsi-load: --bs " << opt.block_bytes << " is not a multiple of the LUN's "
              << run.lun_block << "-byte blocks\n";
    return 2;
  }
  run.blocks_per_cmd = opt.block_bytes / run.lun_block;
  if (opt.step_bytes != 0) {
    if (opt.step_bytes % opt.block_bytes != 0) {
      std::cerr << "iscsi-load: --step " << opt.step_bytes << " is not a multiple of --bs "
                << opt.block_bytes << "\n";
      return 2;
    }
    run.step_cmds = opt.step_bytes / opt.block_bytes;
  }
  run.write_buffer.assign(opt.block_bytes, 0x5A);
  run.records.resize(opt.warmup + opt.count);

  for (Session& s : sessions) s.slots.resize(static_cast<std::size_t>(opt.qd), Slot{&s, 0});
  for (Session& s : sessions) {
    for (Slot& slot : s.slots) {
      if (run.issued < run.records.size()) issue(s, slot);
    }
  }
  std::vector<pollfd> fds(sessions.size());
  std::int64_t timed_start_ns = -1;
  while (run.done < run.records.size()) {
    for (std::size_t i = 0; i < sessions.size(); ++i) {
      fds[i].fd = iscsi_get_fd(sessions[i].ctx);
      fds[i].events = static_cast<short>(iscsi_which_events(sessions[i].ctx));
      fds[i].revents = 0;
    }
    if (::poll(fds.data(), fds.size(), opt.busy_poll ? 0 : 1000) < 0) {
      std::perror("iscsi-load: poll");
      return 1;
    }
    for (std::size_t i = 0; i < sessions.size(); ++i) {
      if (iscsi_service(sessions[i].ctx, fds[i].revents) < 0) {
        std::cerr << "iscsi-load: " << iscsi_get_error(sessions[i].ctx) << "\n";
        return 1;
      }
    }
    if (timed_start_ns < 0 && run.done >= opt.warmup) timed_start_ns = run.now_ns();
  }
  const std::int64_t end_ns = run.now_ns();
  for (Session& s : sessions) {
    iscsi_logout_sync(s.ctx);
    iscsi_destroy_context(s.ctx);
  }

  // Timed commands: the ones after the warm-up.
  const auto first = run.records.begin() + static_cast<std::ptrdiff_t>(opt.warmup);
  std::vector<std::int64_t> lat;
  lat.reserve(opt.count);
  for (auto it = first; it != run.records.end(); ++it) lat.push_back(it->complete_ns - it->submit_ns);
  const double seconds = static_cast<double>(end_ns - std::max<std::int64_t>(0, timed_start_ns)) / 1e9;
  const double iops = static_cast<double>(opt.count) / seconds;
  const double mbps = iops * opt.block_bytes / 1e6;
  const double p50 = percentile(lat, 50), p99 = percentile(lat, 99), p999 = percentile(lat, 99.9);
  const double maxl = lat.empty() ? 0 : static_cast<double>(*std::max_element(lat.begin(), lat.end()));

  if (!opt.csv.empty()) {
    std::ofstream out(opt.csv);
    out << "session,itt,op,lba,submit_ns,complete_ns,latency_ns,status\n";
    for (auto it = first; it != run.records.end(); ++it) {
      out << it->session << ',' << it->itt << ',' << (it->write ? 'W' : 'R') << ',' << it->lba
          << ',' << it->submit_ns << ',' << it->complete_ns << ','
          << it->complete_ns - it->submit_ns << ',' << it->status << '\n';
    }
  }
  if (opt.json) {
    nlohmann::json j = {{"pattern", opt.pattern}, {"bs", opt.block_bytes}, {"qd", opt.qd},
                        {"sessions", opt.sessions}, {"count", opt.count}, {"failed", run.failed},
                        {"seconds", seconds}, {"iops", iops}, {"mb_per_s", mbps},
                        {"latency_us", {{"p50", p50 / 1e3}, {"p99", p99 / 1e3},
                                        {"p99.9", p999 / 1e3}, {"max", maxl / 1e3}}}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf("%s bs=%u qd=%d sessions=%d: %llu commands in %.3f s, %.0f IOPS, %.1f MB/s\n",
                opt.pattern.c_str(), opt.block_bytes, opt.qd, opt.sessions,
                static_cast<unsigned long long>(opt.count), seconds, iops, mbps);
    std::printf("latency us: p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f\n", p50 / 1e3, p99 / 1e3,
                p999 / 1e3, maxl / 1e3);
  }
  if (run.failed > 0) {
    std::cerr << "iscsi-load: " << run.failed << " commands failed; first error: " << run.error
              << "\n";
    return 1;
  }
  return 0;
}
