/*
 * tests/linalg-props.c: properties of every linalg function on the host
 * backend (A x = b, A inv(A) = I, L L^H = A, U S Vh = A, A v = v w, ...),
 * in the four dtypes, batched, with strided views.
 */
#include "tests/linalg-propsuite.h"

int main(void)
{
  cusci_ctx *ctx = tk_host_ctx();
  plan(lu_props_count());
  lu_props(ctx);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
