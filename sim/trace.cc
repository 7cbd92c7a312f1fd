#include "sim/trace.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
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
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
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

// std::from_chars: locale-independent, no exceptions; the whole token must be
// a number.
std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_finite(std::string_view s) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

std::string bad(const char* field, const char* expected, std::string_view token) {
  return std::string(field) + " must be " + expected + ", got " + quote(token);
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
  const auto time = parse_finite(f[0]);
  if (!time) return bad("arrival_ms", "a finite number", f[0]);
  const auto dev = parse_int(f[1]);
  if (!dev) return bad("devno", "an integer", f[1]);
  const auto block = parse_int(f[2]);
  if (!block || *block < 0) return bad("blkno", "a non-negative integer", f[2]);
  const auto size = parse_int(f[3]);
  if (!size || *size <= 0) return bad("size", "a positive integer", f[3]);
  const auto flags = parse_int(f[4]);
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
  const auto asu = parse_int(f[0]);
  if (!asu) return bad("ASU", "an integer", f[0]);
  const auto lba = parse_int(f[1]);
  if (!lba || *lba < 0) return bad("LBA", "a non-negative integer", f[1]);
  const auto bytes = parse_int(f[2]);
  if (!bytes || *bytes <= 0) return bad("Size", "a positive integer", f[2]);
  model::Op op;
  if (f[3] == "r" || f[3] == "R") {
    op = model::Op::kRead;
  } else if (f[3] == "w" || f[3] == "W") {
    op = model::Op::kWrite;
  } else {
    return bad("Opcode", "r or w", f[3]);
  }
  const auto time = parse_finite(f[4]);
  if (!time) return bad("Timestamp", "a finite number", f[4]);
  // Round up without overflowing near INT64_MAX.
  const std::int64_t blocks = *bytes / block_bytes + (*bytes % block_bytes != 0 ? 1 : 0);
  r = {*time, f[4], *asu, *lba, blocks, op};
  return {};
}

}  // namespace

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  if (name == "disksim") return TraceFormat::kDiskSim;
  if (name == "spc") return TraceFormat::kSpc;
  return std::nullopt;
}

std::string disksim_line(const model::Request& r) {
  // Integer arithmetic, so the six decimals are exact.
  char line[96];
  const int n = std::snprintf(line, sizeof line, "%" PRId64 ".%06" PRId64 " 0 %" PRId64 " %d %d\n",
                              r.arrival_ns / 1'000'000, r.arrival_ns % 1'000'000,
                              static_cast<std::int64_t>(r.lbn), static_cast<int>(r.blocks),
                              r.op == model::Op::kRead ? 1 : 0);
  return {line, static_cast<std::size_t>(n)};
}

std::vector<std::string> validate(const TraceOptions& options) {
  std::vector<std::string> errors;
  if (!(options.scale > 0.0) || !std::isfinite(options.scale)) {
    errors.emplace_back("--scale must be positive");
  }
  if (options.capacity_blocks <= 0) errors.emplace_back("--capacity-blocks must be positive");
  if (options.block_bytes <= 0) errors.emplace_back("--block-bytes must be positive");
  return errors;
}

TraceReader::TraceReader(std::istream& in, TraceFormat format, TraceOptions options)
    : in_(in), format_(format), options_(options) {
  line_.reserve(kMaxLineBytes);
  const auto errors = validate(options_);
  if (!errors.empty()) {
    std::string message = "invalid trace options:";
    for (const auto& e : errors) message += " " + e + ";";
    message.pop_back();
    final_ = TraceItem{TraceItem::Kind::kError, {}, std::move(message)};
  }
}

TraceReader::LineStatus TraceReader::read_line() {
  // Straight from the streambuf, so a line longer than the cap is never
  // buffered whole and a stream without newlines cannot exhaust memory.
  using Traits = std::char_traits<char>;
  line_.clear();
  std::streambuf* buf = in_.rdbuf();
  if (buf == nullptr) return LineStatus::kEof;
  Traits::int_type c = buf->sbumpc();
  if (Traits::eq_int_type(c, Traits::eof())) return LineStatus::kEof;
  ++line_no_;
  while (!Traits::eq_int_type(c, Traits::eof()) && Traits::to_char_type(c) != '\n') {
    if (line_.size() == kMaxLineBytes) return LineStatus::kTooLong;
    line_.push_back(Traits::to_char_type(c));
    c = buf->sbumpc();
  }
  return LineStatus::kLine;
}

TraceItem TraceReader::finish(TraceItem item) {
  final_ = item;
  return item;
}

TraceItem TraceReader::fail(const std::string& message) {
  return finish({TraceItem::Kind::kError, {}, "line " + std::to_string(line_no_) + ": " + message});
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
    const std::string error = format_ == TraceFormat::kSpc
                                  ? parse_spc(line, options_.block_bytes, r)
                                  : parse_disksim(line, r);
    if (!error.empty()) return fail(error);
    if (options_.device_filter && r.device != *options_.device_filter) continue;

    if (kept_ == 0) {
      first_time_ = r.time;
    } else if (r.time < previous_time_) {
      return fail(std::string(fmt.time_field) + " " + std::string(r.time_text) + " " + fmt.unit +
                  " is earlier than the previous request (" + previous_text_ + " " + fmt.unit +
                  ")");
    }
    // Monotone in r.time, so arrivals come out non-decreasing.
    const double arrival_ns = (r.time - first_time_) * fmt.ns_per_unit / options_.scale;
    if (!(arrival_ns < kMaxArrivalNs)) {
      return fail(std::string(fmt.time_field) + " " + std::string(r.time_text) + " " + fmt.unit +
                  " is too far after the first request (more than 2^62 ns once scaled)");
    }
    previous_time_ = r.time;
    previous_text_.assign(r.time_text);

    // Fold into the simulated device (see the header).
    const std::int64_t lbn = r.block % options_.capacity_blocks;
    const std::int64_t blocks = std::min({r.blocks, options_.capacity_blocks - lbn,
                                          std::int64_t{std::numeric_limits<std::int32_t>::max()}});
    TraceItem item;
    item.kind = TraceItem::Kind::kRequest;
    item.request.id = kept_++;
    item.request.arrival_ns = static_cast<model::Ns>(std::llround(arrival_ns));
    item.request.lbn = lbn;
    item.request.blocks = static_cast<std::int32_t>(blocks);
    item.request.op = r.op;
    return item;
  }
}

}  // namespace memstore::sim
