// SPDX-License-Identifier: Apache-2.0
#include "sim/trace.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

namespace memstore::sim {
namespace {

// Beyond any real trace, and keeps llround() inside int64.
constexpr double kMaxArrivalNs = 0x1.0p62;
constexpr std::size_t kMaxQuotedBytes = 40;

// One line, decoded but not yet filtered, ordered or folded.
struct Record {
  double time = 0.0;           // in the format's unit
  std::string_view time_text;  // as written
  std::int64_t device = 0;
  std::int64_t block = 0;
  std::int64_t blocks = 0;  // > 0
  model::Op op = model::Op::kRead;
};

struct FormatInfo {
  double ns_per_unit;
  const char* unit;        // for messages
  const char* time_field;  // for ordering messages
};

FormatInfo info(TraceFormat format) {
  if (format == TraceFormat::kSpc) return {1e9, "s", "timestamp"};
  return {1e6, "ms", "arrival"};
}

bool is_blank(char c) {
  // ' ', '\t', '\r', '\v' and '\f' as one compare and one bit test: this is
  // asked of every byte of the trace.
  constexpr std::uint64_t kBlanks = (std::uint64_t{1} << ' ') | (std::uint64_t{1} << '\t') |
                                    (std::uint64_t{1} << '\r') | (std::uint64_t{1} << '\v') |
                                    (std::uint64_t{1} << '\f');
  const auto u = static_cast<unsigned char>(c);
  return u <= ' ' && ((kBlanks >> u) & 1) != 0;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// A token for an error message: printable ASCII as is, other bytes as \xNN,
// at most kMaxQuotedBytes of input.
std::string quote(std::string_view token) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < kMaxQuotedBytes; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
  if (token.size() > kMaxQuotedBytes) out += "...";
  out += "'";
  return out;
}

// The number parsers (trace_detail::parse_int and parse_finite in the
// header). Each takes a whole token, accepts exactly what std::from_chars
// accepts for it (locale-independent, no exceptions, no leading '+' or
// blanks) and gives the same value. from_chars stays the reference: the fast
// paths below cover only the shapes traces are made of and hand everything
// else to it. They exist because perf put a tenth of `memsim replay`'s time
// on a 1M-request trace in parsing numbers with from_chars alone.

inline std::optional<std::int64_t> int_token(std::string_view s) {
  // Up to 18 digits cannot overflow int64, so no per-digit range check.
  const bool negative = !s.empty() && s.front() == '-';
  const std::size_t first = negative ? 1 : 0;
  if (s.size() > first && s.size() - first <= 18) {
    std::int64_t v = 0;
    for (std::size_t i = first; i < s.size(); ++i) {
      const unsigned d = static_cast<unsigned char>(s[i]) - unsigned{'0'};
      if (d > 9) return std::nullopt;
      v = v * 10 + static_cast<std::int64_t>(d);
    }
    return negative ? -v : v;
  }
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// Also rejects infinities and NaNs.
inline std::optional<double> finite_token(std::string_view s) {
  // Clinger's fast path for [-]digits[.digits] without an exponent: read the
  // digits as one integer m with f of them after the point. When m <= 2^53 and
  // f <= 22, m and 10^f are exact doubles and one IEEE division rounds
  // m / 10^f correctly, as from_chars must. memsim's own traces
  // (disksim_line: up to 16 digits, 6 after the point) always take it. At
  // most 19 digits (20 bytes with the point) keep m inside uint64.
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const bool negative = !s.empty() && s.front() == '-';
  const std::size_t first = negative ? 1 : 0;
  if (s.size() > first && s.size() - first <= 20) {
    std::uint64_t m = 0;
    std::size_t point = s.size();  // index of the '.', if any
    bool plain = true;
    for (std::size_t i = first; i < s.size(); ++i) {
      const unsigned d = static_cast<unsigned char>(s[i]) - unsigned{'0'};
      if (d <= 9) {
        m = m * 10 + d;
      } else if (s[i] == '.' && point == s.size()) {
        point = i;
      } else {
        plain = false;  // an exponent, inf, nan or garbage: from_chars decides
        break;
      }
    }
    const std::size_t fraction = point == s.size() ? 0 : s.size() - point - 1;
    const std::size_t digits = s.size() - first - (point == s.size() ? 0 : 1);
    if (plain && digits > 0 && digits <= 19 && m <= (std::uint64_t{1} << 53) && fraction <= 22) {
      const double v = static_cast<double>(m) / kPow10[fraction];
      return negative ? -v : v;
    }
  }
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

// std::llround for x in [0, 2^62), without the libm call: the integer part
// is exact, and so is x minus it, so comparing that with 0.5 rounds halves
// away from zero as llround does.
inline std::int64_t round_half_up(double x) {
  const auto whole = static_cast<std::int64_t>(x);
  return whole + (x - static_cast<double>(whole) >= 0.5 ? 1 : 0);
}

std::string bad(const char* field, const char* expected, std::string_view token) {
  return std::string(field) + " must be " + expected + ", got " + quote(token);
}

// The run of decimal digits at p, up to `end`: returns how many there are
// and sets `value` to their number (mod 2^64: callers reject runs too long to
// fit). Eight bytes at a time where eight can be read (`readable`, at or
// beyond `end`): the bytes that are digits are found, and converted, with
// integer operations on the whole word (SIMD within a register: pairs of
// digits, then pairs of pairs, combined by multiplies), instead of a branch
// per byte.
inline std::size_t digit_run(const char* p, const char* end, const char* readable,
                             std::uint64_t& value) {
  constexpr std::uint64_t kOnes = 0x0101010101010101;
  std::uint64_t v = 0;
  std::size_t total = 0;
  while (readable - p >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);  // little-endian: the first byte is the lowest
    // Each byte minus '0'; the lowest byte that is not below 10 (or that
    // borrowed) is the first non-digit. Bytes above it may be garbled by the
    // borrow and the carry, and are never used.
    const std::uint64_t t = word - kOnes * '0';
    const std::uint64_t high = ((t + kOnes * (0x80 - 10)) | t) & (kOnes * 0x80);
    auto n = static_cast<std::size_t>(high == 0 ? 8 : std::countr_zero(high) / 8);
    n = std::min(n, static_cast<std::size_t>(end - p));
    if (n == 0) break;
    // The n digit values moved to the top bytes (zeros, i.e. leading zero
    // digits, below), then combined pairwise: 8 digits in three multiplies.
    std::uint64_t d = t << (8 * (8 - n));
    d = d * 10 + (d >> 8);
    d = (((d & 0x000000FF000000FF) * 0x000F424000000064) +
         (((d >> 16) & 0x000000FF000000FF) * 0x0000271000000001)) >>
        32;
    static constexpr std::uint64_t kScale[] = {1,      10,      100,      1000,     10000,
                                               100000, 1000000, 10000000, 100000000};
    v = v * kScale[n] + d;
    total += n;
    p += n;
    if (n < 8) {
      value = v;
      return total;
    }
  }
  for (; p != end; ++p, ++total) {  // near the end of the buffer: a byte at a time
    const unsigned c = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (c > 9) break;
    v = v * 10 + c;
  }
  value = v;
  return total;
}

// The DiskSim lines memsim writes (disksim_line) and most others, in one pass
// over the bytes: "digits[.digits] digits digits digits digits" with blanks
// between. parse_disksim's tokenizer followed by the number parsers reads
// each byte twice or more, a fifth of a replay's time
// (docs/benchmarks/log/2026-11-26.md, "Toward 40x").
// Gives exactly what parse_disksim gives, or false (nothing decided) for any
// other shape, a sign, too many digits or a value parse_disksim rejects, which
// parse_disksim then reads as before. `line` is trimmed, hence starts with a
// non-blank; bytes up to `readable` (at or beyond its end) may be read.
bool parse_disksim_plain(std::string_view line, const char* readable, Record& r) {
  const char* p = line.data();
  const char* const end = p + line.size();
  // The arrival: finite_token's fast path (at most 19 digits, m <= 2^53 and
  // at most 22 after the point), then m / 10^f as it computes it.
  const char* const time_begin = p;
  std::uint64_t whole = 0;
  std::uint64_t fraction_digits = 0;
  const std::size_t whole_n = digit_run(p, end, readable, whole);
  p += whole_n;
  std::size_t fraction = 0;
  if (p != end && *p == '.') {
    ++p;
    fraction = digit_run(p, end, readable, fraction_digits);
    p += fraction;
  }
  const std::size_t digits = whole_n + fraction;
  if (digits == 0 || digits > 19 || fraction > 22) return false;
  static constexpr std::uint64_t kPow10Int[] = {1,
                                                10,
                                                100,
                                                1000,
                                                10000,
                                                100000,
                                                1000000,
                                                10000000,
                                                100000000,
                                                1000000000,
                                                10000000000,
                                                100000000000,
                                                1000000000000,
                                                10000000000000,
                                                100000000000000,
                                                1000000000000000,
                                                10000000000000000,
                                                100000000000000000,
                                                1000000000000000000,
                                                10000000000000000000u};
  // Exact: fewer than 20 digits in all.
  const std::uint64_t m = whole * kPow10Int[fraction] + fraction_digits;
  if (m > (std::uint64_t{1} << 53)) return false;
  if (p == end || !is_blank(*p)) return false;
  const std::string_view time_text(time_begin, static_cast<std::size_t>(p - time_begin));
  // Four non-negative integers of at most 18 digits (int_token's fast path).
  std::int64_t v[4];
  for (std::int64_t& out : v) {
    while (p != end && is_blank(*p)) ++p;
    std::uint64_t value = 0;
    const std::size_t n = digit_run(p, end, readable, value);
    p += n;
    if (n == 0 || n > 18 || (p != end && !is_blank(*p))) return false;
    out = static_cast<std::int64_t>(value);
  }
  if (p != end || v[2] <= 0) return false;  // a fifth field or a size of 0: parse_disksim says
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  // Field by field: a braced copy of the whole Record went through
  // overlapping stack stores and loads that stalled store forwarding.
  r.time = static_cast<double>(m) / kPow10[fraction];
  r.time_text = time_text;
  r.device = v[0];
  r.block = v[1];
  r.blocks = v[2];
  r.op = (v[3] & 1) != 0 ? model::Op::kRead : model::Op::kWrite;
  return true;
}

// Each returns an error message (without the line prefix), empty on success.
std::string parse_disksim(std::string_view line, Record& r) {
  std::string_view f[5];
  std::size_t n = 0;
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (n < 5) f[n] = line.substr(start, i - start);
    ++n;
  }
  if (n != 5) {
    return "expected 5 fields (arrival_ms devno blkno size flags), got " + std::to_string(n);
  }
  const auto time = finite_token(f[0]);
  if (!time) return bad("arrival_ms", "a finite number", f[0]);
  const auto dev = int_token(f[1]);
  if (!dev) return bad("devno", "an integer", f[1]);
  const auto block = int_token(f[2]);
  if (!block || *block < 0) return bad("blkno", "a non-negative integer", f[2]);
  const auto size = int_token(f[3]);
  if (!size || *size <= 0) return bad("size", "a positive integer", f[3]);
  const auto flags = int_token(f[4]);
  if (!flags || *flags < 0) return bad("flags", "a non-negative integer", f[4]);
  r = {*time, f[0], *dev, *block, *size, (*flags & 1) != 0 ? model::Op::kRead : model::Op::kWrite};
  return {};
}

std::string parse_spc(std::string_view line, std::int32_t block_bytes, Record& r) {
  std::string_view f[5];
  std::size_t n = 0;
  while (true) {
    const std::size_t comma = line.find(',');
    if (n < 5) f[n] = trim(line.substr(0, comma));
    ++n;
    if (comma == std::string_view::npos) break;
    line.remove_prefix(comma + 1);
  }
  if (n < 5) {
    return "expected at least 5 fields (ASU,LBA,Size,Opcode,Timestamp), got " + std::to_string(n);
  }
  const auto asu = int_token(f[0]);
  if (!asu) return bad("ASU", "an integer", f[0]);
  const auto lba = int_token(f[1]);
  if (!lba || *lba < 0) return bad("LBA", "a non-negative integer", f[1]);
  const auto bytes = int_token(f[2]);
  if (!bytes || *bytes <= 0) return bad("Size", "a positive integer", f[2]);
  model::Op op;
  if (f[3] == "r" || f[3] == "R") {
    op = model::Op::kRead;
  } else if (f[3] == "w" || f[3] == "W") {
    op = model::Op::kWrite;
  } else {
    return bad("Opcode", "r or w", f[3]);
  }
  const auto time = finite_token(f[4]);
  if (!time) return bad("Timestamp", "a finite number", f[4]);
  // Round up without overflowing near INT64_MAX.
  const std::int64_t blocks = *bytes / block_bytes + (*bytes % block_bytes != 0 ? 1 : 0);
  r = {*time, f[4], *asu, *lba, blocks, op};
  return {};
}

}  // namespace

namespace trace_detail {

std::optional<std::int64_t> parse_int(std::string_view token) {
  return int_token(token);
}

std::optional<double> parse_finite(std::string_view token) {
  return finite_token(token);
}

}  // namespace trace_detail

std::vector<std::string> validate(const TraceOptions& options) {
  std::vector<std::string> errors;
  if (!(options.scale > 0.0) || !std::isfinite(options.scale)) {
    errors.emplace_back("--scale must be positive");
  }
  if (options.capacity_blocks <= 0)
    errors.emplace_back(
        "the device's capacity must be a positive number of blocks (check --config and --set)");
  if (options.block_bytes <= 0)
    errors.emplace_back("the device's block size must be positive (check --config and --set)");
  return errors;
}

TraceReader::TraceReader(std::istream& in, TraceFormat format, TraceOptions options,
                         std::size_t buffer_bytes)
    : in_(in),
      format_(format),
      options_(options),
      buffer_bytes_(std::max(buffer_bytes, kMinBufferBytes)),
      buffer_(std::make_unique_for_overwrite<char[]>(buffer_bytes_)) {
  const auto errors = validate(options_);
  if (!errors.empty()) {
    std::string message = "invalid trace options:";
    for (const auto& e : errors) message += " " + e + ";";
    message.pop_back();
    final_ = TraceItem{TraceItem::Kind::kError, {}, std::move(message)};
  }
}

void TraceReader::refill() {
  // Keep the unread tail (the start of a line, at most kMaxLineBytes long or
  // read_line would have stopped) at the front and fill the rest: at least
  // one byte, as buffer_bytes_ >= kMinBufferBytes.
  if (!previous_saved_) {  // the bytes under previous_text_ are about to move
    previous_copy_.assign(previous_text_);
    previous_saved_ = true;
  }
  const std::size_t kept = end_ - begin_;
  if (begin_ != 0 && kept != 0) std::memmove(buffer_.get(), buffer_.get() + begin_, kept);
  begin_ = 0;
  end_ = kept;
  std::streambuf* buf = in_.rdbuf();
  if (buf == nullptr) {
    eof_ = true;
    return;
  }
  // sgetn() stops short only at the end of the input ([streambuf.virt.get]),
  // so a short count is the end: no second read that a pipe or terminal
  // would block on. std::filebuf reads a request this large directly into
  // our buffer, without copying through its own.
  const auto want = static_cast<std::streamsize>(buffer_bytes_ - end_);
  const std::streamsize got = buf->sgetn(buffer_.get() + end_, want);
  if (got > 0) end_ += static_cast<std::size_t>(got);
  if (got < want) eof_ = true;
}

TraceReader::LineStatus TraceReader::read_line() {
  // A line longer than the cap is never held whole: once more than
  // kMaxLineBytes are buffered without a '\n' the line is too long, so a
  // stream without newlines cannot exhaust memory.
  std::size_t scanned = 0;  // bytes from begin_ on known to hold no '\n'
  while (true) {
    const char* data = buffer_.get() + begin_;
    const std::size_t available = end_ - begin_;
    const void* newline =
        available > scanned ? std::memchr(data + scanned, '\n', available - scanned) : nullptr;
    if (newline != nullptr) {
      const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - data);
      ++line_no_;
      if (length > kMaxLineBytes) return LineStatus::kTooLong;
      line_ = {data, length};
      begin_ += length + 1;
      return LineStatus::kLine;
    }
    if (available > kMaxLineBytes) {
      ++line_no_;
      return LineStatus::kTooLong;
    }
    if (eof_) {
      if (available == 0) return LineStatus::kEof;
      ++line_no_;  // the last line, without a '\n'
      line_ = {data, available};
      begin_ = end_;
      return LineStatus::kLine;
    }
    scanned = available;
    refill();
  }
}

TraceItem TraceReader::finish(TraceItem item) {
  final_ = item;
  return item;
}

TraceItem TraceReader::fail(const std::string& message) {
  return finish({TraceItem::Kind::kError, {}, "line " + std::to_string(line_no_) + ": " + message});
}

Status TraceReader::status() const {
  if (final_ && final_->kind == TraceItem::Kind::kError) return Error(final_->error);
  return {};
}

TraceItem TraceReader::next() {
  if (final_) return *final_;
  const FormatInfo fmt = info(format_);
  while (true) {
    const LineStatus status = read_line();
    if (status == LineStatus::kEof) return finish({TraceItem::Kind::kEnd, {}, {}});
    if (status == LineStatus::kTooLong) {
      return fail("longer than " + std::to_string(kMaxLineBytes) + " bytes");
    }
    const std::string_view line = trim(line_);
    if (line.empty() || line.front() == '#') continue;

    Record r;
    if (format_ == TraceFormat::kSpc || !parse_disksim_plain(line, buffer_.get() + end_, r)) {
      const std::string error = format_ == TraceFormat::kSpc
                                    ? parse_spc(line, options_.block_bytes, r)
                                    : parse_disksim(line, r);
      if (!error.empty()) return fail(error);
    }
    if (options_.device_filter && r.device != *options_.device_filter) continue;

    if (kept_ == 0) {
      if (options_.absolute_times && r.time < 0) {
        return fail(std::string(fmt.time_field) + " " + std::string(r.time_text) + " " + fmt.unit +
                    " is before 0, which --absolute-times cannot replay; leave the option out to "
                    "start the trace at its first request");
      }
      first_time_ = options_.absolute_times ? 0.0 : r.time;
    } else if (r.time < previous_time_) {
      return fail(std::string(fmt.time_field) + " " + std::string(r.time_text) + " " + fmt.unit +
                  " is earlier than the previous request (" +
                  (previous_saved_ ? previous_copy_ : std::string(previous_text_)) + " " +
                  fmt.unit + ")");
    }
    // Monotone in r.time, so arrivals come out non-decreasing.
    // x / 1 is x exactly: the division is skipped for unscaled replays.
    const double unscaled_ns = (r.time - first_time_) * fmt.ns_per_unit;
    const double arrival_ns = options_.scale == 1.0 ? unscaled_ns : unscaled_ns / options_.scale;
    if (!(arrival_ns < kMaxArrivalNs)) {
      return fail(std::string(fmt.time_field) + " " + std::string(r.time_text) + " " + fmt.unit +
                  " is too far after the first request (more than 2^62 ns once scaled)");
    }
    previous_time_ = r.time;
    previous_text_ = r.time_text;  // in buffer_ until refill() saves it
    previous_saved_ = false;

    // Fold into the simulated device (see the header).
    const std::int64_t lbn =
        r.block < options_.capacity_blocks ? r.block : r.block % options_.capacity_blocks;
    const std::int64_t blocks = std::min({r.blocks, options_.capacity_blocks - lbn,
                                          std::int64_t{std::numeric_limits<std::int32_t>::max()}});
    TraceItem item;
    item.kind = TraceItem::Kind::kRequest;
    item.request.id = kept_++;
    item.request.arrival_ns = round_half_up(arrival_ns);
    item.request.lbn = lbn;
    item.request.blocks = static_cast<std::int32_t>(blocks);
    item.request.op = r.op;
    return item;
  }
}

}  // namespace memstore::sim
