/*
 * reference/signal/filter_body.h: the bodies of filter.h for one element
 * type T (float, double or their C99 complex types), named NAME(x);
 * included by filter.c once per type, and for uint64_t (the integers'
 * direct convolution) with CUSCI__SIG_CONVOLVE_ONLY.
 */

#ifndef CUSCI__SIG_CONVOLVE_ONLY
static void NAME(lfilter)(int64_t K, const T *coef, int64_t outer, int64_t len, int64_t inner, const T *x, T *y, T *z, T *zz)
{
  const T *b = coef, *a = coef + K + 1;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      const T *xl = x + o * len * inner + i;
      T *yl = y + o * len * inner + i, *zl = z + o * K * inner + i;
      for (int64_t k = 0; k < K; k++)
        zz[k] = zl[k * inner];
      for (int64_t t = 0; t < len; t++) {
        const T xn = xl[t * inner];
        const T yn = K > 0 ? zz[0] + b[0] * xn : b[0] * xn;
        for (int64_t k = 0; k + 1 < K; k++)
          zz[k] = zz[k + 1] + b[k + 1] * xn - a[k + 1] * yn;
        if (K > 0)
          zz[K - 1] = b[K] * xn - a[K] * yn;
        yl[t * inner] = yn;
      }
      for (int64_t k = 0; k < K; k++)
        zl[k * inner] = zz[k];
    }
}

static void NAME(sosfilt)(int64_t nsec, bool per_channel, const T *sos, int64_t outer, int64_t len, int64_t inner, const T *x, T *y, T *z,
                          T *zz)
{
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      const T *s = sos + (per_channel ? (o * inner + i) * nsec * 6 : 0);
      const T *xl = x + o * len * inner + i;
      T *yl = y + o * len * inner + i;
      for (int64_t q = 0; q < nsec; q++)
        for (int j = 0; j < 2; j++)
          zz[2 * q + j] = z[((q * outer + o) * 2 + j) * inner + i];
      for (int64_t t = 0; t < len; t++) {
        T v = xl[t * inner];
        for (int64_t q = 0; q < nsec; q++) {
          const T *c = s + 6 * q;
          const T w = c[0] * v + zz[2 * q];
          zz[2 * q] = c[1] * v - c[4] * w + zz[2 * q + 1];
          zz[2 * q + 1] = c[2] * v - c[5] * w;
          v = w;
        }
        yl[t * inner] = v;
      }
      for (int64_t q = 0; q < nsec; q++)
        for (int j = 0; j < 2; j++)
          z[((q * outer + o) * 2 + j) * inner + i] = zz[2 * q + j];
    }
}

#endif

static void NAME(convolve)(int ndim, const int64_t *shape1, const T *in1, const int64_t *shape2, const T *in2, const int64_t *start,
                           const int64_t *oshape, T *out)
{
  int64_t no = 1, st1[CUSCI__SIG_MAXD], st2[CUSCI__SIG_MAXD];
  for (int d = ndim - 1; d >= 0; d--) {
    st1[d] = d == ndim - 1 ? 1 : st1[d + 1] * shape1[d + 1];
    st2[d] = d == ndim - 1 ? 1 : st2[d + 1] * shape2[d + 1];
    no *= oshape[d];
  }
  for (int64_t j = 0; j < no; j++) {
    /* The full result's index of out[j], and the box of in2's indices k
     * with j - k inside in1. */
    int64_t jd[CUSCI__SIG_MAXD], lo[CUSCI__SIG_MAXD], hi[CUSCI__SIG_MAXD], k[CUSCI__SIG_MAXD];
    int64_t rem = j;
    bool empty = false;
    for (int d = ndim - 1; d >= 0; d--) {
      jd[d] = rem % oshape[d] + start[d];
      rem /= oshape[d];
      lo[d] = jd[d] - (shape1[d] - 1) > 0 ? jd[d] - (shape1[d] - 1) : 0;
      hi[d] = jd[d] < shape2[d] - 1 ? jd[d] : shape2[d] - 1;
      empty |= lo[d] > hi[d];
      k[d] = lo[d];
    }
    T acc = 0;
    while (!empty) {
      int64_t o1 = 0, o2 = 0;
      for (int d = 0; d < ndim; d++)
        o1 += (jd[d] - k[d]) * st1[d], o2 += k[d] * st2[d];
      acc += in2[o2] * in1[o1];
      int d = ndim - 1;
      for (; d >= 0; d--) {
        if (++k[d] <= hi[d])
          break;
        k[d] = lo[d];
      }
      empty = d < 0;
    }
    out[j] = acc;
  }
}

#ifndef CUSCI__SIG_CONVOLVE_ONLY
/* One output of upfirdn: the sum over the taps k = t mod up, t mod up +
 * up, ... (from the first whose sample is at most ntot - 1) of h[k]
 * x[(t - k) / up - j0], x holding the inputs from j0 on. */
static T NAME(upfirdn_one)(const T *h, int64_t nh, const T *x, int64_t stride, int64_t up, int64_t t, int64_t j0, int64_t ntot)
{
  int64_t k = t % up, kmax = t - (j0 > 0 ? j0 : 0) * up;
  const int64_t lo = t - (ntot - 1) * up;
  if (k < lo)
    k += (lo - k + up - 1) / up * up;
  kmax = kmax < nh - 1 ? kmax : nh - 1;
  T acc = 0;
  for (; k <= kmax; k += up)
    acc += h[k] * x[((t - k) / up - j0) * stride];
  return acc;
}

static void NAME(upfirdn)(int64_t nh, const T *h, int64_t outer, int64_t n, int64_t inner, const T *x, int64_t up, int64_t down, int64_t i0,
                          int64_t j0, int64_t ntot, int64_t nout, T *y)
{
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < nout; i++)
      for (int64_t q = 0; q < inner; q++)
        y[(o * nout + i) * inner + q] = NAME(upfirdn_one)(h, nh, x + o * n * inner + q, inner, up, (i0 + i) * down, j0, ntot);
}

static void NAME(pad)(int ndim, const int64_t *shape, const int64_t *before, const int64_t *oshape, int mode, T fill, const T *x, T *y)
{
  int64_t total = 1, st[CUSCI__SIG_MAXD];
  for (int d = ndim - 1; d >= 0; d--) {
    st[d] = d == ndim - 1 ? 1 : st[d + 1] * shape[d + 1];
    total *= oshape[d];
  }
  for (int64_t e = 0; e < total; e++) {
    int64_t rem = e, off = 0;
    bool inside = true;
    for (int d = ndim - 1; d >= 0; d--) {
      const int64_t i = cusci__sig_pad_index(mode, rem % oshape[d], before[d], shape[d]);
      rem /= oshape[d];
      inside &= i >= 0;
      off += (i >= 0 ? i : 0) * st[d];
    }
    y[e] = inside ? x[off] : fill;
  }
}
#endif
