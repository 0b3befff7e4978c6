/*
 * reference/signal/fft_body.h: the body of reference/signal/fft.c, once
 * per precision: R the real type, C its complex type, NAME(x) the name x
 * of that precision (x_d, x_f), and the lane patterns CUSCI__FFT_SWAP,
 * _DUPRE, _DUPIM and _SIGN of a vector of 32 bytes of R. See fft.h for
 * the algorithms.
 */

/* A vector of 32 bytes: NAME(W) complex values, real and imaginary parts
 * side by side as in C. */
typedef R NAME(vec) __attribute__((vector_size(32)));
/* The same, for loads and stores at any address of an R. */
typedef R NAME(uvec) __attribute__((vector_size(32), aligned(sizeof(R)), may_alias));
enum { NAME(W) = 16 / (int)sizeof(R) };

struct NAME(cusci__fft) {
  int64_t n;
  int nf;
  int64_t f[64];   /* the factors, in the order of the stages */
  int64_t o[64];   /* where stage i's twiddles start in tw, in R */
  int64_t ro[64];  /* where stage i's roots of unity start in tw (a radix above 5) */
  R *tw;           /* stage i: (wr, wi) of exp(-2 pi i p k s / n), at o[i] + 2 ((k - 1) m + p) */
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

#if defined(__GNUC__)
#define CUSCI__FFT_INLINE __attribute__((always_inline)) inline
#define CUSCI__FFT_UNROLL _Pragma("GCC unroll 8")
#else
#define CUSCI__FFT_INLINE inline
#define CUSCI__FFT_UNROLL
#endif

/* The first `lanes` complex values at x, zeros after them. */
static CUSCI__FFT_INLINE NAME(vec) NAME(load)(const R *x, int64_t lanes)
{
  if (lanes == NAME(W))
    return *(const NAME(uvec) *)x;
  NAME(vec) v = { 0 };
  for (int64_t l = 0; l < 2 * lanes; l++)
    v[l] = x[l];
  return v;
}

/* Lane l's complex value to y. */
static CUSCI__FFT_INLINE void NAME(store1)(R *y, NAME(vec) v, int64_t l)
{
  y[0] = v[2 * l];
  y[1] = v[2 * l + 1];
}

static CUSCI__FFT_INLINE NAME(vec) NAME(swap)(NAME(vec) a)
{
  return __builtin_shufflevector(a, a, CUSCI__FFT_SWAP);
}

/* a times (wr + i wi), lane by lane, with wr and wi the same in every
 * lane. */
static CUSCI__FFT_INLINE NAME(vec) NAME(mul1)(NAME(vec) a, R wr, R wi)
{
  const NAME(vec) sign = { CUSCI__FFT_SIGN };
  return a * wr + NAME(swap)(a) * (sign * wi);
}

/* a times t, lane by lane, t's complex values as a's. */
static CUSCI__FFT_INLINE NAME(vec) NAME(mulv)(NAME(vec) a, NAME(vec) t)
{
  const NAME(vec) sign = { CUSCI__FFT_SIGN };
  return a * __builtin_shufflevector(t, t, CUSCI__FFT_DUPRE) + NAME(swap)(a) * (__builtin_shufflevector(t, t, CUSCI__FFT_DUPIM) * sign);
}

/* -i a, lane by lane. */
static CUSCI__FFT_INLINE NAME(vec) NAME(rot)(NAME(vec) a)
{
  const NAME(vec) sign = { CUSCI__FFT_SIGN };
  return NAME(swap)(a) * -sign;
}

/*
 * The forward r-point DFTs of a[0..r-1] into y, b[k] = sum_q a[q]
 * exp(-2 pi i q k / r), in every lane: butterflies of their own for r =
 * 2, 3, 4, 5 and 8, a direct sum over roots (exp(-2 pi i e / r), e < r, as
 * (re, im)) for the other primes.
 */
static CUSCI__FFT_INLINE void NAME(bfly)(int64_t r, const R *roots, const NAME(vec) *a, NAME(vec) *y)
{
  switch (r) {
  case 2:
    y[0] = a[0] + a[1];
    y[1] = a[0] - a[1];
    return;
  case 3: {
    const R h = (R)0.866025403784438646763723170752936183L; /* sin(2 pi / 3) */
    const NAME(vec) t1 = a[1] + a[2], t2 = a[0] - (R)0.5 * t1, t3 = NAME(rot)(h * (a[1] - a[2]));
    y[0] = a[0] + t1;
    y[1] = t2 + t3;
    y[2] = t2 - t3;
    return;
  }
  case 4: {
    const NAME(vec) t0 = a[0] + a[2], t1 = a[0] - a[2], t2 = a[1] + a[3], t3 = NAME(rot)(a[1] - a[3]);
    y[0] = t0 + t2;
    y[1] = t1 + t3;
    y[2] = t0 - t2;
    y[3] = t1 - t3;
    return;
  }
  case 8: {
    /* Two 4-point DFTs of the even and the odd inputs, the odd ones'
     * outputs turned by exp(-2 pi i k / 8). */
    const R h = (R)0.707106781186547524400844362104849039L;
    const NAME(vec) t0 = a[0] + a[4], t1 = a[0] - a[4], t2 = a[2] + a[6], t3 = NAME(rot)(a[2] - a[6]);
    const NAME(vec) e0 = t0 + t2, e1 = t1 + t3, e2 = t0 - t2, e3 = t1 - t3;
    const NAME(vec) u0 = a[1] + a[5], u1 = a[1] - a[5], u2 = a[3] + a[7], u3 = NAME(rot)(a[3] - a[7]);
    const NAME(vec) o0 = u0 + u2, o1 = u1 + u3, o2 = u0 - u2, o3 = u1 - u3;
    const NAME(vec) w1 = h * (o1 + NAME(rot)(o1)), w2 = NAME(rot)(o2), w3 = h * (NAME(rot)(o3) - o3);
    y[0] = e0 + o0;
    y[4] = e0 - o0;
    y[1] = e1 + w1;
    y[5] = e1 - w1;
    y[2] = e2 + w2;
    y[6] = e2 - w2;
    y[3] = e3 + w3;
    y[7] = e3 - w3;
    return;
  }
  case 5: {
    const R c1 = (R)0.309016994374947424102293417182819059L, c2 = (R)-0.809016994374947424102293417182819059L;
    const R s1 = (R)0.951056516295153572116439333379382143L, s2 = (R)0.587785252292473129168705954639072769L;
    const NAME(vec) b1 = a[1] + a[4], b2 = a[2] + a[3], d1 = a[1] - a[4], d2 = a[2] - a[3];
    const NAME(vec) e1 = a[0] + c1 * b1 + c2 * b2, e2 = a[0] + c2 * b1 + c1 * b2;
    const NAME(vec) f1 = NAME(rot)(s1 * d1 + s2 * d2), f2 = NAME(rot)(s2 * d1 - s1 * d2);
    y[0] = a[0] + b1 + b2;
    y[1] = e1 + f1;
    y[4] = e1 - f1;
    y[2] = e2 + f2;
    y[3] = e2 - f2;
    return;
  }
  default:
    for (int64_t k = 0; k < r; k++) {
      NAME(vec) acc = a[0];
      for (int64_t q = 1, e = k; q < r; q++) {
        acc += NAME(mul1)(a[q], roots[2 * e], roots[2 * e + 1]);
        e += k;
        if (e >= r)
          e -= r;
      }
      y[k] = acc;
    }
  }
}

/*
 * One stage of the self-sorting (Stockham) transform, decimation in
 * frequency: with m = n / (r s), for p < m, q < s and k < r,
 *   y[q + s (r p + k)] = exp(-2 pi i p k s / n) sum_j x[q + s (p + m j)] exp(-2 pi i j k / r).
 * The values q + s p = c, c < n / r, of one j lie side by side in x, and
 * are taken W at a time into a vector's lanes; the twiddles and the
 * stores are a vector's where the W lanes share p (s a multiple of W),
 * lane by lane where they do not. swin and swout swap the real and
 * imaginary parts of what is read and written (the backward transform).
 * y may be x where m = 1.
 */
static CUSCI__FFT_INLINE void NAME(stage)(int64_t n, int64_t r, int64_t s, const R *tw, const R *roots, const C *x, C *y, bool swin, bool swout)
{
  enum { W = NAME(W) };
  const int64_t m = n / (r * s), sm = n / r;
  const R *xr = (const R *)x;
  R *yr = (R *)y;
  NAME(vec) a[CUSCI__FFT_DIRECT_MAX + 1], b[CUSCI__FFT_DIRECT_MAX + 1]; /* whole blocks of W */
  int64_t p0 = 0, q0 = 0;
  for (int64_t c = 0; c < sm; c += W) {
    const int64_t lanes = sm - c < W ? sm - c : W;
    CUSCI__FFT_UNROLL
    for (int64_t j = 0; j < r; j++) {
      a[j] = NAME(load)(xr + 2 * (c + sm * j), lanes);
      if (swin)
        a[j] = NAME(swap)(a[j]);
    }
    NAME(bfly)(r, roots, a, b);
    if (lanes == W && q0 + W <= s) {
      /* One p in every lane. */
      CUSCI__FFT_UNROLL
      for (int64_t k = 1; k < r; k++) {
        const R *t = tw + 2 * ((k - 1) * m + p0);
        b[k] = NAME(mul1)(b[k], t[0], t[1]);
      }
      CUSCI__FFT_UNROLL
      for (int64_t k = 0; k < r; k++) {
        if (swout)
          b[k] = NAME(swap)(b[k]);
        *(NAME(uvec) *)(yr + 2 * (q0 + s * (r * p0 + k))) = b[k];
      }
    } else if (s == 1 && r % W == 0 && lanes == W) {
      /* p = c + lane, twiddles side by side; the r outputs of each p side
       * by side in y, by transposes of W x W blocks of 64-bit parts (a
       * complex float, or half a complex double). */
      CUSCI__FFT_UNROLL
      for (int64_t k = 1; k < r; k++)
        b[k] = NAME(mulv)(b[k], NAME(load)(tw + 2 * ((k - 1) * m + c), W));
      typedef uint64_t u4 __attribute__((vector_size(32)));
      CUSCI__FFT_UNROLL
      for (int64_t k = 0; k < r; k += W) {
        if (swout)
          for (int64_t i = 0; i < W; i++)
            b[k + i] = NAME(swap)(b[k + i]);
        u4 o[4];
        if (W == 4) {
          const u4 u0 = (u4)b[k], u1 = (u4)b[k + 1], u2 = (u4)b[k + 2], u3 = (u4)b[k + 3];
          const u4 t0 = __builtin_shufflevector(u0, u1, 0, 4, 2, 6), t1 = __builtin_shufflevector(u0, u1, 1, 5, 3, 7);
          const u4 t2 = __builtin_shufflevector(u2, u3, 0, 4, 2, 6), t3 = __builtin_shufflevector(u2, u3, 1, 5, 3, 7);
          o[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5), o[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
          o[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7), o[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
        } else {
          const u4 u0 = (u4)b[k], u1 = (u4)b[k + 1];
          o[0] = __builtin_shufflevector(u0, u1, 0, 1, 4, 5), o[1] = __builtin_shufflevector(u0, u1, 2, 3, 6, 7);
        }
        for (int64_t l = 0; l < W; l++)
          *(NAME(uvec) *)(yr + 2 * (r * (c + l) + k)) = (NAME(vec))o[l];
      }
    } else if (s == 1) {
      /* p = c + lane: the twiddles side by side, the stores r apart. */
      CUSCI__FFT_UNROLL
      for (int64_t k = 1; k < r; k++) {
        b[k] = NAME(mulv)(b[k], NAME(load)(tw + 2 * ((k - 1) * m + c), lanes));
      }
      CUSCI__FFT_UNROLL
      for (int64_t k = 0; k < r; k++) {
        if (swout)
          b[k] = NAME(swap)(b[k]);
        for (int64_t l = 0; l < lanes; l++)
          NAME(store1)(yr + 2 * (r * (c + l) + k), b[k], l);
      }
    } else {
      /* Lane by lane. */
      int64_t pl[NAME(W)], ql[NAME(W)];
      for (int64_t l = 0, p = p0, q = q0; l < lanes; l++) {
        pl[l] = p, ql[l] = q;
        if (++q == s)
          q = 0, p++;
      }
      CUSCI__FFT_UNROLL
      for (int64_t k = 1; k < r; k++) {
        NAME(vec) t = { 0 };
        for (int64_t l = 0; l < lanes; l++) {
          t[2 * l] = tw[2 * ((k - 1) * m + pl[l])];
          t[2 * l + 1] = tw[2 * ((k - 1) * m + pl[l]) + 1];
        }
        b[k] = NAME(mulv)(b[k], t);
      }
      CUSCI__FFT_UNROLL
      for (int64_t k = 0; k < r; k++) {
        if (swout)
          b[k] = NAME(swap)(b[k]);
        for (int64_t l = 0; l < lanes; l++)
          NAME(store1)(yr + 2 * (ql[l] + s * (r * pl[l] + k)), b[k], l);
      }
    }
    q0 += W;
    while (q0 >= s)
      q0 -= s, p0++;
  }
}

/* The stages, from x through work back to x: with an odd count of them
 * the last (where m = 1) is done in place. back: the backward transform,
 * as swap(forward(swap(x))) with swap exchanging real and imaginary
 * parts. */
CUSCI__FFT_CLONES
static void NAME(stockham)(const struct NAME(cusci__fft) * p, C *x, C *work, bool back)
{
  const int64_t n = p->n;
  C *in = x, *out = work;
  int64_t s = 1;
  for (int i = 0; i < p->nf; i++) {
    const bool last = i == p->nf - 1;
    C *dst = last && p->nf % 2 ? in : out;
    const bool swin = back && i == 0, swout = back && last;
    const R *tw = p->tw + p->o[i], *roots = p->tw + p->ro[i];
    switch (p->f[i]) {
    case 2: NAME(stage)(n, 2, s, tw, roots, in, dst, swin, swout); break;
    case 3: NAME(stage)(n, 3, s, tw, roots, in, dst, swin, swout); break;
    case 4: NAME(stage)(n, 4, s, tw, roots, in, dst, swin, swout); break;
    case 5: NAME(stage)(n, 5, s, tw, roots, in, dst, swin, swout); break;
    case 8: NAME(stage)(n, 8, s, tw, roots, in, dst, swin, swout); break;
    default: NAME(stage)(n, p->f[i], s, tw, roots, in, dst, swin, swout); break;
    }
    if (dst != in)
      out = in, in = dst;
    s *= p->f[i];
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
  /* Factors: eights, fours, then twos, then the odd primes in ascending order. */
  int64_t rest = n;
  while (rest % 8 == 0 && p->nf < 64)
    p->f[p->nf++] = 8, rest /= 8;
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
    /* Stage i's twiddles, (r - 1) m of them, then its roots (r of them)
     * for a radix without a butterfly of its own. */
    int64_t len = 0, s = 1;
    for (int i = 0; i < p->nf; i++) {
      const int64_t r = p->f[i], m = n / (r * s);
      p->o[i] = len;
      len += 2 * (r - 1) * m;
      p->ro[i] = len;
      if (r > 5 && r != 8)
        len += 2 * r;
      s *= r;
    }
    p->tw = malloc(sizeof(R) * (size_t)(len ? len : 1));
    if (!p->tw) {
      NAME(cusci__fft_free)(p);
      return NULL;
    }
    s = 1;
    for (int i = 0; i < p->nf; i++) {
      const int64_t r = p->f[i], m = n / (r * s);
      R *t = p->tw + p->o[i];
      for (int64_t k = 1; k < r; k++)
        for (int64_t q = 0; q < m; q++, t += 2) {
          const C w = NAME(root)((int64_t)((uint64_t)(q * k) * (uint64_t)s % (uint64_t)n), n);
          t[0] = creal(w), t[1] = cimag(w);
        }
      for (int64_t e = 0; r > 5 && r != 8 && e < r; e++) {
        const C w = NAME(root)(e, r);
        p->tw[p->ro[i] + 2 * e] = creal(w), p->tw[p->ro[i] + 2 * e + 1] = cimag(w);
      }
      s *= r;
    }
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
    NAME(stockham)(p, x, w, sign > 0);
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
