/*
 * reference/signal/filter_body.h: the bodies of filter.h for one element
 * type T (float, double or their C99 complex types), named NAME(x);
 * included by filter.c once per type, and for uint64_t (the integers'
 * direct convolution) with CUSCI__SIG_CONVOLVE_ONLY.
 */

#ifndef CUSCI__SIG_CONVOLVE_ONLY
/* One sample of lfilter: the output, the state zz (K values) updated. */
static inline T NAME(lf_step)(int64_t K, const T *b, const T *a, T *zz, T xn)
{
  const T yn = K > 0 ? zz[0] + b[0] * xn : b[0] * xn;
  for (int64_t k = 0; k + 1 < K; k++)
    zz[k] = zz[k + 1] + b[k + 1] * xn - a[k + 1] * yn;
  if (K > 0)
    zz[K - 1] = b[K] * xn - a[K] * yn;
  return yn;
}

/* One sample of sosfilt's cascade: the output, the states zz (2 nsec
 * values) updated. */
static inline T NAME(sos_step)(int64_t nsec, const T *s, T *zz, T v)
{
  for (int64_t q = 0; q < nsec; q++) {
    const T *c = s + 6 * q;
    const T w = c[0] * v + zz[2 * q];
    zz[2 * q] = c[1] * v - c[4] * w + zz[2 * q + 1];
    zz[2 * q + 1] = c[2] * v - c[5] * w;
    v = w;
  }
  return v;
}

static inline T NAME(iir_step)(bool sos, int64_t K, const T *c, T *zz, T xn)
{
  return sos ? NAME(sos_step)(K, c, zz, xn) : NAME(lf_step)(K, c, c + K + 1, zz, xn);
}

/* a = u + M a, row by row, each row's sum from its first term on. */
static void NAME(anchor_step)(int64_t N, const T *M, const T *u, T *a)
{
  T t[CUSCI__SIG_IIR_MAXN];
  for (int64_t i = 0; i < N; i++) {
    T acc = M[i * N] * a[0];
    for (int64_t j = 1; j < N; j++)
      acc = acc + M[i * N + j] * a[j];
    t[i] = u[i] + acc;
  }
  for (int64_t i = 0; i < N; i++)
    a[i] = t[i];
}

/* M = A^L: column j the state after L samples of zeros from e_j (as
 * the recurrence runs them: squaring A instead loses up to eight digits on
 * an elliptic filter of order 5 in (b, a) form). */
static void NAME(iir_power)(bool sos, int64_t K, const T *c, int64_t N, T *M)
{
  T zz[CUSCI__SIG_IIR_MAXN];
  for (int64_t j = 0; j < N; j++) {
    for (int64_t k = 0; k < N; k++)
      zz[k] = k == j;
    for (int64_t t = 0; t < CUSCI__SIG_IIR_BLOCK; t++)
      NAME(iir_step)(sos, K, c, zz, 0);
    for (int64_t k = 0; k < N; k++)
      M[k * N + j] = zz[k];
  }
}

/*
 * One line in blocks (filter.h): v the true state, sa the anchored state
 * of the current block, u its zero-start state, r0 the block's samples
 * done; all three left as they are after the line.
 */
static void NAME(anchored_line)(bool sos, int64_t K, const T *c, int64_t N, const T *M, int64_t r0, bool carry, int64_t len, int64_t stride,
                                const T *xl, T *yl, T *v, T *sa, T *u)
{
  const int64_t L = CUSCI__SIG_IIR_BLOCK;
  if (len > 0 && r0 == L) {
    NAME(anchor_step)(N, M, u, sa);
    for (int64_t k = 0; k < N; k++)
      v[k] = sa[k], u[k] = 0;
    r0 = 0;
  }
  for (int64_t t = 0; t < len;) {
    const int64_t n = len - t < L - r0 ? len - t : L - r0;
    const bool anchor = r0 + n == L && t + n < len, keep_u = anchor || carry;
    for (int64_t e = t; e < t + n; e++) {
      const T xn = xl[e * stride];
      yl[e * stride] = NAME(iir_step)(sos, K, c, v, xn);
      if (keep_u)
        NAME(iir_step)(sos, K, c, u, xn);
    }
    if (anchor) {
      NAME(anchor_step)(N, M, u, sa);
      for (int64_t k = 0; k < N; k++)
        v[k] = sa[k], u[k] = 0;
      r0 = 0;
    } else {
      r0 += n;
    }
    t += n;
  }
}

/*
 * lfilter (sos false; K its order, c = b then a) or sosfilt (K sections,
 * c the sos, per_channel: a block per line) of every line. z: the true
 * states in the layout of filter.h; an: NULL for the plain recurrence.
 */
static void NAME(iir)(bool sos, int64_t K, bool per_channel, const T *c, int64_t outer, int64_t len, int64_t inner, const T *x, T *y, T *z,
                      const cusci__sig_anchor *an, T *zz)
{
  const int64_t N = sos ? 2 * K : K, lines = outer * inner;
  T *sa = an && an->sa ? an->sa : NULL, *u = an && an->u ? an->u : NULL;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      const int64_t line = o * inner + i;
      const T *cl = c + (per_channel ? line * K * 6 : 0);
      const T *xl = x + o * len * inner + i;
      T *yl = y + o * len * inner + i;
      /* z[o][k][i] (lfilter) or z[q][o][j][i] (sosfilt, k = 2 q + j) */
      T *zl = sos ? z + o * 2 * inner + i : z + o * K * inner + i;
      const int64_t zq = sos ? outer * 2 * inner : 0;
      for (int64_t k = 0; k < N; k++)
        zz[k] = sos ? zl[(k >> 1) * zq + (k & 1) * inner] : zl[k * inner];
      if (!an) {
        for (int64_t t = 0; t < len; t++)
          yl[t * inner] = NAME(iir_step)(sos, K, cl, zz, xl[t * inner]);
      } else {
        T s[CUSCI__SIG_IIR_MAXN], w[CUSCI__SIG_IIR_MAXN];
        for (int64_t k = 0; k < N; k++) {
          s[k] = sa && !an->fresh ? sa[k * lines + line] : zz[k];
          w[k] = u && !an->fresh ? u[k * lines + line] : 0;
        }
        NAME(anchored_line)(sos, K, cl, N, an->M, an->r0, an->carry, len, inner, xl, yl, zz, s, w);
        for (int64_t k = 0; k < N; k++) {
          if (sa)
            sa[k * lines + line] = s[k];
          if (u)
            u[k * lines + line] = w[k];
        }
      }
      for (int64_t k = 0; k < N; k++)
        *(sos ? &zl[(k >> 1) * zq + (k & 1) * inner] : &zl[k * inner]) = zz[k];
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
