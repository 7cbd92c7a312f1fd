// SPDX-License-Identifier: Apache-2.0
/*
 * A C program on the memstore host library's C API (host/memstore_host.h):
 * open a MEMStore, ask for an equivalence class (thesis §6.3.4), and read p
 * of its blocks "for free" in one MEMS BATCH after writing them in another.
 *
 *   host_c_example iscsi://127.0.0.1:3260/iqn.2026-11.org.memstore:g2/0 [LBN]
 *
 * Exit status 0 when the batch read returns what the batch wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/memstore_host.h"

static int fail(const char* what) {
  uint8_t key, asc, ascq;
  fprintf(stderr, "%s: %s\n", what, memstore_last_error());
  if (memstore_last_sense(&key, &asc, &ascq)) {
    fprintf(stderr, "  sense key %Xh, ASC %02Xh, ASCQ %02Xh\n", key, asc, ascq);
  }
  return 1;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s iscsi://host:port/target-iqn/lun [LBN]\n", argv[0]);
    return 2;
  }
  const uint64_t lbn = argc > 2 ? strtoull(argv[2], NULL, 10) : 33;

  memstore_device* dev = NULL;
  if (memstore_open(argv[1], NULL, &dev) != MEMSTORE_OK) return fail("open");
  if (!memstore_is_memstore(dev)) {
    memstore_close(dev);
    return fail("not a MEMStore");
  }

  uint32_t p = 0;
  if (memstore_get_parallelism(dev, &p) != MEMSTORE_OK) return fail("get_parallelism");

  /* Ask for the size first, then fetch the class. */
  size_t count = 0;
  int rc = memstore_get_equivalent(dev, lbn, -1, NULL, 0, &count);
  if (rc != MEMSTORE_OK && rc != MEMSTORE_ERR_BUFFER_TOO_SMALL) return fail("get_equivalent");
  uint64_t* cls = calloc(count, sizeof *cls);
  if (cls == NULL || memstore_get_equivalent(dev, lbn, -1, cls, count, &count) != MEMSTORE_OK) {
    return fail("get_equivalent");
  }
  uint64_t first = 0, last = 0;
  if (memstore_get_ensemble(dev, lbn, &first, &last) != MEMSTORE_OK) return fail("get_ensemble");
  printf("LBN %llu: p = %u, |E| = %zu, ensemble %llu..%llu\n", (unsigned long long)lbn, p, count,
         (unsigned long long)first, (unsigned long long)last);

  /* Pick up to p members of E that do not conflict with each other. */
  uint64_t chosen[64];
  size_t n = 0;
  for (size_t i = 0; i < count && n < p && n < 64; ++i) {
    int ok = 1;
    for (size_t j = 0; j < n && ok; ++j) {
      int c = 0;
      if (memstore_check_conflicting(dev, chosen[j], cls[i], &c) != MEMSTORE_OK) {
        return fail("check_conflicting");
      }
      ok = !c;
    }
    if (ok) chosen[n++] = cls[i];
  }
  free(cls);

  const uint32_t bs = memstore_block_size(dev);
  unsigned char* out = malloc((size_t)n * bs);
  unsigned char* in = calloc(n, bs);
  if (out == NULL || in == NULL) return fail("malloc");
  memstore_batch* wr = NULL;
  memstore_batch* rd = NULL;
  if (memstore_batch_new(dev, &wr) != MEMSTORE_OK || memstore_batch_new(dev, &rd) != MEMSTORE_OK) {
    return fail("batch_new");
  }
  for (size_t i = 0; i < n; ++i) {
    memset(out + i * bs, (int)(0x40 + i), bs);
    if (memstore_batch_add_write(wr, chosen[i], out + i * bs, bs) != MEMSTORE_OK) {
      return fail("batch_add_write");
    }
    if (memstore_batch_add_read(rd, chosen[i], 1, in + i * bs, bs) != MEMSTORE_OK) {
      return fail("batch_add_read");
    }
  }
  memstore_batch_info info;
  if (memstore_batch_submit(dev, wr, MEMSTORE_BATCH_STRICT, &info) != MEMSTORE_OK) {
    return fail("batch_submit (write)");
  }
  printf("wrote %zu blocks in %u media step(s), %u us\n", n, info.media_steps, info.service_us);
  if (memstore_batch_submit(dev, rd, MEMSTORE_BATCH_STRICT, &info) != MEMSTORE_OK) {
    return fail("batch_submit (read)");
  }
  printf("read %zu blocks in %u media step(s), %u us\n", n, info.media_steps, info.service_us);
  const int same = memcmp(in, out, (size_t)n * bs) == 0;
  printf("%s\n", same ? "read data matches" : "read data DIFFERS");

  memstore_batch_free(wr);
  memstore_batch_free(rd);
  free(out);
  free(in);
  memstore_close(dev);
  return same ? 0 : 1;
}
