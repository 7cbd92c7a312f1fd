// SPDX-License-Identifier: Apache-2.0
// Commands that move or check data: READ/WRITE (6/10/12/16), WRITE AND
// VERIFY, VERIFY, SYNCHRONIZE CACHE, WRITE SAME, UNMAP, COMPARE AND WRITE,
// ORWRITE (SBC-3 §5).
#include <algorithm>

#include "modepages/bytes.h"
#include "target/scsi/limits.h"
#include "target/scsi/lun.h"

namespace memstore::scsi {
namespace {

using modepages::get_be;

struct Rw {
  std::uint64_t lba;
  std::uint64_t blocks;
  std::uint8_t lba_byte;  // where LBA and TRANSFER LENGTH sit, for field pointers
  std::uint8_t len_byte;
  bool fua;
};

// The LBA and transfer length of a READ/WRITE-like CDB, where its table
// entry says they are.
Rw decode_rw(const CommandContext& c) {
  const CommandSpec& s = c.spec;
  // FUA is byte 1 bit 3 (SBC-3 READ (10)); READ(6) and WRITE(6) have none,
  // their byte 1 holds the LBA's high bits.
  const bool fua = s.cdb_length != 6 && (c.cdb[1] & 0x08) != 0;
  return {cdb_field(c.cdb, s.lba), cdb_blocks(s, c.cdb, 0), s.lba.offset, s.length.offset, fua};
}

// The whole blocks of a write the transport delivered: it may deliver less
// than the CDB describes (iSCSI: an ExpectedDataTransferLength below the
// transfer length); the rest is the transport's residual.
std::uint64_t delivered_blocks(const Rw& rw, std::span<const std::uint8_t> data_out,
                               std::uint32_t block_size) {
  return std::min<std::uint64_t>(rw.blocks, data_out.size() / block_size);
}

// WRITE SAME writes its pattern in pieces of this many bytes: each is one
// storage operation, so no single one holds the disk (or, with a
// synchronous store, the thread) for long.
constexpr std::size_t kWriteSameRunBytes = std::size_t{1} << 20;

}  // namespace

// The checks every READ/WRITE-family command makes first: the transfer
// length within the Block Limits page's maximum (SBC-3 §6.6.3), then the
// range (SBC-3 §4.5).
Outcome Lun::check_transfer(std::uint64_t lba, std::uint64_t blocks, std::uint16_t lba_byte,
                            std::uint16_t len_byte) const {
  if (blocks > kMaxTransferBlocks) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, len_byte));
  }
  return check_range(lba, blocks, lba_byte);
}

Outcome Lun::read(const CommandContext& c) {
  const Rw rw = decode_rw(c);
  if (Outcome o = check_transfer(rw.lba, rw.blocks, rw.lba_byte, rw.len_byte); o.sense) return o;
  Outcome o = media_outcome(model::Op::kRead, rw.lba, rw.blocks);
  const auto bytes = static_cast<std::size_t>(rw.blocks * block_size());
  if (rw.blocks > 0 && deferred(bytes)) {
    // The data arrives in a buffer the IoWait owns; complete_io() hands it
    // to the result.
    std::optional<Bytes> data = buffer(bytes);
    if (!data) return Outcome::no_buffer();
    const std::shared_ptr<IoWait>& io = io_for(rw.lba, false);
    async_->start_read(rw.lba, rw.blocks, io->hold(std::move(*data)), io);
    return o;
  }
  std::optional<Bytes> data = buffer(bytes);
  if (!data) return Outcome::no_buffer();
  o.data_in = std::move(*data);
  if (auto e = store_->read(rw.lba, rw.blocks, o.data_in); !e.ok())
    return store_failed(e.error(), false, rw.lba);
  return o;
}

Outcome Lun::write(const CommandContext& c) {
  // FUA, or a write-through cache (WCE = 0): durable before GOOD (SBC-3 §4.14).
  return write_blocks(c, decode_rw(c).fua || !mode_.wce());
}

Outcome Lun::write_blocks(const CommandContext& c, bool durable) {
  const Rw rw = decode_rw(c);
  if (Outcome o = check_transfer(rw.lba, rw.blocks, rw.lba_byte, rw.len_byte); o.sense) return o;
  // Only the whole blocks received are written; the transport reports the
  // residual (RFC 7143 §11.4.5) from `transfer_bytes`.
  const std::uint64_t blocks = delivered_blocks(rw, c.data_out, block_size());
  const std::size_t bytes = static_cast<std::size_t>(blocks * block_size());
  if (blocks > 0 && deferred(bytes)) {
    // The data-out is the transport's until submit() returns: the operation
    // writes from a buffer the IoWait owns. That is the transport's own when
    // it offers it, exchanged for one of ours; else a copy.
    std::optional<Bytes> data = buffer(bytes);
    if (!data) return Outcome::no_buffer();
    const bool taken = take_data_out(c, *data);
    const std::shared_ptr<IoWait>& io = io_for(rw.lba, true);
    const std::span<std::uint8_t> held = io->hold(std::move(*data)).first(bytes);
    if (!taken) std::copy_n(c.data_out.begin(), bytes, held.begin());
    async_->start_write(rw.lba, blocks, held, durable, io);
  } else if (blocks > 0) {
    const auto in = c.data_out.first(bytes);
    if (auto e =
            durable ? store_->write_durable(rw.lba, blocks, in) : store_->write(rw.lba, blocks, in);
        !e.ok()) {
      return store_failed(e.error(), true, rw.lba);
    }
  } else if (durable) {
    if (auto e = store_->flush(); !e.ok()) return store_failed(e.error(), true, rw.lba);
  }
  Outcome o = media_outcome(model::Op::kWrite, rw.lba, blocks);
  // A disk's own write-back cache times it only when the host allows one.
  if (o.media) o.media->write_through = durable;
  o.transfer_bytes = rw.blocks * block_size();
  return o;
}

Outcome Lun::write_and_verify(const CommandContext& c) {
  // BYTCHK 00b: verify the medium; 01b: compare with the data just written,
  // which matches by construction. Other values are reserved here.
  if ((c.cdb[1] & 0x06) > 0x02) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 1, 2));
  // Verification makes the data durable and costs the same media pass as the
  // write, which the model times (docs/vendor-interface.md).
  return write_blocks(c, true);
}

Outcome Lun::verify(const CommandContext& c) {
  const Rw rw = decode_rw(c);
  const std::uint8_t bytchk = (c.cdb[1] >> 1) & 0x03;
  if (bytchk == 0x02) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 1, 2));
  if (Outcome o = check_transfer(rw.lba, rw.blocks, rw.lba_byte, rw.len_byte); o.sense) return o;
  if (bytchk != 0) {
    // 01b: one block of data-out per block; 11b: one block for all (SBC-3 §5.29).
    const std::size_t bs = block_size();
    const std::size_t need = bytchk == 0x01 ? static_cast<std::size_t>(rw.blocks) * bs : bs;
    if (rw.blocks > 0 && c.data_out.size() < need) {
      return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, rw.len_byte));
    }
    Bytes medium(static_cast<std::size_t>(rw.blocks) * bs);
    if (auto e = store_->read(rw.lba, rw.blocks, medium); !e.ok())
      return store_failed(e.error(), false, rw.lba);
    for (std::size_t i = 0; i < medium.size(); ++i) {
      const std::uint8_t expected = bytchk == 0x01 ? c.data_out[i] : c.data_out[i % bs];
      if (medium[i] != expected) {
        Sense s{Reason::kMiscompare, std::nullopt,
                i};  // INFORMATION: offset of the first miscompare
        return Outcome::fail(s);
      }
    }
  }
  return media_outcome(model::Op::kRead, rw.lba, rw.blocks);
}

Outcome Lun::synchronize_cache(const CommandContext& c) {
  const std::uint64_t lba = cdb_field(c.cdb, c.spec.lba);
  const std::uint64_t n = cdb_field(c.cdb, c.spec.length);
  // NUMBER OF LOGICAL BLOCKS 0: from LBA to the end (SBC-3 §5.22).
  if (Outcome o = check_range(lba, n, c.spec.lba.offset); o.sense) return o;
  if (deferred(0)) {
    async_->start_flush(io_for(lba, true));
    return {};
  }
  if (auto e = store_->flush(); !e.ok()) return store_failed(e.error(), true, lba);
  return {};
}

Outcome Lun::pre_fetch(const CommandContext& c) {
  // SBC-3 §5.11: the device has no cache to fill, so after the range check
  // the answer is GOOD (not CONDITION MET) and no media is touched.
  return check_range(cdb_field(c.cdb, c.spec.lba), cdb_field(c.cdb, c.spec.length),
                     c.spec.lba.offset);
}

Outcome Lun::write_same(const CommandContext& c) {
  const std::uint64_t lba = cdb_field(c.cdb, c.spec.lba);
  const std::uint64_t n = cdb_field(c.cdb, c.spec.length);
  const std::uint8_t len_byte = c.spec.length.offset;
  const bool unmap_bit = (c.cdb[1] & 0x08) != 0;
  // NDOB, WRITE SAME(16) only (reserved in (10), refused before dispatch):
  // no data-out buffer, the blocks become zeros.
  const bool ndob = (c.cdb[1] & 0x01) != 0;
  // WSNZ = 1 in VPD B0h: a NUMBER OF LOGICAL BLOCKS of 0 is not allowed.
  if (n == 0 || n > kMaxWriteSameBlocks) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, len_byte));
  }
  if (Outcome o = check_range(lba, n, c.spec.lba.offset); o.sense) return o;
  const std::size_t bs = block_size();
  Bytes block(bs, 0);
  if (!ndob) {
    if (c.data_out.size() < bs)
      return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, len_byte));
    std::copy_n(c.data_out.begin(), bs, block.begin());
  }
  const bool zeros = std::all_of(block.begin(), block.end(), [](std::uint8_t b) { return b == 0; });
  // WCE = 0: on stable storage before GOOD (SBC-3 §4.14), the unmap too.
  const bool durable = !mode_.wce();
  if (unmap_bit && zeros) {
    // Deallocate: unmapped blocks read as zeros (LBPRZ), so this is exact.
    // No media motion: the model is not involved.
    if (Outcome o = unmap_blocks(lba, n, durable); o.sense) return o;
    return {};
  }
  // One run of the pattern, written again and again: each write is one
  // storage operation of at most kWriteSameRunBytes.
  const std::uint64_t run_blocks = std::max<std::uint64_t>(1, kWriteSameRunBytes / bs);
  std::optional<Bytes> pattern_buffer =
      buffer(static_cast<std::size_t>(std::min(n, run_blocks) * bs));
  if (!pattern_buffer) return Outcome::no_buffer();
  Bytes pattern = std::move(*pattern_buffer);
  for (std::size_t i = 0; i < pattern.size(); i += bs)
    std::copy(block.begin(), block.end(), pattern.begin() + static_cast<std::ptrdiff_t>(i));
  std::span<const std::uint8_t> run = pattern;
  const std::shared_ptr<IoWait>* io = nullptr;
  if (deferred(n * bs)) {
    io = &io_for(lba, true);
    run = (*io)->hold(std::move(pattern));
  }
  for (std::uint64_t done = 0; done < n;) {
    const std::uint64_t k = std::min(run_blocks, n - done);
    const auto piece = run.first(static_cast<std::size_t>(k * bs));
    if (io != nullptr) {
      async_->start_write(lba + done, k, piece, false, *io);
    } else if (auto e = store_->write(lba + done, k, piece); !e.ok()) {
      recycle(std::move(pattern));
      return store_failed(e.error(), true, lba + done);
    }
    done += k;
  }
  if (io != nullptr) {
    // The flush waits for this command's writes (async_store.h).
    if (durable) async_->start_flush(*io);
  } else {
    recycle(std::move(pattern));
    if (durable) {
      if (auto e = store_->flush(); !e.ok()) return store_failed(e.error(), true, lba);
    }
  }
  return media_outcome(model::Op::kWrite, lba, n);
}

// UNMAP and WRITE SAME's deallocation: asynchronous when the store is.
Outcome Lun::unmap_blocks(std::uint64_t lba, std::uint64_t n, bool durable) {
  if (n == 0) return {};
  if (deferred(n * block_size())) {
    async_->start_unmap(lba, n, durable, io_for(lba, true));
    return {};
  }
  if (auto e = store_->unmap(lba, n); !e.ok()) return store_failed(e.error(), true, lba);
  if (durable) {
    if (auto e = store_->flush(); !e.ok()) return store_failed(e.error(), true, lba);
  }
  return {};
}

Outcome Lun::unmap(const CommandContext& c) {
  // SBC-3 §5.28: header (UNMAP DATA LENGTH, BLOCK DESCRIPTOR DATA LENGTH),
  // then 16-byte descriptors (LBA, NUMBER OF LOGICAL BLOCKS, reserved).
  const std::uint64_t len = cdb_field(c.cdb, c.spec.length);
  if (len == 0) return {};
  if (len < 8 || c.data_out.size() < len) {
    return {Outcome::fail({Reason::kParamListLengthError, std::nullopt, std::nullopt})};
  }
  const auto list = c.data_out.first(static_cast<std::size_t>(len));
  const std::uint64_t desc_len = get_be(list, 2, 2);
  if (desc_len % 16 != 0 || 8 + desc_len > len) {
    return Outcome::fail(Sense::param(Reason::kInvalidFieldInParamList, 2));
  }
  if (desc_len / 16 > kMaxUnmapDescriptors) {
    return Outcome::fail(Sense::param(Reason::kInvalidFieldInParamList, 2));
  }
  // Validate everything before changing anything.
  for (std::size_t at = 8; at < 8 + desc_len; at += 16) {
    const std::uint64_t lba = get_be(list, at, 8);
    const std::uint64_t n = get_be(list, at + 8, 4);
    if (n > kMaxUnmapBlocks) {
      return Outcome::fail(
          Sense::param(Reason::kInvalidFieldInParamList, static_cast<std::uint16_t>(at + 8)));
    }
    if (Outcome o = check_range(lba, n, 0); o.sense) return o;
  }
  for (std::size_t at = 8; at < 8 + desc_len; at += 16) {
    // WCE = 0: on stable storage before GOOD (SBC-3 §4.14).
    if (Outcome o = unmap_blocks(get_be(list, at, 8), get_be(list, at + 8, 4), !mode_.wce());
        o.sense) {
      return o;
    }
  }
  return {};
}

Outcome Lun::compare_and_write(const CommandContext& c) {
  const std::uint64_t lba = cdb_field(c.cdb, c.spec.lba);
  const std::uint64_t n = cdb_field(c.cdb, c.spec.length);
  const std::uint8_t len_byte = c.spec.length.offset;
  if (n > kMaxCompareAndWriteBlocks) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, len_byte));
  }
  if (Outcome o = check_range(lba, n, c.spec.lba.offset); o.sense) return o;
  const std::size_t bytes = static_cast<std::size_t>(n * block_size());
  // The data-out is exactly the verify and the write data (SBC-3 §5.2); a
  // host with a Data-Out Buffer of another size disagrees with NUMBER OF
  // LOGICAL BLOCKS (the transport may have moved only what the CDB asks).
  if (c.data_out.size() != 2 * bytes || c.data_out_buffer != 2 * bytes) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, len_byte));
  }
  if (n == 0) return {};
  // The Lun runs one command at a time, so compare and write together are
  // atomic with respect to every other command (SBC-3 §5.2).
  Bytes medium(bytes);
  if (auto e = store_->read(lba, n, medium); !e.ok()) return store_failed(e.error(), false, lba);
  const auto mismatch = std::mismatch(medium.begin(), medium.end(), c.data_out.begin());
  if (mismatch.first != medium.end()) {
    Sense s{Reason::kMiscompare, std::nullopt,
            static_cast<std::uint64_t>(mismatch.first - medium.begin())};
    return Outcome::fail(s);
  }
  if (auto e = store_->write(lba, n, c.data_out.subspan(bytes, bytes)); !e.ok()) {
    return store_failed(e.error(), true, lba);
  }
  if ((c.cdb[1] & 0x08) != 0 || !mode_.wce()) {
    if (auto e = store_->flush(); !e.ok()) return store_failed(e.error(), true, lba);
  }
  // The model times the write pass; the compare reads the same blocks in the
  // same positioning (docs/vendor-interface.md).
  return media_outcome(model::Op::kWrite, lba, n);
}

Outcome Lun::orwrite(const CommandContext& c) {
  // SBC-3 §5.9, ORWRITE(16): each block becomes the medium's block OR the
  // data-out's. ORPROTECT is outside the usage mask (no protection
  // information); BMOP and the ORWRITE generation fields are SBC-4.
  const Rw rw = decode_rw(c);
  if (Outcome o = check_transfer(rw.lba, rw.blocks, rw.lba_byte, rw.len_byte); o.sense) return o;
  // Like WRITE: only the whole blocks the transport delivered are written.
  const std::uint64_t blocks = delivered_blocks(rw, c.data_out, block_size());
  const std::size_t bytes = static_cast<std::size_t>(blocks * block_size());
  if (blocks > 0) {
    // The Lun runs one command at a time, so the read-modify-write is atomic
    // with respect to every other command.
    Bytes medium(bytes);
    if (auto e = store_->read(rw.lba, blocks, medium); !e.ok())
      return store_failed(e.error(), false, rw.lba);
    for (std::size_t i = 0; i < bytes; ++i) medium[i] |= c.data_out[i];
    if (auto e = store_->write(rw.lba, blocks, medium); !e.ok())
      return store_failed(e.error(), true, rw.lba);
  }
  if (rw.fua || !mode_.wce()) {
    if (auto e = store_->flush(); !e.ok()) return store_failed(e.error(), true, rw.lba);
  }
  // Timed as what the device does: a read of the blocks, then a write of
  // the same blocks (docs/vendor-interface.md).
  Outcome o = media_outcome(model::Op::kRead, rw.lba, blocks);
  if (o.media) {
    o.media_then = *o.media;
    o.media_then->op = model::Op::kWrite;
  }
  o.transfer_bytes = rw.blocks * block_size();
  return o;
}

}  // namespace memstore::scsi
