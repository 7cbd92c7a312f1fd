// SPDX-License-Identifier: Apache-2.0
/*
 * memstore host library, C API: a thin wrapper over the C++ library
 * (host/device.h) for C programs and other languages' bindings.
 *
 * Conventions:
 *   - Every function that can fail returns an int: MEMSTORE_OK (0) or a
 *     negative MEMSTORE_ERR_* code. memstore_last_error() then gives the
 *     message in words (with the sense data decoded for a CHECK CONDITION).
 *   - The last error is per thread. A handle must not be used by two threads
 *     at once.
 *   - Nothing throws across this API, and nothing aborts on bad input.
 *
 * The geometry functions are the thesis' application interface (Schlosser,
 * CMU-PDL-04-104, §6.3.4), computed from the device's mode page 20h.
 */
#ifndef MEMSTORE_HOST_H
#define MEMSTORE_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C header: typedef, not using. */
typedef struct memstore_device memstore_device; /* NOLINT(modernize-use-using) */
typedef struct memstore_batch memstore_batch;   /* NOLINT(modernize-use-using) */

enum memstore_result {
  MEMSTORE_OK = 0,
  MEMSTORE_ERR_INVALID_ARGUMENT = -1, /* bad input: names the argument */
  MEMSTORE_ERR_TRANSPORT = -2,        /* connect, login, connection, ioctl */
  MEMSTORE_ERR_CHECK_CONDITION = -3,  /* see memstore_last_sense() */
  MEMSTORE_ERR_SCSI_STATUS = -4,      /* BUSY, TASK SET FULL, ... */
  MEMSTORE_ERR_BAD_RESPONSE = -5,     /* the device's data does not decode */
  MEMSTORE_ERR_NOT_MEMSTORE = -6,     /* no usable mode page 20h */
  MEMSTORE_ERR_BUFFER_TOO_SMALL = -7, /* the caller's array is too small */
  MEMSTORE_ERR_NO_MEMORY = -8,
  MEMSTORE_ERR_INTERNAL = -9
};

/* The last failure's message on this thread; "" before any failure. The
 * pointer stays valid until this thread's next failing call. */
const char* memstore_last_error(void);
/* 1 and the sense key, ASC and ASCQ when the last failure on this thread was
 * a CHECK CONDITION; else 0. Any pointer may be NULL. */
int memstore_last_sense(uint8_t* key, uint8_t* asc, uint8_t* ascq);

/* Opens an iscsi:// URL or a device path (/dev/sgN). initiator_name may be
 * NULL for the library's default. A device without mode page 20h opens too
 * (memstore_is_memstore() is then 0) and can be read and written. */
int memstore_open(const char* target, const char* initiator_name, memstore_device** out);
void memstore_close(memstore_device* dev); /* NULL is fine */

uint64_t memstore_blocks(const memstore_device* dev);
uint32_t memstore_block_size(const memstore_device* dev);
int memstore_is_memstore(const memstore_device* dev);

/* --- thesis §6.3.4 -------------------------------------------------------- */
int memstore_get_parallelism(const memstore_device* dev, uint32_t* p);
/* The equivalence class of lbn in ascending order. *count is set to its size;
 * up to `capacity` LBNs are stored in out. MEMSTORE_ERR_BUFFER_TOO_SMALL when
 * capacity < *count. micropositioning < 0 uses the device's M. */
int memstore_get_equivalent(const memstore_device* dev, uint64_t lbn, int micropositioning,
                            uint64_t* out, size_t capacity, size_t* count);
int memstore_check_conflicting(const memstore_device* dev, uint64_t a, uint64_t b,
                               int* conflicting);
/* The track holding lbn: first..last inclusive. */
int memstore_get_ensemble(const memstore_device* dev, uint64_t lbn, uint64_t* first,
                          uint64_t* last);

/* --- plain block access ----------------------------------------------------- */
/* len must be blocks x block size. */
int memstore_read(memstore_device* dev, uint64_t lba, uint32_t blocks, void* buf, size_t len);
/* len must be whole blocks. */
int memstore_write(memstore_device* dev, uint64_t lba, const void* buf, size_t len);

/* --- batches (MEMS BATCH / MEMS BATCH RESULTS) ------------------------------ */
#define MEMSTORE_BATCH_STRICT 1u /* refuse a batch needing more than one media step */
#define MEMSTORE_BATCH_FUA 2u    /* writes durable before completion */

typedef struct memstore_batch_info { /* NOLINT(modernize-use-using) */
  uint32_t media_steps;              /* sequential media accesses the device needed */
  uint32_t service_us;               /* the device's modeled service time, microseconds */
} memstore_batch_info;

int memstore_batch_new(const memstore_device* dev, memstore_batch** out);
void memstore_batch_free(memstore_batch* batch); /* NULL is fine */
/* The read data lands in buf when the batch is submitted; len must be
 * blocks x block size and buf must stay valid until then. */
int memstore_batch_add_read(memstore_batch* batch, uint64_t lba, uint32_t blocks, void* buf,
                            size_t len);
/* The data (whole blocks) is copied at once. */
int memstore_batch_add_write(memstore_batch* batch, uint64_t lba, const void* data, size_t len);
size_t memstore_batch_size(const memstore_batch* batch);
/* flags: MEMSTORE_BATCH_STRICT | MEMSTORE_BATCH_FUA. info may be NULL. The
 * batch stays as it was and can be submitted again. */
int memstore_batch_submit(memstore_device* dev, memstore_batch* batch, unsigned flags,
                          memstore_batch_info* info);

#ifdef __cplusplus
}
#endif

#endif /* MEMSTORE_HOST_H */
