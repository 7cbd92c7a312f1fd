// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/lun_identity.h"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <optional>

#include "target/scsi/posix_file.h"

namespace memstore::scsi {
namespace {

constexpr std::uint64_t kNaaLocal = std::uint64_t{3} << 60;
constexpr std::uint64_t kLow60 = (std::uint64_t{1} << 60) - 1;
constexpr std::size_t kMaxSerial = 64;
constexpr std::size_t kMaxFileBytes = 4096;  // a valid file is under 200 bytes
constexpr const char* kFixHint =
    " (fix the file, or delete it to give the LUN a new identity, which hosts will see as a "
    "different disk)";

std::string hex16(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = kDigits[v & 0xF];
  return s;
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

// Returns the errno of the first failure, 0 on success.
int write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// The whole file, std::nullopt if it does not exist.
Expected<std::optional<std::string>> read_small_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return std::optional<std::string>();
  if (fd < 0) return Error{errno, "cannot open " + path + ": " + errno_text(errno)};
  std::string text;
  std::array<char, 1024> buf{};
  int e = 0;
  while (text.size() <= kMaxFileBytes) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) e = errno;
    if (n <= 0) break;
    text.append(buf.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  if (e != 0) return Error{e, "cannot read " + path + ": " + errno_text(e)};
  if (text.size() > kMaxFileBytes) {
    return Error{EINVAL, path + " is not a LUN identity file (larger than " +
                             std::to_string(kMaxFileBytes) + " bytes)" + kFixHint};
  }
  return std::optional<std::string>(std::move(text));
}

Expected<std::uint64_t> random_u64() {
  std::uint64_t v = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&v);
  std::size_t done = 0;
  while (done < sizeof v) {
    const ssize_t n = ::getrandom(bytes + done, sizeof v - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{errno, "getrandom failed: " + errno_text(errno)};
    done += static_cast<std::size_t>(n);
  }
  return v;
}

enum class Creation : std::uint8_t { kCreated, kLostTheRace };

// Writes `text` to a new file `path` atomically: kLostTheRace (and no error)
// when another process created `path` first.
Expected<Creation> create_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT) {
      return Error{
          e, "cannot create " + path + ": directory " + parent_directory(path) + " does not exist"};
    }
    return Error{e, "cannot create " + path + ": " + errno_text(e)};
  }
  auto fail = [&](int e, const std::string& what) -> Error {
    ::unlink(tmp.c_str());
    return Error{e, what + " " + path + ": " + errno_text(e)};
  };
  int e = write_all(fd, text);
  if (e == 0 && ::fsync(fd) != 0) e = errno;
  if (::close(fd) != 0 && e == 0) e = errno;
  if (e != 0) return fail(e, "cannot write");
  // link() refuses to replace an existing file, unlike rename(); file systems
  // without hard links get rename(), whose race only matters for two
  // memstoreds starting on one image, which the image's lock refuses anyway.
  bool won = true;
  if (::link(tmp.c_str(), path.c_str()) != 0) {
    e = errno;
    if (e == EEXIST) {
      won = false;
    } else if (e == EPERM || e == EOPNOTSUPP || e == EMLINK) {
      if (::rename(tmp.c_str(), path.c_str()) != 0) return fail(errno, "cannot create");
    } else {
      return fail(e, "cannot create");
    }
  }
  ::unlink(tmp.c_str());
  if (won) {
    if (const int d = fsync_directory(parent_directory(path)); d != 0) {
      return Error{d,
                   "cannot make " + path + " durable (fsync of its directory): " + errno_text(d)};
    }
  }
  return won ? Creation::kCreated : Creation::kLostTheRace;
}

std::uint64_t fnv1a64(std::string_view s, std::uint64_t h = 0xcbf29ce484222325ULL) {
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

// splitmix64's finalizer: spreads FNV's weak low bits over the whole word.
std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::string identity_path(const std::string& image_path) {
  return image_path + ".identity";
}

IdentityResult parse_identity(std::string_view text, const std::string& source) {
  std::optional<std::string> serial;
  std::optional<std::uint64_t> naa;
  int line_no = 0;
  auto bad = [&](const std::string& what) -> Error {
    return Error{EINVAL, source + ":" + std::to_string(line_no) + ": " + what};
  };
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    const std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) return bad("expected `key = value`");
    const std::string key(trim(line.substr(0, eq)));
    const std::string_view value = trim(line.substr(eq + 1));
    if (key == "serial") {
      if (serial) return bad("`serial` given twice");
      if (value.empty() || value.size() > kMaxSerial) {
        return bad("serial must be 1 to " + std::to_string(kMaxSerial) + " characters");
      }
      for (const char c : value) {
        if (c < 0x21 || c > 0x7E) return bad("serial must be printable ASCII without spaces");
      }
      serial = std::string(value);
    } else if (key == "naa") {
      if (naa) return bad("`naa` given twice");
      std::uint64_t v = 0;
      const bool prefixed =
          value.size() == 18 && value[0] == '0' && (value[1] == 'x' || value[1] == 'X');
      const char* end = value.data() + value.size();
      const auto [ptr, ec] =
          prefixed ? std::from_chars(value.data() + 2, end, v, 16) : std::from_chars_result{};
      if (!prefixed || ec != std::errc() || ptr != end) {
        return bad("naa must be 0x followed by 16 hex digits, got `" + std::string(value) + "`");
      }
      const std::uint64_t naa_field = v >> 60;
      if (naa_field != 2 && naa_field != 3 && naa_field != 5) {
        return bad("naa must start with NAA field 2, 3 or 5 (an 8-byte designator), got " +
                   std::to_string(naa_field));
      }
      naa = v;
    } else {
      return bad("unknown key `" + key + "` (expected `serial` or `naa`)");
    }
  }
  if (!serial) return Error{EINVAL, source + ": missing `serial`"};
  if (!naa) return Error{EINVAL, source + ": missing `naa`"};
  return LunIdentityRecord{*serial, *naa};
}

std::string format_identity(const LunIdentityRecord& id, const std::string& image_path) {
  return "# memstore LUN identity for " + image_path +
         "; keep this file with the image.\n"
         "serial = " +
         id.serial + "\nnaa = 0x" + hex16(id.naa_id) + "\n";
}

IdentityResult load_or_create_identity(const std::string& image_path) {
  const std::string path = identity_path(image_path);
  // Two rounds at most: the second reads the file a concurrent creator won with.
  for (int round = 0; round < 2; ++round) {
    auto existing = read_small_file(path);
    if (!existing.ok()) return existing.error();
    if (const std::optional<std::string>& text = *existing) {
      IdentityResult parsed = parse_identity(*text, path);
      if (!parsed.ok()) parsed.error().message += kFixHint;
      return parsed;
    }
    const auto serial_bits = random_u64();
    const auto naa_bits = random_u64();
    if (!serial_bits.ok()) return serial_bits.error();
    if (!naa_bits.ok()) return naa_bits.error();
    const LunIdentityRecord id{hex16(*serial_bits), kNaaLocal | (*naa_bits & kLow60)};
    const auto created = create_atomically(path, format_identity(id, image_path));
    if (!created.ok()) return created.error();
    if (*created == Creation::kCreated) return id;
  }
  return Error{EAGAIN, "cannot create " + path + ": it keeps appearing and disappearing"};
}

LunIdentityRecord identity_for_name(std::string_view name) {
  const std::uint64_t h = mix64(fnv1a64(name, fnv1a64("memstore-lun:")));
  return LunIdentityRecord{hex16(h), kNaaLocal | (mix64(h ^ 0x9e3779b97f4a7c15ULL) & kLow60)};
}

}  // namespace memstore::scsi
