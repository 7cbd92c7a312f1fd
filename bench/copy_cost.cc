// SPDX-License-Identifier: Apache-2.0
// What it costs to move a 128 KB read's data, from memory that has not been
// touched lately (a store read sequentially over 1 GiB, as bench/
// throughput-vs-tgt reads it) and from memory that has (a buffer used again),
// both by memcpy and by a send() into a loopback TCP connection that another
// thread drains (docs/benchmarks.md, "Throughput against tgt"; the
// experiment: docs/benchmarks/log/2026-11-27.md, "128 KB reads: where the
// copy's cost is"). The figure is the sending thread's CPU time per 128 KB.
//
// It answers one question: would a read sent straight from the store, with
// no copy into a buffer first, save the copy's cost? Only if the kernel's
// copy into the socket costs no more from the store than from a hot buffer.
//
// And, for the file store, the same question with the page cache as the
// store: a 1 GiB file read in 128 KB pieces by pread() and sent (what the
// file store and the connection do today), against sendfile(), which hands
// the socket the page-cache pages themselves (docs/benchmarks/log/
// 2026-11-29.md, "128 KB reads without the extra copy"). The receiving
// thread's CPU time per 128 KB is reported beside it (recv_us): a copy the
// sender no longer makes is made by the receiver, from the page cache.
#include <arpa/inet.h>
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kRead = std::size_t{128} * 1024;
constexpr std::size_t kStore = std::size_t{1} << 30;  // bench/throughput-vs-tgt's RANGE_MIB

// The store, written once so that every page is a real one (not the shared
// zero page); the hot source is the first 128 KB of a separate buffer.
std::vector<std::uint8_t>& store() {
  static std::vector<std::uint8_t> s(kStore, 0x5a);
  return s;
}

// The source of the i-th copy: successive 128 KB pieces of the store (cold:
// each piece was last touched a whole GiB of copies ago, far beyond any
// cache), or the same piece every time (hot).
const std::uint8_t* source(bool cold, std::size_t i) {
  static std::vector<std::uint8_t> hot(kRead, 0xa5);
  return cold ? store().data() + (i * kRead) % kStore : hot.data();
}

void BM_Memcpy128K(benchmark::State& state) {
  const bool cold = state.range(0) == 1;
  store();
  std::vector<std::uint8_t> out(kRead);
  std::size_t i = 0;
  for (auto _ : state) {
    std::memcpy(out.data(), source(cold, i++), kRead);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kRead));
}

// A loopback TCP connection whose receiving end a thread drains, as an
// initiator on the same machine would.
class DrainedConnection {
 public:
  DrainedConnection() {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(listener, 1) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      throw std::runtime_error("loopback listener");
    }
    send_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (send_fd_ < 0 || ::connect(send_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      throw std::runtime_error("loopback connect");
    }
    recv_fd_ = ::accept(listener, nullptr, nullptr);
    ::close(listener);
    if (recv_fd_ < 0) throw std::runtime_error("loopback accept");
    const int one = 1;
    ::setsockopt(send_fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    drain_ = std::thread([this] {
      std::vector<std::uint8_t> sink(4 * kRead);
      while (::recv(recv_fd_, sink.data(), sink.size(), 0) > 0) {
      }
      timespec t{};
      ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
      drain_cpu_ns_ = t.tv_sec * 1'000'000'000LL + t.tv_nsec;
    });
  }
  ~DrainedConnection() {
    finish();
    ::close(send_fd_);
    ::close(recv_fd_);
  }
  // Ends the stream and waits for the receiver to drain it: returns the
  // receiving thread's CPU time in microseconds.
  double finish() {
    if (drain_.joinable()) {
      ::shutdown(send_fd_, SHUT_WR);
      drain_.join();
    }
    return static_cast<double>(drain_cpu_ns_.load()) / 1000.0;
  }
  DrainedConnection(const DrainedConnection&) = delete;
  DrainedConnection& operator=(const DrainedConnection&) = delete;

  void send_all(const std::uint8_t* p, std::size_t n) const {
    while (n > 0) {
      const ssize_t sent = ::send(send_fd_, p, n, 0);
      if (sent <= 0) throw std::runtime_error("send");
      p += sent;
      n -= static_cast<std::size_t>(sent);
    }
  }
  // `n` bytes of `file` from `offset` on, by reference to its page-cache pages.
  void sendfile_all(int file, off_t offset, std::size_t n) const {
    while (n > 0) {
      const ssize_t sent = ::sendfile(send_fd_, file, &offset, n);
      if (sent <= 0) throw std::runtime_error("sendfile");
      n -= static_cast<std::size_t>(sent);
    }
  }

 private:
  int send_fd_ = -1;
  int recv_fd_ = -1;
  std::thread drain_;
  std::atomic<long long> drain_cpu_ns_{0};
};

// A 1 GiB file of 0x5a bytes in $TMPDIR (else /var/tmp), written once and
// unlinked at once, so that its pages are in the page cache as the file
// store's are after bench/throughput-vs-tgt's fill.
int page_cache_file() {
  static const int fd = [] {
    const char* dir = std::getenv("TMPDIR");
    std::string path = std::string(dir ? dir : "/var/tmp") + "/copy_cost.XXXXXX";
    const int f = ::mkstemp(path.data());
    if (f < 0) throw std::runtime_error("cannot create a file in " + path);
    ::unlink(path.c_str());
    const std::vector<std::uint8_t> piece(std::size_t{1} << 20, 0x5a);
    for (std::size_t at = 0; at < kStore; at += piece.size()) {
      if (::pwrite(f, piece.data(), piece.size(), static_cast<off_t>(at)) !=
          static_cast<ssize_t>(piece.size())) {
        throw std::runtime_error("cannot write the page-cache file");
      }
    }
    return f;
  }();
  return fd;
}

void BM_Send128K(benchmark::State& state) {
  const bool cold = state.range(0) == 1;
  store();
  DrainedConnection c;
  std::size_t i = 0;
  for (auto _ : state) c.send_all(source(cold, i++), kRead);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kRead));
}

// The file store's read today: pread() into a buffer used again, then send().
void BM_PreadSend128K(benchmark::State& state) {
  const int file = page_cache_file();
  DrainedConnection c;
  std::vector<std::uint8_t> buffer(kRead);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto at = static_cast<off_t>((i++ * kRead) % kStore);
    if (::pread(file, buffer.data(), kRead, at) != static_cast<ssize_t>(kRead)) {
      throw std::runtime_error("pread");
    }
    c.send_all(buffer.data(), kRead);
  }
  state.counters["recv_us"] = benchmark::Counter(c.finish(), benchmark::Counter::kAvgIterations);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kRead));
}

// The same pieces by sendfile(): no copy in the sending thread.
void BM_Sendfile128K(benchmark::State& state) {
  const int file = page_cache_file();
  DrainedConnection c;
  std::size_t i = 0;
  for (auto _ : state) c.sendfile_all(file, static_cast<off_t>((i++ * kRead) % kStore), kRead);
  state.counters["recv_us"] = benchmark::Counter(c.finish(), benchmark::Counter::kAvgIterations);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kRead));
}

// Arg 0: the hot buffer; arg 1: the store, cold.
BENCHMARK(BM_Memcpy128K)->ArgName("cold")->Arg(0)->Arg(1);
BENCHMARK(BM_Send128K)->ArgName("cold")->Arg(0)->Arg(1);
BENCHMARK(BM_PreadSend128K);
BENCHMARK(BM_Sendfile128K);

}  // namespace

BENCHMARK_MAIN();
