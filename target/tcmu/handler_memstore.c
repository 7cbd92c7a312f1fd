// SPDX-License-Identifier: Apache-2.0
/*
 * handler_memstore.so: the MEMStore backstore for tcmu-runner 1.5.x
 * (`user:memstore` in targetcli; docs/tcmu.md).
 *
 * A thin C shell: tcmu-runner's callouts hand their arguments to the C++ core
 * (handler_core.h) and map its statuses to TCMU_STS codes. The handler has
 * handle_cmd and no read/write/flush callouts, so tcmu-runner treats it as
 * passthrough-only: every command the kernel passes up (all but REPORT LUNS,
 * docs/tcmu.md section 5) is answered by the same Lun memstored serves, and
 * tcmu-runner emulates nothing.
 *
 * Threads: with nr_threads > 0, tcmu-runner runs handle_cmd on that many
 * worker threads and completes a command when handle_cmd returns, so a worker
 * waits inside handle_cmd until the command's modeled completion is due
 * (threaded_driver.h). 128 workers: LIO gives a TCMU device a queue depth of
 * 128 (hw_queue_depth), so no command ever waits for a free worker and every
 * command reaches the model when it arrives; the model alone serialises.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "target/tcmu/handler_core.h"
#include "tcmu-runner.h"
#include "tcmur_device.h"

enum { MEMSTORE_WORKERS = 128 };

static bool memstore_check_config(const char* cfgstring, char** reason) {
  char* message = memstore_tcmu_check_config(cfgstring);
  if (message == NULL) return true;
  *reason = message; /* tcmu-runner frees it */
  return false;
}

/* The core's messages (fault rules that fire, a power cut's account of the
 * writes it took) go to tcmu-runner's log, prefixed with the device. */
static void memstore_log(void* context, enum memstore_tcmu_log_level level, const char* message) {
  struct tcmu_device* dev = context;
  switch (level) {
    case MEMSTORE_TCMU_LOG_DEBUG:
      tcmu_dev_dbg(dev, "%s\n", message);
      break;
    case MEMSTORE_TCMU_LOG_INFO:
      tcmu_dev_info(dev, "%s\n", message);
      break;
    case MEMSTORE_TCMU_LOG_WARNING:
      tcmu_dev_warn(dev, "%s\n", message);
      break;
    case MEMSTORE_TCMU_LOG_ERROR:
    default:
      tcmu_dev_err(dev, "%s\n", message);
      break;
  }
}

static int memstore_open(struct tcmu_device* dev, bool reopen) {
  (void)reopen;
  /* "memstore/<image>[;key=value]..." */
  const char* cfg = strchr(tcmu_dev_get_cfgstring(dev), '/');
  if (cfg == NULL) {
    tcmu_dev_err(dev, "memstore: no config string; expected memstore/<image>[;key=value]...\n");
    return -EINVAL;
  }
  const uint32_t block_size = tcmu_dev_get_block_size(dev);
  const uint64_t size = tcmu_dev_get_num_lbas(dev) * block_size;
  char* error = NULL;
  struct memstore_tcmu_lun* lun = memstore_tcmu_open(cfg + 1, size, block_size, &error);
  if (lun == NULL) {
    tcmu_dev_err(dev, "memstore: %s\n", error != NULL ? error : "out of memory");
    free(error);
    return -EINVAL;
  }
  memstore_tcmu_set_log(lun, memstore_log, dev, "memstore");
  tcmur_dev_set_private(dev, lun);
  tcmu_dev_info(dev, "memstore: opened %s\n", cfg + 1);
  return 0;
}

static void memstore_close(struct tcmu_device* dev) {
  char* report = memstore_tcmu_close(tcmur_dev_get_private(dev));
  tcmur_dev_set_private(dev, NULL);
  if (report != NULL) tcmu_dev_info(dev, "memstore: closed; %s\n", report);
  free(report);
}

static int memstore_handle_cmd(struct tcmu_device* dev, struct tcmur_cmd* tcmur_cmd) {
  struct tcmulib_cmd* cmd = tcmur_cmd->lib_cmd;
  switch (memstore_tcmu_execute(tcmur_dev_get_private(dev), cmd->cdb, cmd->iovec, cmd->iov_cnt,
                                cmd->sense_buf, sizeof cmd->sense_buf)) {
    case MEMSTORE_TCMU_GOOD:
      return TCMU_STS_OK;
    case MEMSTORE_TCMU_CHECK_CONDITION:
      return TCMU_STS_PASSTHROUGH_ERR; /* our sense data, as is */
    case MEMSTORE_TCMU_BUSY:
      return TCMU_STS_BUSY;
    case MEMSTORE_TCMU_TASK_SET_FULL:
      return TCMU_STS_NO_RESOURCE;
    case MEMSTORE_TCMU_INTERNAL_ERROR:
    default:
      return TCMU_STS_HW_ERR;
  }
}

static struct tcmur_handler memstore_handler = {
    .name = "MEMStore (MEMS storage device model)",
    .subtype = "memstore",
    .check_config = memstore_check_config,
    .open = memstore_open,
    .close = memstore_close,
    .handle_cmd = memstore_handle_cmd,
    .nr_threads = MEMSTORE_WORKERS,
};

__attribute__((visibility("default"))) int handler_init(void) {
  memstore_handler.cfg_desc = memstore_tcmu_config_help();
  return tcmur_register_handler(&memstore_handler);
}
