// SPDX-License-Identifier: Apache-2.0
// iscsi-load: a load generator over libiscsi's asynchronous API. It keeps
// QD commands in flight per session (random or sequential READ(16) or
// WRITE(16) of a fixed size; or WRITE SAME(16) spans, or SYNCHRONIZE CACHE,
// as background load for bench/isolation), times each one from submission to
// completion on the steady clock, and prints IOPS, MB/s and latency
// percentiles. It runs --count commands, or for --duration seconds; on
// SIGTERM it stops issuing, waits for the commands in flight and reports
// what it ran (how bench/isolation ends its background load).
// With --csv it writes one line per command (its ITT is the target's task
// tag, so bench/timing-report can join it with memstored's --completion-log).
// With --trace it replays a DiskSim ASCII trace open-loop instead (memsim's
// --write-trace: arrival ms, device, LBN, blocks, 1 = read): each command is
// issued at its arrival time however many are still in flight, and its latency
// runs from that arrival (bench/asplos99-microbench).
//
//   iscsi-load [options] iscsi://host:port/iqn/lun
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <poll.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string url;
  // randread, randwrite, seqread, seqwrite; writesame (sequential WRITE SAME(16)
  // spans of --bs bytes); sync (SYNCHRONIZE CACHE(10) and (16) in turn)
  std::string pattern = "randread";
  std::uint32_t block_bytes = 4096;  // bytes per command (writesame: the span)
  int qd = 1;
  int sessions = 1;
  std::uint64_t count = 10000;  // commands in all
  std::uint64_t warmup = 0;     // commands issued first and not counted
  double duration_s = 0;        // > 0: issue for this long after the warm-up, not --count
  bool digests = false;
  std::string csv;
  bool json = false;
  std::uint64_t seed = 1;
  std::uint64_t range_blocks = 0;  // 0: the whole LUN
  std::uint64_t step_bytes = 0;    // sequential patterns: distance between commands (0: --bs)
  bool busy_poll = false;          // poll without sleeping
  std::string trace;               // DiskSim ASCII trace to replay open-loop (see the top)
};

// One command of a --trace file.
struct TraceCommand {
  std::int64_t arrival_ns = 0;
  std::uint64_t lba = 0;
  std::uint32_t blocks = 0;
  bool read = true;
};

struct Record {
  std::uint32_t session = 0;
  std::uint32_t itt = 0;
  const char* op = "";  // R, W, WS (WRITE SAME), SC10, SC16 (SYNCHRONIZE CACHE)
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
  std::deque<Slot> trace_slots;  // --trace: one per command, never reused
};

volatile std::sig_atomic_t g_stop = 0;  // SIGTERM: issue no more commands

struct Run {
  Options opt;
  std::uint32_t lun_block = 512;
  std::uint64_t lun_blocks = 0;
  std::uint64_t blocks_per_cmd = 0;
  std::uint64_t step_cmds = 1;  // sequential patterns advance by this many commands' worth
  std::uint64_t next_seq = 0;
  std::uint64_t syncs = 0;  // SYNCHRONIZE CACHE commands issued, to alternate (10) and (16)
  std::mt19937_64 rng;
  std::vector<std::uint8_t> write_buffer;
  // One per command issued, warm-up first. A deque: completions hold indexes
  // into it while --duration runs keep appending.
  std::deque<Record> records;
  std::uint64_t issued = 0;
  std::uint64_t done = 0;
  std::uint64_t failed = 0;
  std::int64_t timed_start_ns = -1;  // when the warm-up was over
  Clock::time_point epoch = Clock::now();
  std::string error;
  std::vector<TraceCommand> trace;  // --trace: the commands, in arrival order
  std::size_t trace_next = 0;       // the next one to issue

  std::int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - epoch).count();
  }
  bool writes() const { return opt.pattern == "randwrite" || opt.pattern == "seqwrite"; }
  bool sequential() const {
    return opt.pattern == "seqread" || opt.pattern == "seqwrite" || opt.pattern == "writesame";
  }
  // Bytes a command moves to or from the medium (a WRITE SAME writes its span).
  std::uint64_t bytes_per_cmd() const { return opt.pattern == "sync" ? 0 : opt.block_bytes; }
  // Whether another command is to be issued: --count of them after the warm-up,
  // or, with --duration, until that long after the warm-up.
  bool more() const {
    if (g_stop != 0) return false;
    if (opt.duration_s <= 0) return issued < opt.warmup + opt.count;
    return timed_start_ns < 0 ||
           static_cast<double>(now_ns() - timed_start_ns) < opt.duration_s * 1e9;
  }
  std::uint64_t next_lba() {
    const std::uint64_t range =
        opt.range_blocks ? std::min(opt.range_blocks, lun_blocks) : lun_blocks;
    const std::uint64_t slots = range / blocks_per_cmd;
    // A step of several commands' worth wraps around the range, so with a step
    // not dividing it the pattern spreads over the whole range, like qemu-img
    // bench's -S, and visits each of its places once before repeating.
    if (sequential()) return (next_seq++ * step_cmds % slots) * blocks_per_cmd;
    return std::uniform_int_distribution<std::uint64_t>(0, slots - 1)(rng) * blocks_per_cmd;
  }
};

Run* g_run = nullptr;

void on_sigterm(int /*sig*/) {
  g_stop = 1;
}

// SIGTERM ends the run as if its count were reached. No SA_RESTART: the
// signal interrupts poll(), so the loop sees it at once.
void stop_on_sigterm() {
  struct sigaction sa {};
  sa.sa_handler = on_sigterm;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGTERM, &sa, nullptr);
}

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
  if (run.trace.empty() && run.more()) issue(*slot->session, *slot);
}

// The pattern's next command on the session, with its operation in r.op.
scsi_task* submit(Run& run, Session& s, Slot& slot, Record& r) {
  const auto bytes = run.opt.block_bytes;
  const int block = static_cast<int>(run.lun_block);
  if (!run.trace.empty()) {
    const TraceCommand& c = run.trace[run.trace_next++];
    r.lba = c.lba;
    const std::uint32_t n = c.blocks * run.lun_block;
    if (c.read) {
      r.op = "R";
      return iscsi_read16_task(s.ctx, s.lun, r.lba, n, block, 0, 0, 0, 0, 0, on_complete, &slot);
    }
    r.op = "W";
    return iscsi_write16_task(s.ctx, s.lun, r.lba, run.write_buffer.data(), n, block, 0, 0, 0, 0, 0,
                              on_complete, &slot);
  }
  if (run.opt.pattern == "sync") {
    // The whole LUN (NUMBER OF LOGICAL BLOCKS 0), both CDB sizes in turn.
    if (run.syncs++ % 2 == 0) {
      r.op = "SC10";
      return iscsi_synchronizecache10_task(s.ctx, s.lun, 0, 0, 0, 0, on_complete, &slot);
    }
    r.op = "SC16";
    return iscsi_synchronizecache16_task(s.ctx, s.lun, 0, 0, 0, 0, on_complete, &slot);
  }
  r.lba = run.next_lba();
  if (run.opt.pattern == "writesame") {
    // One block of data-out, written over the whole span.
    r.op = "WS";
    return iscsi_writesame16_task(s.ctx, s.lun, r.lba, run.write_buffer.data(), run.lun_block,
                                  static_cast<std::uint32_t>(run.blocks_per_cmd), 0, 0, 0, 0,
                                  on_complete, &slot);
  }
  if (run.writes()) {
    r.op = "W";
    return iscsi_write16_task(s.ctx, s.lun, r.lba, run.write_buffer.data(), bytes, block, 0, 0, 0,
                              0, 0, on_complete, &slot);
  }
  r.op = "R";
  return iscsi_read16_task(s.ctx, s.lun, r.lba, bytes, block, 0, 0, 0, 0, 0, on_complete, &slot);
}

void issue(Session& s, Slot& slot) {
  Run& run = *g_run;
  slot.record = run.issued++;
  Record& r = run.records.emplace_back();
  r.session = s.index;
  r.submit_ns = run.now_ns();
  scsi_task* task = submit(run, s, slot, r);
  if (task == nullptr) {
    run.error = iscsi_get_error(s.ctx);
    r.status = -1;
    ++run.failed;
    ++run.done;
    return;
  }
  r.itt = task->itt;
}

// The largest WRITE SAME the LUN accepts, in blocks: MAXIMUM WRITE SAME LENGTH
// of the Block Limits VPD page (B0h); 0 when the LUN states no limit.
std::optional<std::uint64_t> max_write_same_blocks(Session& s) {
  scsi_task* t = iscsi_inquiry_sync(s.ctx, s.lun, 1, SCSI_INQUIRY_PAGECODE_BLOCK_LIMITS, 255);
  if (t == nullptr || t->status != SCSI_STATUS_GOOD) {
    if (t != nullptr) scsi_free_scsi_task(t);
    return std::nullopt;
  }
  auto* bl = static_cast<scsi_inquiry_block_limits*>(scsi_datain_unmarshall(t));
  const std::optional<std::uint64_t> max =
      bl != nullptr ? std::optional<std::uint64_t>(bl->max_ws_len) : std::nullopt;
  scsi_free_scsi_task(t);
  return max;
}

// Reads a DiskSim ASCII trace ("arrival_ms devno lbn blocks flags", flags bit 0 = read), as
// memsim's --write-trace writes it. Empty with `error` set when a line does not parse.
std::vector<TraceCommand> read_trace(const std::string& path, std::string& error) {
  std::vector<TraceCommand> out;
  std::ifstream in(path);
  if (!in) {
    error = "cannot read " + path;
    return {};
  }
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream fields(line);
    double ms = 0;
    long long dev = 0, lbn = 0, blocks = 0, flags = 0;
    if (!(fields >> ms >> dev >> lbn >> blocks >> flags) || ms < 0 || lbn < 0 || blocks < 1) {
      error = path + ":" + std::to_string(n) + ": expected 'arrival_ms devno lbn blocks flags'";
      return {};
    }
    out.push_back({std::llround(ms * 1e6), static_cast<std::uint64_t>(lbn),
                   static_cast<std::uint32_t>(blocks), (flags & 1) != 0});
  }
  if (out.empty()) error = path + ": no commands";
  return out;
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
  app.add_option("--pattern", opt.pattern,
                 "randread, randwrite, seqread, seqwrite; writesame (WRITE SAME(16) of --bs "
                 "bytes with a one-block data-out, sequential); sync (SYNCHRONIZE CACHE(10) "
                 "and (16) of the whole LUN in turn)")
      ->check(CLI::IsMember({"randread", "randwrite", "seqread", "seqwrite", "writesame", "sync"}));
  app.add_option("--bs", opt.block_bytes,
                 "bytes per command, a multiple of the block size (writesame: the span written)");
  app.add_option("--qd", opt.qd, "commands in flight per session")->check(CLI::Range(1, 1024));
  app.add_option("--sessions", opt.sessions, "sessions (connections)")->check(CLI::Range(1, 64));
  app.add_option("--count", opt.count, "commands to time, over all sessions (unless --duration)");
  app.add_option("--warmup", opt.warmup, "commands issued first and not counted");
  app.add_option("--duration", opt.duration_s,
                 "seconds to keep issuing after the warm-up, instead of --count commands")
      ->check(CLI::PositiveNumber);
  app.add_flag("--digests", opt.digests,
               "negotiate the CRC32C header digest (libiscsi 1.19 offers no data digest)");
  app.add_option("--csv", opt.csv, "write one line per timed command to this file");
  app.add_flag("--json", opt.json, "print the summary as JSON");
  app.add_option("--seed", opt.seed, "random LBA seed");
  app.add_option("--range-blocks", opt.range_blocks, "use only the first N blocks of the LUN");
  app.add_option(
      "--step", opt.step_bytes,
      "seqread/seqwrite/writesame: bytes from one command's start to the next's, wrapping "
      "around the range (a multiple of --bs; default --bs)");
  app.add_option("--trace", opt.trace,
                 "replay this DiskSim ASCII trace open-loop, each command at its arrival time "
                 "(--pattern, --bs, --qd, --count, --warmup, --duration do not apply)");
  app.add_flag("--busy-poll", opt.busy_poll,
               "poll the sockets without sleeping (one core at 100%): a completion is seen "
               "when it arrives, not when the scheduler wakes the client");
  CLI11_PARSE(app, argc, argv);

  Run run;
  run.opt = opt;
  run.rng.seed(opt.seed);
  g_run = &run;
  if (!opt.trace.empty()) {
    run.trace = read_trace(opt.trace, run.error);
    if (run.trace.empty()) {
      std::cerr << "iscsi-load: --trace: " << run.error << "\n";
      return 2;
    }
    run.error.clear();
    run.opt.pattern = "trace";
    run.opt.warmup = 0;
    run.opt.count = run.trace.size();
    run.opt.duration_s = 0;
  }

  std::vector<Session> sessions(static_cast<std::size_t>(opt.sessions));
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    Session& s = sessions[i];
    s.index = static_cast<std::uint32_t>(i);
    const std::string initiator = "iqn.2026-11.org.memstore:iscsi-load-" +
                                  std::to_string(::getpid()) + "-" + std::to_string(i);
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
  if (opt.pattern == "writesame") {
    const auto max = max_write_same_blocks(sessions[0]);
    if (!max) {
      std::cerr << "iscsi-load: INQUIRY of the Block Limits VPD page (B0h) failed: "
                << iscsi_get_error(sessions[0].ctx) << "\n";
      return 1;
    }
    if (*max != 0 && run.blocks_per_cmd > *max) {
      std::cerr << "iscsi-load: --bs " << opt.block_bytes << " is " << run.blocks_per_cmd
                << " blocks; the LUN's MAXIMUM WRITE SAME LENGTH is " << *max << "\n";
      return 2;
    }
  }
  if (opt.step_bytes != 0) {
    if (opt.step_bytes % opt.block_bytes != 0) {
      std::cerr << "iscsi-load: --step " << opt.step_bytes << " is not a multiple of --bs "
                << opt.block_bytes << "\n";
      return 2;
    }
    run.step_cmds = opt.step_bytes / opt.block_bytes;
  }
  // Not zeros: a WRITE SAME of zeros may be taken as a deallocation.
  run.write_buffer.assign(opt.pattern == "writesame" ? run.lun_block : opt.block_bytes, 0x5A);
  if (!run.trace.empty()) {
    std::uint32_t most = 0;
    for (const TraceCommand& c : run.trace) {
      if (c.lba + c.blocks > run.lun_blocks) {
        std::cerr << "iscsi-load: --trace: LBA " << c.lba << " + " << c.blocks
                  << " blocks is past the LUN's " << run.lun_blocks
                  << " blocks (a trace made for another device?)\n";
        return 2;
      }
      most = std::max(most, c.blocks);
    }
    run.write_buffer.assign(std::size_t{most} * run.lun_block, 0x5A);
  }

  for (Session& s : sessions) s.slots.resize(static_cast<std::size_t>(opt.qd), Slot{&s, 0});
  stop_on_sigterm();
  const bool replay = !run.trace.empty();
  if (replay) run.epoch = Clock::now();                        // the trace's time 0
  if (run.opt.warmup == 0) run.timed_start_ns = run.now_ns();  // every command is timed
  for (Session& s : sessions) {
    for (Slot& slot : s.slots) {
      if (!replay && run.more()) issue(s, slot);
    }
  }
  // --trace: issues every command whose arrival has come, round robin over the sessions;
  // returns the poll timeout (ms) until the next arrival.
  std::size_t next_session = 0;
  std::vector<std::int64_t> issue_late_ns;
  auto issue_due = [&]() -> int {
    while (run.trace_next < run.trace.size() && g_stop == 0) {
      const std::int64_t arrival_ns = run.trace[run.trace_next].arrival_ns;
      const std::int64_t wait_ns = arrival_ns - run.now_ns();
      if (wait_ns > 0) {
        return opt.busy_poll ? 0
                             : static_cast<int>(std::min<std::int64_t>(wait_ns / 1'000'000, 1000));
      }
      Session& s = sessions[next_session++ % sessions.size()];
      Slot& slot = s.trace_slots.emplace_back(Slot{&s, 0});
      issue(s, slot);
      // The latency runs from the arrival, not from when this loop got to it; how late the
      // command went out is kept apart.
      Record& r = run.records[slot.record];
      issue_late_ns.push_back(r.submit_ns - arrival_ns);
      r.submit_ns = arrival_ns;
    }
    return opt.busy_poll ? 0 : 1000;
  };
  std::vector<pollfd> fds(sessions.size());
  while (run.done < run.issued || (replay && run.trace_next < run.trace.size() && g_stop == 0)) {
    const int timeout_ms = replay ? issue_due() : (opt.busy_poll ? 0 : 1000);
    for (std::size_t i = 0; i < sessions.size(); ++i) {
      fds[i].fd = iscsi_get_fd(sessions[i].ctx);
      fds[i].events = static_cast<short>(iscsi_which_events(sessions[i].ctx));
      fds[i].revents = 0;
    }
    if (::poll(fds.data(), fds.size(), timeout_ms) < 0) {
      if (errno == EINTR) continue;  // SIGTERM: more() now says no
      std::perror("iscsi-load: poll");
      return 1;
    }
    for (std::size_t i = 0; i < sessions.size(); ++i) {
      if (iscsi_service(sessions[i].ctx, fds[i].revents) < 0) {
        std::cerr << "iscsi-load: " << iscsi_get_error(sessions[i].ctx) << "\n";
        return 1;
      }
    }
    if (run.timed_start_ns < 0 && run.done >= opt.warmup) run.timed_start_ns = run.now_ns();
  }
  const std::int64_t end_ns = run.now_ns();
  for (Session& s : sessions) {
    iscsi_logout_sync(s.ctx);
    iscsi_destroy_context(s.ctx);
  }

  // Timed commands: the ones after the warm-up.
  const auto first = run.records.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(
                                               opt.warmup, run.records.size()));
  const auto timed = static_cast<std::uint64_t>(run.records.end() - first);
  std::vector<std::int64_t> lat;
  lat.reserve(timed);
  for (auto it = first; it != run.records.end(); ++it)
    lat.push_back(it->complete_ns - it->submit_ns);
  const double seconds =
      static_cast<double>(end_ns - std::max<std::int64_t>(0, run.timed_start_ns)) / 1e9;
  const double iops = static_cast<double>(timed) / seconds;
  const double mbps = iops * static_cast<double>(run.bytes_per_cmd()) / 1e6;
  const double p50 = percentile(lat, 50), p99 = percentile(lat, 99), p999 = percentile(lat, 99.9);
  const double maxl =
      lat.empty() ? 0 : static_cast<double>(*std::max_element(lat.begin(), lat.end()));
  // Mean and population standard deviation (Welford), what the trace replay reports.
  double mean = 0, m2 = 0;
  for (std::size_t i = 0; i < lat.size(); ++i) {
    const double d = static_cast<double>(lat[i]) - mean;
    mean += d / static_cast<double>(i + 1);
    m2 += d * (static_cast<double>(lat[i]) - mean);
  }
  const double sd = lat.empty() ? 0 : std::sqrt(m2 / static_cast<double>(lat.size()));

  if (!opt.csv.empty()) {
    std::ofstream out(opt.csv);
    out << "session,itt,op,lba,submit_ns,complete_ns,latency_ns,status\n";
    for (auto it = first; it != run.records.end(); ++it) {
      out << it->session << ',' << it->itt << ',' << it->op << ',' << it->lba << ','
          << it->submit_ns << ',' << it->complete_ns << ',' << it->complete_ns - it->submit_ns
          << ',' << it->status << '\n';
    }
  }
  if (opt.json) {
    nlohmann::json j = {{"pattern", opt.pattern},
                        {"bs", opt.block_bytes},
                        {"qd", opt.qd},
                        {"sessions", opt.sessions},
                        {"count", timed},
                        {"failed", run.failed},
                        {"seconds", seconds},
                        {"iops", iops},
                        {"mb_per_s", mbps},
                        {"latency_us",
                         {{"mean", mean / 1e3},
                          {"sd", sd / 1e3},
                          {"p50", p50 / 1e3},
                          {"p99", p99 / 1e3},
                          {"p99.9", p999 / 1e3},
                          {"max", maxl / 1e3}}}};
    if (replay && !issue_late_ns.empty()) {
      double late_sum = 0;
      for (const std::int64_t l : issue_late_ns) late_sum += static_cast<double>(l);
      j["issue_late_us"] = {{"mean", late_sum / static_cast<double>(issue_late_ns.size()) / 1e3},
                            {"p99", percentile(issue_late_ns, 99) / 1e3},
                            {"max", static_cast<double>(*std::max_element(issue_late_ns.begin(),
                                                                          issue_late_ns.end())) /
                                        1e3}};
    }
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf("%s bs=%u qd=%d sessions=%d: %llu commands in %.3f s, %.0f IOPS, %.1f MB/s\n",
                opt.pattern.c_str(), opt.block_bytes, opt.qd, opt.sessions,
                static_cast<unsigned long long>(timed), seconds, iops, mbps);
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
