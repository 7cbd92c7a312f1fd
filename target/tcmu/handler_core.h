// SPDX-License-Identifier: Apache-2.0
/* The C ABI between the tcmu-runner handler shell (handler_memstore.c, the
 * only file that sees tcmu-runner's headers) and the C++ core. Plain C types
 * only; no function lets an exception out. Messages are malloc()ed and freed
 * by the caller with free(). */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct memstore_tcmu_lun;

/* How a command ended; the shell maps these to TCMU_STS codes. */
enum memstore_tcmu_status {
  MEMSTORE_TCMU_GOOD = 0,
  MEMSTORE_TCMU_CHECK_CONDITION, /* sense data written */
  MEMSTORE_TCMU_BUSY,
  MEMSTORE_TCMU_TASK_SET_FULL,
  MEMSTORE_TCMU_INTERNAL_ERROR /* the core failed (out of memory); no sense written */
};

/* The usage text for tcmu-runner's cfg_desc. */
const char* memstore_tcmu_config_help(void);

/* NULL when `cfgstring` is valid, else a message naming the key at fault. */
char* memstore_tcmu_check_config(const char* cfgstring);

/* Opens the LUN `cfgstring` describes for a backstore of `size_bytes` in
 * blocks of `block_size` (both must match the device model). NULL on error,
 * with *error set. */
struct memstore_tcmu_lun* memstore_tcmu_open(const char* cfgstring, uint64_t size_bytes,
                                             uint32_t block_size, char** error);

/* Where the LUN's messages go: fault rules that fire (level 0, debug), a
 * power cut's account of every write it took or kept (levels 1-2), store
 * errors (level 3). `log` is called on the LUN's own thread, with a line
 * that has no trailing newline, at most 160 bytes (a longer one comes in
 * pieces, each after the first starting "<name>: ... ": log_lines.h says
 * why); it must not call back into the core. */
enum memstore_tcmu_log_level {
  MEMSTORE_TCMU_LOG_DEBUG = 0,
  MEMSTORE_TCMU_LOG_INFO,
  MEMSTORE_TCMU_LOG_WARNING,
  MEMSTORE_TCMU_LOG_ERROR
};
typedef void (*memstore_tcmu_log_fn)(void* context, enum memstore_tcmu_log_level level,
                                     const char* message);
/* `name` prefixes every line (e.g. the backstore's name). */
void memstore_tcmu_set_log(struct memstore_tcmu_lun* lun, memstore_tcmu_log_fn log, void* context,
                           const char* name);

/* The capacity the device model has, in bytes (for messages). */
uint64_t memstore_tcmu_size_bytes(const struct memstore_tcmu_lun* lun);

/* Flushes the store and frees the LUN. Returns a one-line report (timing
 * lateness, flush errors) for the log; NULL if none could be made. REQUIRES:
 * no memstore_tcmu_execute in progress. */
char* memstore_tcmu_close(struct memstore_tcmu_lun* lun);

/* Runs one command and returns when its completion is due (docs/tcmu.md
 * section 5). Thread-safe. `iov` carries the data-out (for commands that
 * take data) or receives the data-in; on CHECK CONDITION the sense data goes
 * to `sense` (at most `sense_size` bytes). Thread cancellation is held off
 * while it runs. */
enum memstore_tcmu_status memstore_tcmu_execute(struct memstore_tcmu_lun* lun, const uint8_t* cdb,
                                                const struct iovec* iov, size_t iov_cnt,
                                                uint8_t* sense, size_t sense_size);

#ifdef __cplusplus
}
#endif
