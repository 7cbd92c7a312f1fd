// SPDX-License-Identifier: Apache-2.0
// The C API (host/memstore_host.h): handles own the C++ objects, every entry
// point catches everything, and failures become a code plus a per-thread
// message.
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "host/device.h"
#include "host/memstore_host.h"

struct memstore_device {
  std::unique_ptr<memstore::host::Device> device;
};

struct memstore_batch {
  struct ReadTarget {
    std::size_t descriptor = 0;
    void* buf = nullptr;
  };
  memstore::host::Batch batch;
  std::vector<ReadTarget> reads;
};

namespace {

using memstore::host::Error;

struct LastError {
  std::string message;
  bool has_sense = false;
  std::uint8_t key = 0, asc = 0, ascq = 0;
};
thread_local LastError last_error;

int code_of(Error::Code c) {
  switch (c) {
    case Error::Code::kInvalidArgument:
      return MEMSTORE_ERR_INVALID_ARGUMENT;
    case Error::Code::kTransport:
      return MEMSTORE_ERR_TRANSPORT;
    case Error::Code::kCheckCondition:
      return MEMSTORE_ERR_CHECK_CONDITION;
    case Error::Code::kScsiStatus:
      return MEMSTORE_ERR_SCSI_STATUS;
    case Error::Code::kBadResponse:
      return MEMSTORE_ERR_BAD_RESPONSE;
    case Error::Code::kNotMemstore:
      return MEMSTORE_ERR_NOT_MEMSTORE;
  }
  return MEMSTORE_ERR_INTERNAL;
}

int fail(const Error& e) {
  last_error.message = e.message;
  last_error.has_sense = e.sense.has_value();
  if (e.sense) {
    last_error.key = e.sense->key;
    last_error.asc = e.sense->asc;
    last_error.ascq = e.sense->ascq;
  }
  return code_of(e.code);
}

int fail(int code, const std::string& message) {
  last_error.message = message;
  last_error.has_sense = false;
  return code;
}

int null_argument(const char* name) {
  return fail(MEMSTORE_ERR_INVALID_ARGUMENT, std::string(name) + " is NULL");
}

// Runs `f` (returning an int code) with every exception turned into a code.
template <class F>
int guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(MEMSTORE_ERR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(MEMSTORE_ERR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(MEMSTORE_ERR_INTERNAL, "internal error");
  }
}

}  // namespace

extern "C" {

const char* memstore_last_error(void) {
  return last_error.message.c_str();
}

int memstore_last_sense(uint8_t* key, uint8_t* asc, uint8_t* ascq) {
  if (!last_error.has_sense) return 0;
  if (key != nullptr) *key = last_error.key;
  if (asc != nullptr) *asc = last_error.asc;
  if (ascq != nullptr) *ascq = last_error.ascq;
  return 1;
}

int memstore_open(const char* target, const char* initiator_name, memstore_device** out) {
  return guarded([&] {
    if (target == nullptr) return null_argument("target");
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    memstore::host::TransportOptions options;
    if (initiator_name != nullptr) options.initiator_name = initiator_name;
    auto d = memstore::host::Device::open(target, options);
    if (!d.ok()) return fail(d.error());
    *out = new memstore_device{std::move(d).value()};
    return static_cast<int>(MEMSTORE_OK);
  });
}

void memstore_close(memstore_device* dev) {
  try {
    delete dev;
  } catch (...) {  // a destructor that logs out cannot throw, but never let it escape
  }
}

uint64_t memstore_blocks(const memstore_device* dev) {
  return dev == nullptr ? 0 : dev->device->blocks();
}

uint32_t memstore_block_size(const memstore_device* dev) {
  return dev == nullptr ? 0 : dev->device->block_size();
}

int memstore_is_memstore(const memstore_device* dev) {
  return dev != nullptr && dev->device->is_memstore() ? 1 : 0;
}

int memstore_get_parallelism(const memstore_device* dev, uint32_t* p) {
  return guarded([&] {
    if (dev == nullptr) return null_argument("dev");
    if (p == nullptr) return null_argument("p");
    auto r = dev->device->get_parallelism();
    if (!r.ok()) return fail(r.error());
    *p = *r;
    return static_cast<int>(MEMSTORE_OK);
  });
}

int memstore_get_equivalent(const memstore_device* dev, uint64_t lbn, int micropositioning,
                            uint64_t* out, size_t capacity, size_t* count) {
  return guarded([&] {
    if (dev == nullptr) return null_argument("dev");
    if (count == nullptr) return null_argument("count");
    if (out == nullptr && capacity > 0) return null_argument("out");
    std::optional<std::uint32_t> m;
    if (micropositioning >= 0) m = static_cast<std::uint32_t>(micropositioning);
    auto r = dev->device->get_equivalent(lbn, m);
    if (!r.ok()) return fail(r.error());
    *count = r->size();
    const std::size_t n = std::min(capacity, r->size());
    if (n > 0) std::memcpy(out, r->data(), n * sizeof(uint64_t));
    if (capacity < r->size()) {
      return fail(MEMSTORE_ERR_BUFFER_TOO_SMALL,
                  "the equivalence class has " + std::to_string(r->size()) +
                      " LBNs; the array holds " + std::to_string(capacity));
    }
    return static_cast<int>(MEMSTORE_OK);
  });
}

int memstore_check_conflicting(const memstore_device* dev, uint64_t a, uint64_t b,
                               int* conflicting) {
  return guarded([&] {
    if (dev == nullptr) return null_argument("dev");
    if (conflicting == nullptr) return null_argument("conflicting");
    auto r = dev->device->check_conflicting(a, b);
    if (!r.ok()) return fail(r.error());
    *conflicting = *r ? 1 : 0;
    return static_cast<int>(MEMSTORE_OK);
  });
}

int memstore_get_ensemble(const memstore_device* dev, uint64_t lbn, uint64_t* first,
                          uint64_t* last) {
  return guarded([&] {
    if (dev == nullptr) return null_argument("dev");
    if (first == nullptr) return null_argument("first");
    if (last == nullptr) return null_argument("last");
    auto r = dev->device->get_ensemble(lbn);
    if (!r.ok()) return fail(r.error());
    *first = r->first;
    *last = r->last;
    return static_cast<int>(MEMSTORE_OK);
  });
}

int memstore_read(memstore_device* dev, uint64_t lba, uint32_t blocks, void* buf, size_t len) {
  return guarded([&] {
    if (dev == nullptr) return null_argument("dev");
    if (buf == nullptr && len > 0) return null_argument("buf");
    const std::uint64_t need = std::uint64_t{blocks} * dev->device->block_size();
    if (len != need) {
      return fail(MEMSTORE_ERR_INVALID_ARGUMENT, "len is " + std::to_string(len) + "; " +
                                                     std::to_string(blocks) + " blocks need " +
                                                     std::to_string(need) + " bytes");
    }
    auto r = dev->device->read(lba, blocks);
    if (!r.ok()) return fail(r.error());
    if (!r->empty()) std::memcpy(buf, r->data(), r->size());
    return static_cast<int>(MEMSTORE_OK);
  });
}

int memstore_write(memstore_device* dev, uint64_t lba, const void* buf, size_t len) {
  return guarded([&] {
    if (dev == nullptr) return null_argument("dev");
    if (buf == nullptr && len > 0) return null_argument("buf");
    auto s = dev->device->write(
        lba, std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(buf), len));
    if (!s.ok()) return fail(s.error());
    return static_cast<int>(MEMSTORE_OK);
  });
}

int memstore_batch_new(const memstore_device* dev, memstore_batch** out) {
  return guarded([&] {
    if (dev == nullptr) return null_argument("dev");
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    auto b = dev->device->new_batch();
    if (!b.ok()) return fail(b.error());
    *out = new memstore_batch{std::move(b).value(), {}};
    return static_cast<int>(MEMSTORE_OK);
  });
}

void memstore_batch_free(memstore_batch* batch) {
  delete batch;
}

int memstore_batch_add_read(memstore_batch* batch, uint64_t lba, uint32_t blocks, void* buf,
                            size_t len) {
  return guarded([&] {
    if (batch == nullptr) return null_argument("batch");
    if (buf == nullptr) return null_argument("buf");
    const std::uint64_t need = std::uint64_t{blocks} * batch->batch.limits().block_size;
    if (len != need) {
      return fail(MEMSTORE_ERR_INVALID_ARGUMENT, "len is " + std::to_string(len) + "; " +
                                                     std::to_string(blocks) + " blocks need " +
                                                     std::to_string(need) + " bytes");
    }
    const std::size_t index = batch->batch.size();
    auto s = batch->batch.add_read(lba, blocks);
    if (!s.ok()) return fail(s.error());
    batch->reads.push_back({index, buf});
    return static_cast<int>(MEMSTORE_OK);
  });
}

int memstore_batch_add_write(memstore_batch* batch, uint64_t lba, const void* data, size_t len) {
  return guarded([&] {
    if (batch == nullptr) return null_argument("batch");
    if (data == nullptr) return null_argument("data");
    auto s = batch->batch.add_write(
        lba, std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(data), len));
    if (!s.ok()) return fail(s.error());
    return static_cast<int>(MEMSTORE_OK);
  });
}

size_t memstore_batch_size(const memstore_batch* batch) {
  return batch == nullptr ? 0 : batch->batch.size();
}

int memstore_batch_submit(memstore_device* dev, memstore_batch* batch, unsigned flags,
                          memstore_batch_info* info) {
  return guarded([&] {
    if (dev == nullptr) return null_argument("dev");
    if (batch == nullptr) return null_argument("batch");
    if ((flags & ~(MEMSTORE_BATCH_STRICT | MEMSTORE_BATCH_FUA)) != 0) {
      return fail(MEMSTORE_ERR_INVALID_ARGUMENT, "flags has unknown bits set");
    }
    memstore::host::SubmitOptions o;
    o.strict = (flags & MEMSTORE_BATCH_STRICT) != 0;
    o.fua = (flags & MEMSTORE_BATCH_FUA) != 0;
    auto r = dev->device->submit(batch->batch, o);
    if (!r.ok()) return fail(r.error());
    for (const auto& t : batch->reads) {
      const auto& data = r->data[t.descriptor];
      if (!data.empty()) std::memcpy(t.buf, data.data(), data.size());
    }
    if (info != nullptr) {
      info->media_steps = r->media_steps;
      info->service_us = r->service_us;
    }
    return static_cast<int>(MEMSTORE_OK);
  });
}

}  // extern "C"
