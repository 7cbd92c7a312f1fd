// SPDX-License-Identifier: Apache-2.0
// A session's task: one SCSI command from its PDU to its response, with its
// write data and R2T bookkeeping. Private to the session's files
// (session*.cc).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "target/iscsi/session.h"

namespace memstore::iscsi {

struct Session::Task {
  ScsiCommandPdu cmd;
  std::uint64_t tag = 0;  // the LUN's name for it: ITT and generation
  // Data-out bytes kept: the CDB's own transfer length, or the initiator's
  // expected length when that is less. More data is counted and dropped
  // (RFC 7143 §11.4.5.2: the residual reports it).
  std::uint32_t wanted = 0;
  std::vector<std::uint8_t> cdb;
  std::uint16_t lun = 0;
  driver::CommandPort* port = nullptr;
  // Write data as it arrives, in order (we negotiate DataPDUInOrder and
  // DataSequenceInOrder = Yes), up to `wanted` bytes: the first `kept` bytes
  // of `data`. The buffer grows with what the initiator really sent (a
  // header announcing 4 GiB costs nothing until the bytes come), and is
  // never cleared: growing it zeroes the new bytes, which the data then
  // overwrites, so a recycled task reuses its size as well as its capacity.
  scsi::Bytes data;
  std::uint32_t kept = 0;
  std::uint32_t received = 0;  // data bytes received so far, kept or not
  std::uint32_t next_r2t_offset = 0;
  std::uint32_t r2t_sn = 0;
  std::uint32_t outstanding_r2ts = 0;
  bool unsolicited_done = true;  // the unsolicited Data-Out sequence has ended
  // The next DataSN of each output sequence: the unsolicited one, and one per
  // R2T by its Target Transfer Tag (RFC 7143 §11.7.5).
  std::uint32_t unsolicited_data_sn = 0;
  // (TTT, next DataSN) of the outstanding R2Ts: a handful at most
  // (MaxOutstandingR2T), so a flat list that keeps its capacity.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> r2t_data_sn;
  std::uint32_t* r2t_sequence(std::uint32_t ttt) {
    for (auto& [r2t_tag, sn] : r2t_data_sn) {
      if (r2t_tag == ttt) return &sn;
    }
    return nullptr;
  }
  bool submitted = false;
  // An injected timeout with `abort = "reject"`: ABORT TASK is refused.
  bool refuse_abort = false;
  // The LUN was asked about its first R2T (driver::CommandPort::screen_r2t), and said
  // to withhold it: the task waits for the initiator's abort.
  bool r2t_screened = false;
  bool r2t_withheld = false;

  // Room for `n` more bytes of data after what is kept; where they go.
  std::span<std::uint8_t> room(std::size_t n) {
    if (data.size() < kept + n) data.resize(kept + n);
    return std::span(data).subspan(kept, n);
  }

  // For a recycled task: everything back to its initial state, buffers kept.
  void reset() {
    cmd = {};
    tag = 0;
    wanted = 0;
    cdb.clear();
    lun = 0;
    port = nullptr;
    kept = 0;
    received = 0;
    next_r2t_offset = 0;
    r2t_sn = 0;
    outstanding_r2ts = 0;
    unsolicited_done = true;
    unsolicited_data_sn = 0;
    r2t_data_sn.clear();
    submitted = false;
    refuse_abort = false;
    r2t_screened = false;
    r2t_withheld = false;
  }
};

}  // namespace memstore::iscsi
