/*
 * tests/fuzz/fuzz_load.c: a libFuzzer target for the .npy and .npz loaders.
 * Every input must load or be refused with a status; the sanitizers catch
 * any read past the input, leak or crash. Build and run with
 * tests/fuzz/run.sh; keep any crashing input in tests/fuzz/regress/ (as
 * caseNN), where tests/core-npy loads it on every `make check`.
 */
#include <stddef.h>
#include <stdint.h>

#include <cusci/cusci.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static cusci_ctx *ctx;
  if (!ctx && cusci_ctx_create(CUSCI_DEVICE_HOST, &ctx) != CUSCI_OK)
    return 0;
  cusci_array *a = NULL;
  if (cusci_npy_load_buffer(ctx, data, size, &a) == CUSCI_OK)
    cusci_array_release(a);
  cusci_npz *z = NULL;
  if (cusci_npz_load_buffer(ctx, data, size, &z) == CUSCI_OK)
    cusci_npz_free(z);
  return 0;
}
