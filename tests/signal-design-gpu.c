/*
 * tests/signal-design-gpu.c: filter design and windows on a GPU context:
 * every SciPy fixture against SciPy and against the host bit for bit (the
 * design runs on the host; the results are uploaded to the device), and a
 * filter bank against the host's.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/signal-design-suite.h"

int main(void)
{
  cusci_ctx *gpu = tk_gpu_ctx_or_skip(), *host = tk_host_ctx();
  sd_fixtures(gpu, host);
  sd_chain(gpu);
  /* A bank designed on the GPU context = the host's bit for bit. */
  const int orders[3] = {4, 7, 1};
  const double edges[6] = {0.1, 0.3, 0.2, 0.25, 0.6, 0.9};
  cusci_array *bg = NULL, *bh = NULL;
  cusci_status st = cusci_signal_iirfilter_sos_bank(gpu, 3, orders, 2, edges, 1, 40, CUSCI_SIGNAL_BANDSTOP, CUSCI_SIGNAL_ELLIP, NULL, &bg);
  if (st == CUSCI_OK)
    st = cusci_signal_iirfilter_sos_bank(host, 3, orders, 2, edges, 1, 40, CUSCI_SIGNAL_BANDSTOP, CUSCI_SIGNAL_ELLIP, NULL, &bh);
  ok(st == CUSCI_OK && sd_same_shape(bg, bh) && sd_err(gpu, bg, host, bh) == 0, "iirfilter_sos_bank of 3 elliptic bandstops on the GPU = the host: %s",
     cusci_status_name(st));
  cusci_array_release(bg), cusci_array_release(bh);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
