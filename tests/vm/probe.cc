// SPDX-License-Identifier: Apache-2.0
// memstore_probe: a small libiscsi client for the VM test (scripts/vm-test)
// and for comparing a LUN served through LIO+TCMU with one served by
// memstored. It checks what only a MEMStore has: mode page 20h, the Block
// Limits it derives from it, a MEMS BATCH round trip, and completion times
// against the model's own service times (MEMS BATCH RESULTS reports them).
//
//   memstore_probe URL geometry      page 20h; exit 1 unless it is G2's
//   memstore_probe URL block-limits  VPD B0h: granularity p, optimal ST
//   memstore_probe URL batch         write two extents, read them back in one batch
//   memstore_probe URL latency N [K] N one-block batches at spread LBAs, one at a time:
//                                    observed latency vs K x modeled service time (K: the
//                                    LUN's timing scale, default 1; 0 for timing off,
//                                    where only the path's latency is measured); exit 1
//                                    if any completed before its due time
//   memstore_probe URL overlap [LUN] TEST UNIT READYs (to LUN, default the URL's) sent while a long
//   batch is in
//                                    service must all complete before it: the target
//                                    serialises nothing the model does not
//   memstore_probe URL lateness [MIN] vendor log page 31h (LOG SENSE): the delivery lateness
//                                    the target recorded (count, mean, max; metric 6) and the
//                                    media statistics beside it; exit 1 if page 00h does not
//                                    list 31h, the lateness parameters are missing, or fewer
//                                    than MIN (default 1) timed completions were counted.
//                                    The page holds no early count: the delivery engine never
//                                    delivers before the due instant and records max(0, late),
//                                    so an early completion is seen from the client only
//                                    (`latency`, early=N)
//
// Output is one "key=value ..." line per check, for scripts to grep.
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <poll.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "modepages/batch_codec.h"
#include "modepages/log_pages.h"
#include "modepages/mode_vendor.h"

namespace {

namespace mp = memstore::modepages;
using Clock = std::chrono::steady_clock;

struct Connection {
  iscsi_context* ctx = nullptr;
  int lun = 0;
  ~Connection() {
    if (ctx != nullptr) {
      iscsi_logout_sync(ctx);
      iscsi_destroy_context(ctx);
    }
  }
};

bool connect(const char* url, Connection& c) {
  c.ctx = iscsi_create_context("iqn.2026-11.org.memstore.test:probe");
  if (c.ctx == nullptr) return false;
  iscsi_url* u = iscsi_parse_full_url(c.ctx, url);
  if (u == nullptr) {
    std::fprintf(stderr, "probe: bad URL %s: %s\n", url, iscsi_get_error(c.ctx));
    return false;
  }
  iscsi_set_targetname(c.ctx, u->target);
  iscsi_set_session_type(c.ctx, ISCSI_SESSION_NORMAL);
  iscsi_set_header_digest(c.ctx, ISCSI_HEADER_DIGEST_NONE_CRC32C);
  c.lun = u->lun;
  const int rc = iscsi_full_connect_sync(c.ctx, u->portal, u->lun);
  iscsi_destroy_url(u);
  if (rc != 0) {
    std::fprintf(stderr, "probe: login to %s failed: %s\n", url, iscsi_get_error(c.ctx));
    return false;
  }
  return true;
}

struct Result {
  bool good = false;
  std::vector<std::uint8_t> data_in;
  std::string error;
};

Result command(Connection& c, std::vector<std::uint8_t> cdb, int dir, int xfer_len,
               std::vector<std::uint8_t> data_out = {}, int lun = -1) {
  Result r;
  scsi_task* task = scsi_create_task(static_cast<int>(cdb.size()), cdb.data(), dir, xfer_len);
  iscsi_data out{data_out.size(), data_out.data()};
  scsi_task* done = iscsi_scsi_command_sync(c.ctx, lun < 0 ? c.lun : lun, task,
                                            data_out.empty() ? nullptr : &out);
  if (done == nullptr) {
    r.error = iscsi_get_error(c.ctx);
  } else if (task->status != SCSI_STATUS_GOOD) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "status 0x%02x sense key %d ascq 0x%04x", task->status,
                  static_cast<int>(task->sense.key), task->sense.ascq);
    r.error = buf;
  } else {
    r.good = true;
    r.data_in.assign(task->datain.data, task->datain.data + task->datain.size);
  }
  scsi_free_scsi_task(task);
  return r;
}

std::uint32_t be32(const std::vector<std::uint8_t>& d, std::size_t at) {
  return static_cast<std::uint32_t>(d[at]) << 24 | static_cast<std::uint32_t>(d[at + 1]) << 16 |
         static_cast<std::uint32_t>(d[at + 2]) << 8 | d[at + 3];
}

int geometry(Connection& c) {
  // MODE SENSE(10), DBD, page 20h, current values.
  const Result r = command(c, {0x5A, 0x08, 0x20, 0, 0, 0, 0, 0x01, 0x00, 0}, SCSI_XFER_READ, 256);
  if (!r.good || r.data_in.size() < 8) {
    std::printf("geometry=error %s\n", r.error.c_str());
    return 1;
  }
  const std::size_t bd = (static_cast<std::size_t>(r.data_in[6]) << 8) | r.data_in[7];
  const auto page =
      mp::decode_geometry_page(std::span(r.data_in).subspan(std::min(8 + bd, r.data_in.size())));
  if (!page) {
    std::printf("geometry=error undecodable page 20h\n");
    return 1;
  }
  std::printf(
      "geometry=ok p=%u N=%u Sx=%u Sy=%u M=%u Nx=%u Ny=%u ST=%u SC=%u blocks_per_sled=%llu "
      "max_batch_descriptors=%u max_batch_blocks=%u\n",
      page->p, page->n, page->sx, page->sy, page->m, page->nx, page->ny, page->st, page->sc,
      static_cast<unsigned long long>(page->blocks_per_sled), page->max_batch_descriptors,
      page->max_batch_blocks);
  const bool g2 = page->p == 10 && page->n == 100 && page->sx == 2500 && page->sy == 27 &&
                  page->st == 270 && page->sc == 2700 && page->blocks_per_sled == 6'750'000;
  return g2 ? 0 : 1;
}

int block_limits(Connection& c) {
  const Result r = command(c, {0x12, 0x01, 0xB0, 0, 64, 0}, SCSI_XFER_READ, 64);
  if (!r.good || r.data_in.size() < 16 || r.data_in[1] != 0xB0) {
    std::printf("block_limits=error %s\n", r.error.c_str());
    return 1;
  }
  const unsigned granularity = (static_cast<unsigned>(r.data_in[6]) << 8) | r.data_in[7];
  std::printf("block_limits=ok granularity=%u max_transfer=%u optimal=%u\n", granularity,
              be32(r.data_in, 8), be32(r.data_in, 12));
  return granularity == 10 && be32(r.data_in, 12) == 270 ? 0 : 1;
}

// Runs one batch (WRITE BUFFER mode 01h) and reads its whole result (READ
// BUFFER mode 01h). Returns the wall time of the batch command alone.
bool run_batch(Connection& c, std::uint8_t id, const std::vector<mp::BatchDescriptor>& d,
               const std::vector<std::uint8_t>& write_data, std::int64_t& batch_ns,
               mp::BatchResultsHeader& header, std::vector<std::uint8_t>& read_data,
               std::string& error) {
  const mp::Bytes list = mp::encode_batch_list(d, write_data);
  const mp::Bytes cdb = mp::make_batch_cdb(id, static_cast<std::uint32_t>(list.size()));
  const auto t0 = Clock::now();
  const Result w = command(c, cdb, SCSI_XFER_WRITE, static_cast<int>(list.size()), list);
  batch_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  if (!w.good) {
    error = "MEMS BATCH: " + w.error;
    return false;
  }
  std::uint64_t read_blocks = 0;
  for (const auto& x : d) {
    if (x.op == mp::BatchOp::kRead) read_blocks += x.blocks;
  }
  const auto size = static_cast<std::uint32_t>(mp::kBatchResultsHeaderBytes + read_blocks * 512);
  const Result r =
      command(c, mp::make_results_cdb(id, 0, size), SCSI_XFER_READ, static_cast<int>(size));
  const auto h = r.good ? mp::decode_batch_results_header(r.data_in) : std::nullopt;
  if (!h) {
    error = "MEMS BATCH RESULTS: " + (r.good ? std::string("short result") : r.error);
    return false;
  }
  header = *h;
  read_data.assign(r.data_in.begin() + mp::kBatchResultsHeaderBytes, r.data_in.end());
  return true;
}

int batch(Connection& c) {
  // Two writes, then a batch reading both back.
  std::vector<std::uint8_t> data(std::size_t{8} * 512);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 13 + 5);
  const std::vector<mp::BatchDescriptor> writes = {{mp::BatchOp::kWrite, 1000, 4, 0},
                                                   {mp::BatchOp::kWrite, 200'000, 4, 0}};
  const std::vector<mp::BatchDescriptor> reads = {{mp::BatchOp::kRead, 1000, 4, 0},
                                                  {mp::BatchOp::kRead, 200'000, 4, 0}};
  std::int64_t ns = 0;
  mp::BatchResultsHeader h1, h2;
  std::vector<std::uint8_t> none, back;
  std::string error;
  if (!run_batch(c, 7, writes, data, ns, h1, none, error) ||
      !run_batch(c, 8, reads, {}, ns, h2, back, error)) {
    std::printf("batch=error %s\n", error.c_str());
    return 1;
  }
  const bool same = back == data;
  std::printf("batch=%s write_steps=%u write_service_us=%u read_steps=%u read_service_us=%u\n",
              same ? "ok" : "mismatch", h1.media_steps, h1.service_us, h2.media_steps,
              h2.service_us);
  return same && h2.batch_id == 8 && h2.descriptors == 2 ? 0 : 1;
}

int latency(Connection& c, int n, double scale) {
  std::vector<double> overhead_us;
  double modeled_sum_us = 0;
  int early = 0;
  std::uint64_t lba = 12345;
  for (int i = 0; i < n; ++i) {
    lba = (lba * 2862933555777941757ull + 3037000493ull) % 6'749'000ull;
    std::int64_t ns = 0;
    mp::BatchResultsHeader h;
    std::vector<std::uint8_t> back;
    std::string error;
    if (!run_batch(c, static_cast<std::uint8_t>(i), {{mp::BatchOp::kRead, lba, 1, 0}}, {}, ns, h,
                   back, error)) {
      std::printf("latency=error %s\n", error.c_str());
      return 1;
    }
    const double observed_us = static_cast<double>(ns) / 1000.0;
    const double due_us = scale * h.service_us;
    if (observed_us < due_us) ++early;
    overhead_us.push_back(observed_us - due_us);
    modeled_sum_us += h.service_us;
  }
  std::sort(overhead_us.begin(), overhead_us.end());
  double sum = 0;
  for (double v : overhead_us) sum += v;
  const auto pct = [&](double q) {
    return overhead_us[static_cast<std::size_t>(q * static_cast<double>(overhead_us.size() - 1))];
  };
  std::printf(
      "latency=%s n=%d early=%d modeled_mean_us=%.1f overhead_us_min=%.1f "
      "overhead_us_mean=%.1f overhead_us_p50=%.1f overhead_us_p99=%.1f overhead_us_max=%.1f\n",
      early == 0 ? "ok" : "early", n, early, modeled_sum_us / n, overhead_us.front(), sum / n,
      pct(0.5), pct(0.99), overhead_us.back());
  return early == 0 ? 0 : 1;
}

struct AsyncResult {
  bool done = false;
  int status = -1;
  Clock::time_point at;
};

void on_async_done(iscsi_context*, int status, void*, void* private_data) {
  auto* a = static_cast<AsyncResult*>(private_data);
  a->done = true;
  a->status = status;
  a->at = Clock::now();
}

// `tur_lun`: where the TEST UNIT READYs go (default: the batch's LUN).
int overlap(Connection& c, int tur_lun) {
  // 64 one-block reads spread over the device: one batch of ~30 ms of
  // modeled seeks (one media step each) that costs the model well under a
  // millisecond of CPU to plan (planning grows faster than linearly with the
  // batch; while it runs the Lun is busy). Run it on a LUN in scaled timing
  // so the batch is in service long enough for the TEST UNIT READYs.
  std::vector<mp::BatchDescriptor> d;
  for (std::uint64_t i = 0; i < 64; ++i) {
    d.push_back({mp::BatchOp::kRead, i * 100'000 + (i % 7) * 301, 1, 0});
  }
  const mp::Bytes list = mp::encode_batch_list(d, {});
  mp::Bytes cdb = mp::make_batch_cdb(9, static_cast<std::uint32_t>(list.size()));
  scsi_task* task = scsi_create_task(static_cast<int>(cdb.size()), cdb.data(), SCSI_XFER_WRITE,
                                     static_cast<int>(list.size()));
  iscsi_data out{list.size(), const_cast<unsigned char*>(list.data())};
  AsyncResult batch;
  const auto t0 = Clock::now();
  if (iscsi_scsi_command_async(c.ctx, c.lun, task, on_async_done, &out, &batch) != 0) {
    std::printf("overlap=error cannot queue the batch: %s\n", iscsi_get_error(c.ctx));
    scsi_free_scsi_task(task);
    return 1;
  }
  constexpr int kTurs = 3;
  int during = 0;
  double tur_max_us = 0;
  for (int i = 0; i < kTurs; ++i) {
    const auto t = Clock::now();
    const Result r = command(c, {0, 0, 0, 0, 0, 0}, SCSI_XFER_NONE, 0, {}, tur_lun);
    tur_max_us =
        std::max(tur_max_us, std::chrono::duration<double, std::micro>(Clock::now() - t).count());
    if (!r.good) {
      std::printf("overlap=error TEST UNIT READY: %s\n", r.error.c_str());
      return 1;
    }
    if (!batch.done) ++during;
  }
  while (!batch.done) {
    pollfd pfd{iscsi_get_fd(c.ctx), static_cast<short>(iscsi_which_events(c.ctx)), 0};
    if (poll(&pfd, 1, 1000) < 0 || iscsi_service(c.ctx, pfd.revents) < 0) {
      std::printf("overlap=error %s\n", iscsi_get_error(c.ctx));
      return 1;
    }
  }
  const bool good = batch.status == SCSI_STATUS_GOOD && task->status == SCSI_STATUS_GOOD;
  scsi_free_scsi_task(task);
  const Result h = command(c, mp::make_results_cdb(9, 0, mp::kBatchResultsHeaderBytes),
                           SCSI_XFER_READ, static_cast<int>(mp::kBatchResultsHeaderBytes));
  const auto header = h.good ? mp::decode_batch_results_header(h.data_in) : std::nullopt;
  if (!good || !header) {
    std::printf("overlap=error the batch failed\n");
    return 1;
  }
  const double batch_ms = std::chrono::duration<double, std::milli>(batch.at - t0).count();
  std::printf(
      "overlap=%s turs_during_batch=%d/%d tur_max_us=%.0f batch_ms=%.1f batch_service_ms=%.1f "
      "steps=%u\n",
      during == kTurs ? "ok" : "serialised", during, kTurs, tur_max_us, batch_ms,
      header->service_us / 1000.0, header->media_steps);
  return during == kTurs ? 0 : 1;
}

// LOG SENSE (4Dh), PC = 01b (cumulative values), the whole page.
Result log_sense(Connection& c, std::uint8_t page) {
  return command(c, {0x4D, 0, static_cast<std::uint8_t>(0x40 | page), 0, 0, 0, 0, 0x04, 0x00, 0},
                 SCSI_XFER_READ, 1024);
}

int lateness(Connection& c, std::uint64_t min_count) {
  const Result supported = log_sense(c, mp::kSupportedLogPages);
  const auto pages =
      supported.good ? mp::decode_supported_log_pages(supported.data_in) : std::nullopt;
  if (!pages || std::find(pages->begin(), pages->end(), mp::kPositioningLogPage) == pages->end()) {
    std::printf("lateness=error page 00h does not list 31h %s\n", supported.error.c_str());
    return 1;
  }
  const Result r = log_sense(c, mp::kPositioningLogPage);
  const auto page = r.good ? mp::decode_log_page(r.data_in) : std::nullopt;
  const auto log = r.good ? mp::decode_positioning_log(r.data_in) : std::nullopt;
  if (!page || !log) {
    std::printf("lateness=error page 31h: %s\n", r.good ? "undecodable" : r.error.c_str());
    return 1;
  }
  // The decoder reads a missing parameter as 0: require the three lateness
  // parameters themselves.
  using mp::PositioningMetric;
  int present = 0;
  for (const auto& p : page->parameters) {
    if (p.code >> 4 == static_cast<int>(PositioningMetric::kDeliveryLateness) &&
        (p.code & 0x0F) <= 2) {
      ++present;
    }
  }
  const mp::MetricSummary& late = (*log)[PositioningMetric::kDeliveryLateness];
  const mp::MetricSummary& transfer = (*log)[PositioningMetric::kTransfer];
  const mp::MetricSummary& queue = (*log)[PositioningMetric::kQueueDepth];
  const bool good =
      present == 3 && late.count >= std::max<std::uint64_t>(1, min_count) && late.mean <= late.max;
  const auto us = [](std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
  std::printf(
      "lateness=%s count=%llu mean_us=%.1f max_us=%.1f media_commands=%llu "
      "transfer_mean_us=%.1f queue_depth_mean=%.3f queue_depth_max=%llu page_bytes=%zu%s\n",
      good ? "ok" : "bad", static_cast<unsigned long long>(late.count), us(late.mean), us(late.max),
      static_cast<unsigned long long>(transfer.count), us(transfer.mean), us(queue.mean),
      static_cast<unsigned long long>(queue.max), r.data_in.size(),
      present == 3 ? "" : " (lateness parameters 0060h-0062h missing)");
  return good ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(
        stderr,
        "usage: memstore_probe URL geometry|block-limits|batch|latency N [K]|overlap [LUN]|"
        "lateness [MIN]\n");
    return 2;
  }
  Connection c;
  if (!connect(argv[1], c)) return 1;
  const std::string what = argv[2];
  if (what == "geometry") return geometry(c);
  if (what == "block-limits") return block_limits(c);
  if (what == "batch") return batch(c);
  if (what == "latency") {
    return latency(c, argc > 3 ? std::max(1, std::atoi(argv[3])) : 100,
                   argc > 4 ? std::atof(argv[4]) : 1.0);
  }
  if (what == "overlap") return overlap(c, argc > 3 ? std::atoi(argv[3]) : -1);
  if (what == "lateness") return lateness(c, argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
  std::fprintf(stderr, "probe: unknown check %s\n", what.c_str());
  return 2;
}
