/*
 * kernels/linalg/eigh.cu: the Hermitian eigenproblems on cuSOLVER: eigh
 * (syevd / heevd), with a subset of the eigenvalues (syevdx) or with b
 * (sygvdx / hegvdx).
 */
#include "kernels/linalg/common.cuh"

using namespace cusci_la;

namespace {

/* ------------------------------------------- generalized eigh, by type */

#define GVDX(T, R, C)                                                                                                            \
  cusolverStatus_t gvdx_size(cusolverDnHandle_t h, cusolverEigType_t it, cusolverEigMode_t jz, cusolverEigRange_t rg,            \
                             cublasFillMode_t up, int n, const T *a, const T *b, R vl, R vu, int il, int iu, int *meig, const R *w, \
                             int *lwork)                                                                                         \
  {                                                                                                                              \
    return cusolverDn##C##_bufferSize(h, it, jz, rg, up, n, a, n, b, n, vl, vu, il, iu, meig, w, lwork);                         \
  }                                                                                                                              \
  cusolverStatus_t gvdx(cusolverDnHandle_t h, cusolverEigType_t it, cusolverEigMode_t jz, cusolverEigRange_t rg,                 \
                        cublasFillMode_t up, int n, T *a, T *b, R vl, R vu, int il, int iu, int *meig, R *w, T *work, int lwork,  \
                        int *info)                                                                                               \
  {                                                                                                                              \
    return cusolverDn##C(h, it, jz, rg, up, n, a, n, b, n, vl, vu, il, iu, meig, w, work, lwork, info);                          \
  }
GVDX(float, float, Ssygvdx)
GVDX(double, double, Dsygvdx)
GVDX(cuComplex, float, Chegvdx)
GVDX(cuDoubleComplex, double, Zhegvdx)

struct gen_op {
  cusci__la_gpu *g;
  cusolverDnHandle_t h;
  int *info;
  cusolverEigType_t itype;
  cusolverEigMode_t jobz;
  cusolverEigRange_t range;
  cublasFillMode_t uplo;
  int64_t batch, n;
  cusci__la_range r;
  void *a, *b, *w;
  int64_t *m;
  template <typename T, typename R>
  int run()
  {
    int ni = (int)n, meig = 0, lwork = 0;
    R vl = (R)r.vlo, vu = (R)r.vhi;
    int il = (int)(r.lo + 1), iu = (int)(r.hi + 1);
    SOLVER_QUERY(gvdx_size(h, itype, jobz, range, uplo, ni, (const T *)a, (const T *)b, vl, vu, il, iu, &meig, (const R *)w, &lwork));
    void *work;
    RUN(take_zeroed(g, sizeof(T) * (size_t)(lwork > 0 ? lwork : 1), &work));
    for (int64_t i = 0; i < batch; i++) {
      SOLVER_TRY(gvdx(h, itype, jobz, range, uplo, ni, (T *)a + i * n * n, (T *)b + i * n * n, vl, vu, il, iu, &meig, (R *)w + i * n,
                      (T *)work, lwork, info + i));
      if (!g->plan)
        m[i] = meig;
    }
    return 0;
  }
};

} // namespace

/*
 * eigh. The buffer B is conj(A); its eigenvalues are A's and its
 * eigenvectors z the conjugates of A's. syevd leaves them as the columns of
 * the column-major buffer, so v = conj(buffer)^T read row-major. SciPy's
 * lower triangle is the buffer's upper one.
 */
extern "C" int cusci__launch_la_eigh(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, bool upper, void *a, void *w, void *v)
{
  if (check_finite)
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
  cudaDataType t = cuda_type(dt), rt = real_type(dt);
  cusolverEigMode_t jobz = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cublasFillMode_t uplo = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  size_t dbytes = 0, hbytes = 0, isz = cusci_kit_itemsize(dt), rsz = cusci_dtype_is_single(dt) ? 4 : 8;
  SOLVER_QUERY(cusolverDnXsyevd_bufferSize(solver_of(g), params_of(g), jobz, uplo, n, t, a, n, rt, w, t, &dbytes, &hbytes));
  void *dw, *hw;
  RUN(take_zeroed(g, dbytes, &dw));
  RUN(take_host(g, hbytes, &hw));
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXsyevd(solver_of(g), params_of(g), jobz, uplo, n, t, (char *)a + (size_t)(i * n * n) * isz, n, rt,
                                (char *)w + (size_t)(i * n) * rsz, t, dw, dbytes, hw, hbytes, g->info + i));
  if (v)
    RUN(transpose(g, dt, a, v, n, n, batch, true));
  return 0;
}

/*
 * eigh with a subset (Xsyevdx) or with b (sygvdx / hegvdx, whose range
 * ALL is sygvd's problem). The count of eigenvalues found comes back to
 * the host per call (cuSOLVER returns it there).
 */
extern "C" int cusci__launch_la_eigh_ex(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, bool upper, cusci__la_range r,
                                        int type, void *a, void *b, void *w, void *v, int64_t *m)
{
  cusolverDnHandle_t solver = solver_of(g);
  cusolverDnParams_t params = params_of(g);
  if (check_finite) {
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
    if (b)
      RUN(flag_nonfinite(g, dt, batch * n * n, b));
  }
  cusolverEigMode_t jobz = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cublasFillMode_t uplo = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  cusolverEigRange_t range = r.kind == 1 ? CUSOLVER_EIG_RANGE_I : r.kind == 2 ? CUSOLVER_EIG_RANGE_V : CUSOLVER_EIG_RANGE_ALL;
  size_t isz = cusci_kit_itemsize(dt), rsz = cusci_dtype_is_single(dt) ? 4 : 8, nn = (size_t)(n * n);
  if (b) {
    cusolverEigType_t it = type == 2 ? CUSOLVER_EIG_TYPE_2 : type == 3 ? CUSOLVER_EIG_TYPE_3 : CUSOLVER_EIG_TYPE_1;
    gen_op op{ g, solver, g->info, it, jobz, range, uplo, batch, n, r, a, b, w, m };
    switch (dt) {
    case CUSCI_FLOAT32:
      RUN((op.run<float, float>()));
      break;
    case CUSCI_FLOAT64:
      RUN((op.run<double, double>()));
      break;
    case CUSCI_COMPLEX64:
      RUN((op.run<cuComplex, float>()));
      break;
    default:
      RUN((op.run<cuDoubleComplex, double>()));
    }
  } else {
    cudaDataType t = cuda_type(dt), rt = cusci_dtype_is_single(dt) ? CUDA_R_32F : CUDA_R_64F;
    double vl = r.vlo, vu = r.vhi;
    float vlf = (float)r.vlo, vuf = (float)r.vhi;
    void *pvl = cusci_dtype_is_single(dt) ? (void *)&vlf : (void *)&vl, *pvu = cusci_dtype_is_single(dt) ? (void *)&vuf : (void *)&vu;
    int64_t meig = 0;
    size_t dbytes = 0, hbytes = 0;
    SOLVER_QUERY(cusolverDnXsyevdx_bufferSize(solver, params, jobz, range, uplo, n, t, a, n, pvl, pvu, r.lo + 1, r.hi + 1, &meig, rt, w, t,
                                            &dbytes, &hbytes));
    void *dw, *hw;
    RUN(take_zeroed(g, dbytes, &dw));
    RUN(take_host(g, hbytes, &hw));
    for (int64_t i = 0; i < batch; i++) {
      SOLVER_TRY(cusolverDnXsyevdx(solver, params, jobz, range, uplo, n, t, (char *)a + i * nn * isz, n, pvl, pvu, r.lo + 1, r.hi + 1,
                                   &meig, rt, (char *)w + (size_t)(i * n) * rsz, t, dw, dbytes, hw, hbytes, g->info + i));
      if (!g->plan)
        m[i] = meig;
    }
  }
  if (v)
    RUN(transpose(g, dt, a, v, n, n, batch, true));
  return 0;
}
