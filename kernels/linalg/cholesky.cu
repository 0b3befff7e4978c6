/*
 * kernels/linalg/cholesky.cu: cholesky on cuSOLVER (cho_solve is solve's
 * CUSCI__LA_FACTORED kind, kernels/linalg/lu.cu).
 */
#include "kernels/linalg/common.cuh"

using namespace cusci_la;

/*
 * cholesky. The buffer B is conj(A) (A Hermitian). potrf(LOWER) gives
 * B = L' L'^H, so A = conj(L') L'^T. For upper, U = L'^T, which is the
 * buffer read row-major, and the other triangle is zeroed. For lower,
 * L = conj(L'), the buffer's row-major upper triangle transposed and
 * conjugated into the lower one. cuSOLVER's potrf(UPPER) would give L
 * without the move, but is 2.6 times slower (4.70 ms against 1.77 ms for
 * float64 n = 4096 on an H200).
 */
extern "C" int cusci__launch_la_cholesky(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, bool lower, void *a)
{
  if (check_finite)
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
  RUN(potrf_batch(g, dt, batch, n, CUBLAS_FILL_MODE_LOWER, a, g->info));
  RUN(triangle(g, dt, a, n, batch, lower ? MOVE_UPPER : ZERO_LOWER, lower));
  return 0;
}
