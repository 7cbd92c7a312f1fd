// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/connection.h"

#include <algorithm>
#include <array>
#include <boost/asio.hpp>
#include <cassert>
#include <optional>
#include <utility>

#include "target/driver/handler_memory.h"
#include "target/iscsi/address_text.h"
#include "target/iscsi/connection_state.h"
#include "target/iscsi/digest.h"
#include "target/iscsi/tcp_quiet.h"

namespace memstore::iscsi {

namespace asio = boost::asio;
using asio::ip::tcp;
using driver::HandlerMemory;
using driver::with_memory;

namespace {

// Asio's transfer_all moves at most 64 KiB per system call, and every further
// call waits for a round through the event loop, so a 128 KB Data-In would go
// out in three sendmsg calls, each waking the initiator. This asks for up to
// 1 MiB per call; the kernel still takes only what the socket buffer holds.
// Not more: the call's time grows with its bytes, and on loopback it also
// runs the receiver's side of TCP. A 2 MiB sendmsg of a large READ's
// Data-In took 0.4-0.9 ms (perf trace), in which the loop served no one else
// (docs/benchmarks.md, "Large commands on the file store").
struct TransferInMiBs {
  static constexpr std::size_t kBytesPerCall = std::size_t{1} << 20;
  std::size_t operator()(const boost::system::error_code& ec, std::size_t) const {
    return ec ? 0 : kBytesPerCall;
  }
};

class AsioConnection final : public Connection,
                             public std::enable_shared_from_this<AsioConnection> {
 public:
  AsioConnection(tcp::socket socket, const MakeSession& make_session,
                 const ConnectionLimits& limits, std::atomic<std::size_t>& open,
                 std::function<void()> on_finish, Placement placement)
      : socket_(std::move(socket)),
        ping_timer_(socket_.get_executor()),
        login_timer_(socket_.get_executor()),
        limits_(limits),
        open_(open),
        on_finish_(std::move(on_finish)),
        placement_(std::move(placement)) {
    open_.fetch_add(1, std::memory_order_relaxed);
    session_ = make_session(Session::Sink{
        [this](std::vector<std::uint8_t> pdu) { enqueue(std::move(pdu)); }, [this] { close(); },
        [this](Session::DataPdu pdu) { enqueue_data(std::move(pdu)); },
        [this] { corrupt_next_digest_ = true; }});
  }

  void start() override {
    if (placement_.first) {
      // Moved here from another loop, with the login it read: that PDU
      // first, as if just read here (no digest before the login).
      FirstPdu f = std::move(*placement_.first);
      placement_ = {};
      bhs_ = f.bhs;
      rest_ = std::move(f.rest);
      frame();
      on_pdu();
    } else {
      read_header();
    }
    if (limits_.nop_in_interval.count() > 0) arm_ping(limits_.nop_in_interval);
    if (limits_.login_timeout.count() > 0) arm_login_timeout();
  }

  // Ends the connection once the queued PDUs are written. Posted: the
  // session may be asking from inside one of its own calls, and finish()
  // destroys it.
  void close() override {
    if (state_ != State::kOpen) return;
    enter(State::kClosing);
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
      if (!self->writing_) self->finish();
    });
  }

  void abort() override {
    if (state_ == State::kOpen) enter(State::kClosing);
    boost::system::error_code ignored;
    // A write in progress fails at once and its handler finishes the
    // connection; otherwise finish here.
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    if (!writing_) finish();
  }

  asio::any_io_executor executor() override { return socket_.get_executor(); }

  std::optional<ConnectionStatus> status() override {
    if (ended() || !session_) return std::nullopt;
    boost::system::error_code e1;
    boost::system::error_code e2;
    const tcp::endpoint peer = socket_.remote_endpoint(e1);
    const tcp::endpoint local = socket_.local_endpoint(e2);
    ConnectionStatus s;
    if (!e1) s.peer = address_text(peer.address().to_string(), peer.port());
    if (!e2) s.portal = address_text(local.address().to_string(), local.port());
    s.session = session_->status();
    return s;
  }

 private:
  using State = ConnectionState;

  // The one way the state changes: along the table in connection_state.h.
  // Any other move is a bug in this file; it is refused, and the state
  // stays.
  void enter(State next) {
    assert(connection_may_enter(state_, next));
    if (connection_may_enter(state_, next)) state_ = next;
  }

  // The session is gone: nothing read is handled and nothing more is written.
  bool ended() const { return state_ == State::kLingering || state_ == State::kClosed; }

  // ---- Reading: a BHS, then the rest of the PDU in one read ----
  //
  // Small PDUs are read several at a time: one read takes whatever the
  // socket holds, up to kStageBytes, into stage_, and the PDUs found there
  // are handled one after the other without another system call (rather
  // than two per PDU: the BHS, then the rest). A segment the session lends a buffer for takes
  // what the stage holds of it and reads the rest in place. After a large
  // segment, the next BHS is read alone, so that a stream of large writes
  // is not copied out of the stage. Until the connection knows it stays on
  // this loop (Placement), it reads exactly one PDU at a time: bytes read
  // ahead could not move with its socket. So it does before the full
  // feature phase, so that connections that never log in hold no stage.

  void read_header() {
    if (staged() >= kBhsSize) {
      std::copy_n(stage_.begin() + static_cast<std::ptrdiff_t>(stage_at_), kBhsSize, bhs_.begin());
      stage_at_ += kBhsSize;
      return on_header({});
    }
    reader_ = Reader::kReading;
    const bool ahead = !placement_.rehome && session_ && session_->full_feature();
    // After a segment longer than the stage (data_len_ is still the last
    // PDU's), the next BHS is read alone.
    if (staged() > 0 || (ahead && data_len_ <= kStageBytes)) {
      // What is left of the stage goes to its front, and the read fills the
      // rest: at least the BHS, at most what the socket holds.
      const std::size_t have = staged();
      std::copy(stage_.begin() + static_cast<std::ptrdiff_t>(stage_at_),
                stage_.begin() + static_cast<std::ptrdiff_t>(stage_end_), stage_.begin());
      stage_at_ = 0;
      stage_end_ = have;
      stage_.resize(kStageBytes);
      asio::async_read(
          socket_, asio::buffer(stage_.data() + have, kStageBytes - have),
          asio::transfer_at_least(kBhsSize - have),
          with_memory(read_memory_, [self = shared_from_this()](const boost::system::error_code& ec,
                                                                std::size_t n) {
            self->reader_ = Reader::kIdle;
            if (self->ended()) return self->drain(ec);
            if (ec || self->state_ != State::kOpen || !self->session_) return self->close();
            self->stage_end_ += n;
            self->read_next();
          }));
      return;
    }
    asio::async_read(socket_, asio::buffer(bhs_),
                     with_memory(read_memory_, [self = shared_from_this()](
                                                   const boost::system::error_code& ec,
                                                   std::size_t) { self->on_header(ec); }));
  }

  std::size_t staged() const { return stage_end_ - stage_at_; }

  // Copies what the stage holds of these parts into them, in order; returns
  // the parts still to be read from the socket (the first possibly cut).
  template <std::size_t N>
  std::array<asio::mutable_buffer, N> from_stage(std::array<asio::mutable_buffer, N> parts) {
    for (asio::mutable_buffer& part : parts) {
      const std::size_t n = std::min(part.size(), staged());
      std::copy_n(stage_.begin() + static_cast<std::ptrdiff_t>(stage_at_), n,
                  static_cast<std::uint8_t*>(part.data()));
      stage_at_ += n;
      part += n;
    }
    return parts;
  }

  void on_header(const boost::system::error_code& ec) {
    reader_ = Reader::kIdle;
    if (ended()) return drain(ec);
    if (ec || state_ != State::kOpen || !session_) return close();
    frame();
    // The initiator must respect our MaxRecvDataSegmentLength (§13.12). A
    // longer segment is a protocol error; at ErrorRecoveryLevel 0 the
    // connection ends after the Reject (§7.1.4).
    if (data_len_ > std::max<std::uint32_t>(session_->max_recv_data_segment_length(), 8192)) {
      session_->reject(bhs_, RejectReason::kProtocolError);
      return close();
    }
    // Write data goes straight where the session keeps it.
    if (ahs_len_ == 0 && data_len_ > 0) {
      if (auto landing = session_->landing(bhs_)) return read_landed(std::move(*landing));
    }
    // AHS, header digest, padded data, data digest: one read into a buffer
    // the connection keeps PDU after PDU.
    const std::size_t rest = ahs_len_ + (header_digest_ ? kDigestSize : 0) +
                             padded_length(data_len_) +
                             (data_digest_ && data_len_ > 0 ? kDigestSize : 0);
    rest_.resize(rest);
    const auto [left] = from_stage(std::array{asio::mutable_buffer(rest_.data(), rest_.size())});
    if (left.size() == 0) return on_pdu();
    reader_ = Reader::kReading;
    asio::async_read(
        socket_, left, TransferInMiBs{},
        with_memory(read_memory_,
                    [self = shared_from_this()](const boost::system::error_code& e, std::size_t) {
                      self->reader_ = Reader::kIdle;
                      if (self->ended()) return self->drain(e);
                      if (e || self->state_ != State::kOpen || !self->session_)
                        return self->close();
                      self->on_pdu();
                    }));
  }

  // A segment read into the buffer the session lent (Session::landing):
  // the header digest before it and the padding and data digest after it
  // come here, all in one read. The connection owns the buffer until it is
  // given back, so a session that ends meanwhile leaves the read safe.
  void read_landed(Session::Landing landing) {
    landing_ = std::move(landing);
    const std::size_t pad = padded_length(data_len_) - data_len_;
    const std::array<asio::mutable_buffer, 3> parts = from_stage(std::array{
        asio::mutable_buffer(header_digest_bytes_.data(), header_digest_ ? kDigestSize : 0),
        asio::mutable_buffer(landing_->buffer.data() + landing_->offset, data_len_),
        asio::mutable_buffer(tail_.data(), pad + (data_digest_ ? kDigestSize : 0))});
    if (asio::buffer_size(parts) == 0) return on_landed({});
    reader_ = Reader::kReading;
    asio::async_read(socket_, parts, TransferInMiBs{},
                     with_memory(read_memory_,
                                 [self = shared_from_this()](const boost::system::error_code& e,
                                                             std::size_t) { self->on_landed(e); }));
  }

  void on_landed(const boost::system::error_code& ec) {
    reader_ = Reader::kIdle;
    Session::Landing landing = std::move(*landing_);
    landing_.reset();
    if (ended()) return drain(ec);
    if (!session_) return close();
    // A header digest error leaves the framing unknown: the connection ends
    // (RFC 7143 §7.8), as in on_pdu().
    if (ec || state_ != State::kOpen ||
        (header_digest_ && digest_value(header_digest_bytes_) != crc32c(bhs_))) {
      session_->land(bhs_, std::move(landing), false);
      return close();
    }
    if (data_digest_) {
      const auto segment =
          std::span<const std::uint8_t>(landing.buffer).subspan(landing.offset, data_len_);
      const auto tail = std::span<const std::uint8_t>(tail_);
      const std::size_t pad = padded_length(data_len_) - data_len_;
      if (digest_value(tail.subspan(pad).first<kDigestSize>()) !=
          crc32c(tail.first(pad), crc32c(segment))) {
        session_->land(bhs_, std::move(landing), false);
        session_->reject(bhs_, RejectReason::kDataDigestError);
        return read_next();
      }
    }
    session_->land(bhs_, std::move(landing), true);
    if (state_ == State::kOpen) read_next();
  }

  // What follows the BHS in bhs_: its AHS and data segment lengths, and the
  // digests the session has negotiated (none before the full feature phase).
  void frame() {
    const bool ffp = session_->full_feature();
    header_digest_ = ffp && session_->params().header_digest;
    data_digest_ = ffp && session_->params().data_digest;
    ahs_len_ = std::size_t{total_ahs_length(bhs_)} * 4;
    data_len_ = data_segment_length(bhs_);
  }

  void on_pdu() {
    if (placement_.rehome && moved_away()) return;
    const auto rest = std::span<const std::uint8_t>(rest_);
    const auto ahs = rest.first(ahs_len_);
    std::size_t at = ahs_len_;
    if (header_digest_) {
      // A header digest error leaves the framing unknown: with
      // ErrorRecoveryLevel 0 the connection ends (RFC 7143 §7.8).
      const auto d = rest.subspan(at, kDigestSize);
      if (digest_value(d.first<kDigestSize>()) != crc32c(ahs, crc32c(bhs_))) return close();
      at += kDigestSize;
    }
    const auto padded = rest.subspan(at, padded_length(data_len_));
    at += padded.size();
    if (data_digest_ && data_len_ > 0) {
      const auto d = rest.subspan(at, kDigestSize);
      if (digest_value(d.first<kDigestSize>()) != crc32c(padded)) {
        // The PDU is discarded and rejected; the initiator retries (§7.8).
        session_->reject(bhs_, RejectReason::kDataDigestError);
        return read_next();
      }
    }
    session_->on_pdu(bhs_, ahs, padded.first(data_len_));
    if (state_ == State::kOpen) read_next();
  }

  // Asks once, at the first PDU, whether the connection belongs on another
  // loop (Placement); if it went, this one ends without a word: its socket
  // and its login went with it, and nothing was answered here.
  bool moved_away() {
    auto rehome = std::exchange(placement_.rehome, nullptr);
    FirstPdu first{bhs_, rest_};
    if (!rehome(socket_, first)) return false;
    enter(State::kClosed);
    end();
    return true;
  }

  // Backpressure: while more than max_output_bytes wait to be written (an
  // initiator that does not read its responses), nothing more is read from
  // it; reading resumes once half of that is out (on_written()).
  //
  // PDUs handled from the stage call back here from inside the loop below;
  // the loop takes the next one instead of recursing, PDU after PDU.
  void read_next() {
    if (queued_bytes_ > limits_.max_output_bytes) {
      reader_ = Reader::kPaused;
      return;
    }
    if (dispatching_) {
      again_ = true;
      return;
    }
    dispatching_ = true;
    do {
      again_ = false;
      read_header();
    } while (again_ && state_ == State::kOpen);
    dispatching_ = false;
  }

  // ---- A connection that never logs in ----

  void arm_login_timeout() {
    login_timer_.expires_after(limits_.login_timeout);
    login_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (ec || self->ended() || !self->session_ || self->session_->full_feature()) return;
      self->close();
    });
  }

  // ---- Target-initiated pings (RFC 7143 §11.19) ----

  // A connection from which nothing has arrived for nop_in_interval gets a
  // ping; when nothing at all arrives for nop_in_timeout after it, the
  // initiator is gone (a power loss, a pulled cable): the connection ends
  // (ErrorRecoveryLevel 0), and with it the session, its tasks and its hold
  // on the LUNs, instead of waiting for TCP to give up. Any byte counts, not
  // only the answer: on a slow link the answer waits behind whatever the
  // initiator sent before it (megabytes of write data after a reconnection),
  // and an initiator that is sending is alive. The kernel knows when data
  // last arrived, also while a read is half done (tcp_quiet.h). One timer
  // serves both steps: it waits for nop_in_interval of silence while no ping
  // is outstanding, for nop_in_timeout of it while one is.
  void arm_ping(std::chrono::milliseconds after) {
    ping_timer_.expires_after(after);
    ping_timer_.async_wait(
        with_memory(ping_memory_, [self = shared_from_this()](const boost::system::error_code& ec) {
          if (ec || self->ended() || !self->session_) return;
          self->on_ping_timer();
        }));
  }

  void on_ping_timer() {
    const bool waiting = session_->awaiting_ping();
    const std::chrono::milliseconds limit = waiting ? ping_timeout() : limits_.nop_in_interval;
    const std::chrono::milliseconds quiet = quiet_for(socket_.native_handle());
    if (quiet < limit) return arm_ping(limit - quiet);
    if (waiting) return close();
    session_->ping();
    arm_ping(ping_timeout());
  }

  std::chrono::milliseconds ping_timeout() const {
    return limits_.nop_in_timeout.count() > 0 ? limits_.nop_in_timeout : limits_.nop_in_interval;
  }

  // ---- Writing: everything queued in one gathered write ----

  struct Out;  // a queued PDU, below

  void enqueue(std::vector<std::uint8_t> pdu) {
    if (ended()) return;
    Out& o = out_.emplace_back();
    o.bytes = std::move(pdu);
    add_digests(o);
    queued_bytes_ += footprint(o);
    if (!writing_) write_queued();
  }

  // A Data-In PDU whose segment is written from the READ's buffer in place.
  void enqueue_data(Session::DataPdu pdu) {
    if (ended()) return;
    Out& o = out_.emplace_back();
    o.bytes = std::move(pdu.head);
    o.data = pdu.data;
    o.owner = std::move(pdu.owner);
    o.owner_port = pdu.owner_port;
    add_digests(o);
    queued_bytes_ += footprint(o);
    if (!writing_) write_queued();
  }

  // Adds digests when the session has negotiated them (RFC 7143 §12.1): the
  // header digest right after the BHS, in place (the buffer is a recycled
  // one and usually has the room), and the data digest after the segment,
  // whether the segment follows the BHS in `bytes` or is viewed in place.
  void add_digests(Out& o) {
    if (!session_ || !session_->full_feature()) return;
    const SessionParams& p = session_->params();
    const std::span<const std::uint8_t> segment =
        o.data.empty() ? std::span<const std::uint8_t>(o.bytes).subspan(kBhsSize) : o.data;
    // An injected fault spoils the first digest of this PDU: the data
    // digest if there is one, else the header digest.
    const bool corrupt = std::exchange(corrupt_next_digest_, false);
    if (p.data_digest && !segment.empty()) {
      o.data_digest = digest_bytes(crc32c(segment));
      if (corrupt) o.data_digest[0] ^= 0xFF;
      o.has_data_digest = true;
    }
    if (p.header_digest) {
      DigestBytes d = digest_bytes(crc32c(std::span(o.bytes).first(kBhsSize)));
      if (corrupt && !o.has_data_digest) d[0] ^= 0xFF;
      o.bytes.insert(o.bytes.begin() + kBhsSize, d.begin(), d.end());
    }
  }

  // The memory a queued PDU holds, not just the bytes it will send: a
  // small status PDU in a recycled buffer, and its queue entry, cost far
  // more than its 48 bytes, so an initiator that sends commands and never
  // reads would otherwise queue tens of MiB of refusals (TASK SET FULL)
  // before the limit counted them. Fixed once the PDU is queued, so adding
  // and subtracting it balance.
  static std::size_t footprint(const Out& o) {
    return sizeof(Out) + o.bytes.capacity() + o.data.size();
  }

  void write_queued() {
    std::swap(out_, in_flight_);
    gather_.clear();
    for (const Out& o : in_flight_) {
      gather_.push_back(asio::buffer(o.bytes));
      if (!o.data.empty()) gather_.push_back(asio::buffer(o.data.data(), o.data.size()));
      if (o.has_data_digest) gather_.push_back(asio::buffer(o.data_digest));
    }
    writing_ = true;
    asio::async_write(socket_, std::span<const asio::const_buffer>(gather_), TransferInMiBs{},
                      with_memory(write_memory_, [self = shared_from_this()](
                                                     const boost::system::error_code& ec,
                                                     std::size_t) { self->on_written(ec); }));
  }

  void on_written(const boost::system::error_code& ec) {
    writing_ = false;
    // The buffers go back to the session for its next PDUs.
    for (Out& o : in_flight_) {
      queued_bytes_ -= footprint(o);
      if (session_) session_->recycle(std::move(o.bytes));
      if (o.owner_port != nullptr) o.owner_port->recycle(std::move(o.owner));
    }
    in_flight_.clear();
    if (ec) {
      if (state_ == State::kOpen) enter(State::kClosing);
      return finish();  // the peer is gone: what is queued cannot go out
    }
    if (reader_ == Reader::kPaused && state_ == State::kOpen &&
        queued_bytes_ <= limits_.max_output_bytes / 2) {
      reader_ = Reader::kIdle;
      read_next();
    }
    if (!out_.empty()) return write_queued();
    if (state_ == State::kClosing) finish();
  }

  // The end of the connection, as a lingering close: our side is shut for
  // sending, and whatever the initiator still sends is read and dropped
  // until it closes too (or 2 s pass). Closing with unread data would make
  // the kernel answer with a reset, and an initiator still writing (the rest
  // of a rejected command's data) would die of SIGPIPE instead of reading
  // our Reject and the end of the stream.
  void finish() {
    if (ended()) return;
    enter(State::kLingering);
    end();
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    ping_timer_.expires_after(std::chrono::seconds(2));
    ping_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (!ec) self->close_socket();
    });
    if (reader_ != Reader::kReading) drain({});
  }

  // What every end does: the session goes, and the timers stop.
  void end() {
    open_.fetch_sub(1, std::memory_order_relaxed);
    session_.reset();  // forgets pending results before the LUNs call back
    if (on_finish_) on_finish_();
    login_timer_.cancel();
    ping_timer_.cancel();
  }

  void drain(const boost::system::error_code& ec) {
    if (ec || !socket_.is_open()) return close_socket();
    reader_ = Reader::kReading;
    rest_.resize(std::max<std::size_t>(rest_.capacity(), 4096));
    socket_.async_read_some(
        asio::buffer(rest_),
        with_memory(read_memory_,
                    [self = shared_from_this()](const boost::system::error_code& e, std::size_t) {
                      self->reader_ = Reader::kIdle;
                      self->drain(e);
                    }));
  }

  void close_socket() {
    if (state_ == State::kClosed) return;
    enter(State::kClosed);
    boost::system::error_code ignored;
    login_timer_.cancel();
    ping_timer_.cancel();
    socket_.close(ignored);
  }

  tcp::socket socket_;
  asio::steady_timer ping_timer_;  // pings, then the lingering close
  asio::steady_timer login_timer_;
  const ConnectionLimits limits_;
  std::atomic<std::size_t>& open_;
  std::function<void()> on_finish_;
  Placement placement_;
  std::unique_ptr<Session> session_;
  HandlerMemory read_memory_, write_memory_, ping_memory_;
  Bhs bhs_{};
  std::size_t ahs_len_ = 0, data_len_ = 0;
  bool header_digest_ = false, data_digest_ = false;
  bool corrupt_next_digest_ = false;  // Session::Sink::corrupt_next_digest
  std::vector<std::uint8_t> rest_;    // the PDU being read, after its BHS
  // Bytes read ahead: [stage_at_, stage_end_) of stage_ are not handled yet.
  static constexpr std::size_t kStageBytes = std::size_t{16} * 1024;
  std::vector<std::uint8_t> stage_;
  std::size_t stage_at_ = 0, stage_end_ = 0;
  // read_next()'s loop, while it is on the stack: PDUs handled from the
  // stage call read_next() again, and it takes the next turn instead.
  bool dispatching_ = false, again_ = false;
  // A segment being read in place (read_landed), and what surrounds it.
  std::optional<Session::Landing> landing_;
  DigestBytes header_digest_bytes_{};
  std::array<std::uint8_t, 3 + kDigestSize> tail_{};  // padding, data digest
  // A PDU to write: its bytes (BHS, header digest, and the padded segment
  // unless it is viewed in place), the view, and the data digest.
  struct Out {
    std::vector<std::uint8_t> bytes;
    std::span<const std::uint8_t> data;
    DigestBytes data_digest{};
    bool has_data_digest = false;
    scsi::Bytes owner;  // the buffer `data` points into, on a command's last PDU
    driver::CommandPort* owner_port = nullptr;
  };
  std::vector<Out> out_;        // queued PDUs
  std::vector<Out> in_flight_;  // PDUs being written
  std::vector<asio::const_buffer> gather_;
  std::size_t queued_bytes_ = 0;  // in out_ and in_flight_

  // Where the connection is in its life (connection_state.h).
  State state_ = State::kOpen;
  // The two directions apart from it: a read and a write may each be under
  // way in any state until the socket closes, and each ends in its own
  // handler. A closing connection waits for its write to finish; a
  // lingering one drains through whichever read is under way.
  enum class Reader : std::uint8_t {
    kIdle,     // no read under way: a PDU being handled, or none started yet
    kReading,  // a read under way; its handler comes back
    kPaused,   // none started, by backpressure, until on_written() resumes
  };
  Reader reader_ = Reader::kIdle;
  bool writing_ = false;  // a gathered write under way (write_queued)
};

}  // namespace

std::shared_ptr<Connection> make_connection(tcp::socket socket, const MakeSession& make_session,
                                            const ConnectionLimits& limits,
                                            std::atomic<std::size_t>& open,
                                            std::function<void()> on_finish, Placement placement) {
  return std::make_shared<AsioConnection>(std::move(socket), make_session, limits, open,
                                          std::move(on_finish), std::move(placement));
}

}  // namespace memstore::iscsi
