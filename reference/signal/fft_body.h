/*
 * reference/signal/fft_body.h: the body of reference/signal/fft.c, once
 * per precision: R the real type, C its complex type, NAME(x) the name x
 * of that precision (x_d, x_f). See fft.h for the algorithms.
 */

struct NAME(cusci__fft) {
  int64_t n;
  int nf;
  int64_t f[64]; /* the factors, outermost first */
  C *tw;         /* tw[j] = exp(-2 pi i j / n), j < n (mixed radix) */
  /* Bluestein: m > 0 is the convolution's length. */
  int64_t m;
  C *chirp;                      /* chirp[k] = exp(-pi i k^2 / n), k < n */
  C *kernel;                     /* the transform of the conjugate chirp, wrapped, over m */
  struct NAME(cusci__fft) *sub;  /* the plan of length m */
};

/* exp(-2 pi i j / N) for 0 <= j < N, in long double, rounded once. */
static C NAME(root)(int64_t j, int64_t N)
{
  if (j == 0)
    return 1;
  if (2 * j == N)
    return -1;
  if (4 * j == N)
    return -I;
  if (4 * j == 3 * N)
    return I;
  const long double a = 6.283185307179586476925286766559005768L * (long double)j / (long double)N;
  return (R)cosl(a) - I * (R)sinl(a);
}

/* -i z without a complex product. */
static inline C NAME(rot)(C z)
{
  return (R)cimag(z) - I * (R)creal(z);
}

/*
 * The forward r-point DFT of a[0..r-1], y[s * ys] = sum_q a[q]
 * exp(-2 pi i q s / r): butterflies of their own for r = 2, 3, 4 and 5, a
 * direct sum over the roots of unity for the other primes. Inlined into
 * its loops, where r does not change.
 */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void NAME(bfly)(const struct NAME(cusci__fft) *p, int64_t r, const C *a, C *y, int64_t ys)
{
  switch (r) {
  case 2:
    y[0] = a[0] + a[1];
    y[ys] = a[0] - a[1];
    return;
  case 3: {
    const R h = (R)0.866025403784438646763723170752936183L; /* sin(2 pi / 3) */
    const C t1 = a[1] + a[2], t2 = a[0] - (R)0.5 * t1, t3 = NAME(rot)(h * (a[1] - a[2]));
    y[0] = a[0] + t1;
    y[ys] = t2 + t3;
    y[2 * ys] = t2 - t3;
    return;
  }
  case 4: {
    const C t0 = a[0] + a[2], t1 = a[0] - a[2], t2 = a[1] + a[3], t3 = NAME(rot)(a[1] - a[3]);
    y[0] = t0 + t2;
    y[ys] = t1 + t3;
    y[2 * ys] = t0 - t2;
    y[3 * ys] = t1 - t3;
    return;
  }
  case 5: {
    const R c1 = (R)0.309016994374947424102293417182819059L, c2 = (R)-0.809016994374947424102293417182819059L;
    const R s1 = (R)0.951056516295153572116439333379382143L, s2 = (R)0.587785252292473129168705954639072769L;
    const C b1 = a[1] + a[4], b2 = a[2] + a[3], d1 = a[1] - a[4], d2 = a[2] - a[3];
    const C e1 = a[0] + c1 * b1 + c2 * b2, e2 = a[0] + c2 * b1 + c1 * b2;
    const C f1 = NAME(rot)(s1 * d1 + s2 * d2), f2 = NAME(rot)(s2 * d1 - s1 * d2);
    y[0] = a[0] + b1 + b2;
    y[ys] = e1 + f1;
    y[4 * ys] = e1 - f1;
    y[2 * ys] = e2 + f2;
    y[3 * ys] = e2 - f2;
    return;
  }
  default: {
    /* exp(-2 pi i e / r) = tw[e n / r]. */
    const int64_t step = p->n / r;
    for (int64_t s = 0; s < r; s++) {
      C acc = a[0];
      for (int64_t q = 1, e = s; q < r; q++) {
        acc += a[q] * p->tw[e * step];
        e += s;
        if (e >= r)
          e -= r;
      }
      y[s * ys] = acc;
    }
  }
  }
}

/* Decimation in time, forward: the r sub-transforms of the strided
 * inputs, then their twiddled combination; the last factor's transforms
 * read the input directly. */
static void NAME(rec)(const struct NAME(cusci__fft) *p, int lev, int64_t n, const C *in, int64_t is, C *out)
{
  const int64_t r = p->f[lev], m = n / r, tws = p->n / n;
  C a[CUSCI__FFT_DIRECT_MAX];
  if (m == 1) {
    for (int64_t q = 0; q < r; q++)
      a[q] = in[q * is];
    NAME(bfly)(p, r, a, out, 1);
    return;
  }
  if (m == p->f[lev + 1]) {
    /* The sub-transforms are the last factor's: done here, not called. */
    for (int64_t q = 0; q < r; q++) {
      const C *iq = in + q * is;
      for (int64_t t = 0; t < m; t++)
        a[t] = iq[t * is * r];
      NAME(bfly)(p, m, a, out + q * m, 1);
    }
  } else {
    for (int64_t q = 0; q < r; q++)
      NAME(rec)(p, lev + 1, m, in + q * is, is * r, out + q * m);
  }
  const C *tw = p->tw;
  for (int64_t k = 0; k < m; k++) {
    a[0] = out[k];
    for (int64_t q = 1; q < r; q++)
      a[q] = out[q * m + k] * tw[q * k * tws];
    NAME(bfly)(p, r, a, out + k, m);
  }
}

void NAME(cusci__fft_free)(struct NAME(cusci__fft) * p)
{
  if (!p)
    return;
  free(p->tw);
  free(p->chirp);
  free(p->kernel);
  NAME(cusci__fft_free)(p->sub);
  free(p);
}

size_t NAME(cusci__fft_work)(const struct NAME(cusci__fft) * p)
{
  return sizeof(C) * (size_t)(p->m ? 2 * p->m : p->n);
}

struct NAME(cusci__fft) *NAME(cusci__fft_plan)(int64_t n, bool bluestein)
{
  if (n < 1 || n > CUSCI__FFT_MAX_N)
    return NULL;
  struct NAME(cusci__fft) *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->n = n;
  /* Factors: fours, then twos, then the odd primes in ascending order. */
  int64_t rest = n;
  while (rest % 4 == 0 && p->nf < 64)
    p->f[p->nf++] = 4, rest /= 4;
  while (rest % 2 == 0 && p->nf < 64)
    p->f[p->nf++] = 2, rest /= 2;
  for (int64_t d = 3; d * d <= rest && p->nf < 64; d += 2)
    while (rest % d == 0)
      p->f[p->nf++] = d, rest /= d;
  if (rest > 1)
    p->f[p->nf++] = rest;
  bool large = false;
  for (int i = 0; i < p->nf; i++)
    large |= p->f[i] > CUSCI__FFT_DIRECT_MAX;
  if (!large && !bluestein) {
    p->tw = malloc(sizeof(C) * (size_t)n);
    if (!p->tw) {
      NAME(cusci__fft_free)(p);
      return NULL;
    }
    for (int64_t j = 0; j < n; j++)
      p->tw[j] = NAME(root)(j, n);
    return p;
  }
  /* Bluestein: jk = (j^2 + k^2 - (k - j)^2) / 2, so with c_k =
   * exp(-pi i k^2 / n), X_k = c_k sum_j (x_j c_j) conj(c_{k-j}): a cyclic
   * convolution of length m >= 2n - 1 with the kernel conj(c_l), l from
   * -(n - 1) to n - 1, wrapped. The kernel's transform, divided by m for
   * the backward transform, is kept. */
  /* The least length >= 2n - 1 of factors 2, 3 and 5, which the
   * mixed-radix transform does fastest. */
  int64_t m = 2 * n - 1;
  for (;; m++) {
    int64_t t = m;
    while (t % 2 == 0)
      t /= 2;
    while (t % 3 == 0)
      t /= 3;
    while (t % 5 == 0)
      t /= 5;
    if (t == 1)
      break;
  }
  p->m = m;
  p->sub = NAME(cusci__fft_plan)(m, false);
  p->chirp = malloc(sizeof(C) * (size_t)n);
  p->kernel = calloc((size_t)m, sizeof(C));
  C *work = malloc(p->sub ? NAME(cusci__fft_work)(p->sub) : 1);
  if (!p->sub || !p->chirp || !p->kernel || !work) {
    free(work);
    NAME(cusci__fft_free)(p);
    return NULL;
  }
  const uint64_t two_n = 2 * (uint64_t)n;
  for (int64_t k = 0; k < n; k++)
    p->chirp[k] = NAME(root)((int64_t)((uint64_t)k * (uint64_t)k % two_n), (int64_t)two_n);
  for (int64_t l = 0; l < n; l++) {
    const C b = conj(p->chirp[l]);
    p->kernel[l] = b;
    if (l)
      p->kernel[m - l] = b;
  }
  NAME(cusci__fft_run)(p->sub, p->kernel, -1, work);
  free(work);
  for (int64_t i = 0; i < m; i++)
    p->kernel[i] /= (R)m;
  return p;
}

void NAME(cusci__fft_run)(const struct NAME(cusci__fft) * p, C *x, int sign, void *work)
{
  const int64_t n = p->n;
  if (n == 1)
    return;
  C *w = work;
  if (!p->m) {
    /* Forward; backward is conj(forward(conj(x))). */
    if (sign < 0)
      memcpy(w, x, sizeof(C) * (size_t)n);
    else
      for (int64_t j = 0; j < n; j++)
        w[j] = conj(x[j]);
    NAME(rec)(p, 0, n, w, 1, x);
    if (sign > 0)
      for (int64_t j = 0; j < n; j++)
        x[j] = conj(x[j]);
    return;
  }
  /* Bluestein, forward; backward is conj(forward(conj(x))). */
  const int64_t m = p->m;
  for (int64_t j = 0; j < n; j++)
    w[j] = (sign < 0 ? x[j] : conj(x[j])) * p->chirp[j];
  for (int64_t j = n; j < m; j++)
    w[j] = 0;
  NAME(cusci__fft_run)(p->sub, w, -1, w + m);
  for (int64_t i = 0; i < m; i++)
    w[i] *= p->kernel[i];
  NAME(cusci__fft_run)(p->sub, w, 1, w + m);
  for (int64_t k = 0; k < n; k++) {
    const C y = w[k] * p->chirp[k];
    x[k] = sign < 0 ? y : conj(y);
  }
}

/* ------------------------------------------------------------ real data */

struct NAME(cusci__rfft) {
  int64_t n;
  struct NAME(cusci__fft) *c; /* length n/2 (even n) or n (odd n) */
  C *tw;                      /* tw[k] = exp(-2 pi i k / n), k <= n/2 (even n) */
};

void NAME(cusci__rfft_free)(struct NAME(cusci__rfft) * p)
{
  if (!p)
    return;
  NAME(cusci__fft_free)(p->c);
  free(p->tw);
  free(p);
}

struct NAME(cusci__rfft) *NAME(cusci__rfft_plan)(int64_t n)
{
  if (n < 1 || n > CUSCI__FFT_MAX_N)
    return NULL;
  struct NAME(cusci__rfft) *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->n = n;
  const bool even = n % 2 == 0 && n > 1;
  p->c = NAME(cusci__fft_plan)(even ? n / 2 : n, false);
  if (even)
    p->tw = malloc(sizeof(C) * (size_t)(n / 2 + 1));
  if (!p->c || (even && !p->tw)) {
    NAME(cusci__rfft_free)(p);
    return NULL;
  }
  for (int64_t k = 0; even && k <= n / 2; k++)
    p->tw[k] = NAME(root)(k, n);
  return p;
}

size_t NAME(cusci__rfft_work)(const struct NAME(cusci__rfft) * p)
{
  const int64_t len = p->tw ? p->n / 2 : p->n;
  return sizeof(C) * (size_t)len + NAME(cusci__fft_work)(p->c);
}

void NAME(cusci__rfft_forward)(const struct NAME(cusci__rfft) * p, const R *x, C *X, void *work)
{
  const int64_t n = p->n;
  C *z = work;
  void *cw = z + (p->tw ? n / 2 : n);
  if (!p->tw) {
    for (int64_t j = 0; j < n; j++)
      z[j] = x[j];
    NAME(cusci__fft_run)(p->c, z, -1, cw);
    for (int64_t k = 0; k <= n / 2; k++)
      X[k] = z[k];
    return;
  }
  /* z = even + i odd; E_k = (Z_k + conj Z_{h-k}) / 2, O_k = (Z_k - conj
   * Z_{h-k}) / 2i, X_k = E_k + tw_k O_k, with h = n/2 and Z_h = Z_0. */
  const int64_t h = n / 2;
  for (int64_t j = 0; j < h; j++)
    z[j] = x[2 * j] + I * x[2 * j + 1];
  NAME(cusci__fft_run)(p->c, z, -1, cw);
  for (int64_t k = 0; k <= h; k++) {
    const C a = z[k % h], b = conj(z[(h - k) % h]);
    const C e = (a + b) * (R)0.5, o = (a - b) * ((R)-0.5 * I);
    X[k] = e + p->tw[k] * o;
  }
}

void NAME(cusci__rfft_backward)(const struct NAME(cusci__rfft) * p, const C *X, R *x, void *work)
{
  const int64_t n = p->n;
  C *z = work;
  void *cw = z + (p->tw ? n / 2 : n);
  if (!p->tw) {
    /* The whole Hermitian spectrum, X_0 made real. */
    z[0] = creal(X[0]);
    for (int64_t k = 1; k <= n / 2; k++) {
      z[k] = X[k];
      z[n - k] = conj(X[k]);
    }
    NAME(cusci__fft_run)(p->c, z, 1, cw);
    for (int64_t j = 0; j < n; j++)
      x[j] = creal(z[j]);
    return;
  }
  /* x_even = IDFT_h(X_k + conj X_{h-k}), x_odd = IDFT_h((X_k - conj
   * X_{h-k}) conj(tw_k)), as the real and imaginary parts of one
   * transform; X_0 and X_h are taken as real. */
  const int64_t h = n / 2;
  for (int64_t k = 0; k < h; k++) {
    const C a = k ? X[k] : creal(X[0]), b = k ? conj(X[h - k]) : creal(X[h]);
    z[k] = (a + b) + I * ((a - b) * conj(p->tw[k]));
  }
  NAME(cusci__fft_run)(p->c, z, 1, cw);
  for (int64_t j = 0; j < h; j++) {
    x[2 * j] = creal(z[j]);
    x[2 * j + 1] = cimag(z[j]);
  }
}

/* ------------------------------------------------------------ DCT and DST */

void NAME(cusci__dct_run)(const struct NAME(cusci__rfft) * p, int type, bool sine, int64_t n, const R *x, R *y, R *u, C *U, void *work)
{
  /* The extension (reference/signal/dct_map.h), real, and its real
   * transform, whose outputs 0 .. len / 2 hold every value read. */
  const int64_t len = cusci__dct_len(type, sine, n);
  memset(u, 0, sizeof(R) * (size_t)len);
  const R m = (R)cusci__dct_mirror(sine);
  for (int64_t j = 0; j < n; j++) {
    const int64_t at = cusci__dct_in(type, sine, j);
    const R v = x[j] * (R)cusci__dct_in_weight(type, sine, j, n);
    u[at] += v;
    if (at && at != len - at)
      u[len - at] += m * v;
  }
  NAME(cusci__rfft_forward)(p, u, U, work);
  for (int64_t k = 0; k < n; k++) {
    const C v = U[cusci__dct_out(type, sine, k)];
    y[k] = sine ? -cimag(v) : creal(v);
  }
}

int NAME(cusci__dct)(int type, bool sine, int64_t n, const R *x, R *y)
{
  if (type < 1 || type > 4 || n < 1 || (type == 1 && !sine && n < 2))
    return -2;
  const int64_t len = cusci__dct_len(type, sine, n);
  struct NAME(cusci__rfft) *p = NAME(cusci__rfft_plan)(len);
  R *u = malloc(sizeof(R) * (size_t)len);
  C *U = malloc(sizeof(C) * (size_t)(len / 2 + 1));
  void *w = p ? malloc(NAME(cusci__rfft_work)(p) + 1) : NULL;
  int rc = -1;
  if (p && u && U && w) {
    NAME(cusci__dct_run)(p, type, sine, n, x, y, u, U, w);
    rc = 0;
  }
  free(u), free(U), free(w);
  NAME(cusci__rfft_free)(p);
  return rc;
}
