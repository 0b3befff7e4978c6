/*
 * libsignal/convert.c: scipy.signal's conversions between the forms of a
 * linear system (transfer function, zeros-poles-gain, second-order
 * sections, state space): tf2zpk, tf2sos, sos2tf, sos2zpk, tf2ss, ss2tf,
 * zpk2ss, ss2zpk, on the host in float64, the results uploaded to the
 * context's device. Roots and eigenvalues are reference/signal/roots.c's.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/signal.h>

#include "reference/signal/design.h"

/* A real matrix on the host, row-major (a vector is 1 x n). */
typedef struct mat {
  double *v;
  int64_t r, c;
} mat;

static void mat_free(mat *m)
{
  free(m->v);
  m->v = NULL;
}

static cusci_status mat_zeros(cusci_ctx *ctx, const char *fn, int64_t r, int64_t c, mat *m)
{
  m->r = r, m->c = c;
  m->v = calloc((size_t)(r * c > 0 ? r * c : 1), sizeof *m->v);
  return m->v ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a %lld x %lld matrix", (long long)r, (long long)c);
}

/* x's values as a real matrix, as numpy.atleast_2d: 0-d 1 x 1, 1-d 1 x n;
 * NULL (SciPy's None) 0 x 0. More than maxnd dimensions is CUSCI_ERR_NDIM,
 * a complex dtype CUSCI_ERR_DTYPE. */
static cusci_status read_real(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *x, int maxnd, mat *m)
{
  m->v = NULL, m->r = m->c = 0;
  if (!x)
    return mat_zeros(ctx, fn, 0, 0, m);
  CUSCI_TRY(cusci_check_array(ctx, fn, name, x));
  const int nd = cusci_array_ndim(x);
  if (nd > maxnd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "%s has %d dimensions; it takes %d at most", name, nd, maxnd);
  const cusci_dtype dt = cusci_array_dtype(x);
  if (cusci_dtype_kind(dt) == 'c')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s is %s: the conversions take real systems", name, cusci_dtype_name(dt));
  double complex *h = NULL;
  CUSCI_TRY(cusci__sig_host_values(ctx, fn, name, x, &h));
  const int64_t *sh = cusci_array_shape(x);
  const int64_t r = nd == 2 ? sh[0] : 1, c = nd == 2 ? sh[1] : nd == 1 ? sh[0] : 1;
  cusci_status st = mat_zeros(ctx, fn, r, c, m);
  for (int64_t i = 0; st == CUSCI_OK && i < r * c; i++)
    m->v[i] = creal(h[i]);
  free(h);
  return st;
}

/* scipy.signal.normalize on b (rows x cols: one numerator a row) and a
 * (1 x n), in place: a's leading zeros trimmed, both divided by a[0], and
 * the leading columns of b that are all within 1e-14 of zero trimmed
 * (leaving one; SciPy warns there of badly conditioned coefficients). */
static cusci_status normalize(cusci_ctx *ctx, const char *fn, mat *b, mat *a)
{
  if (b->c == 0 || b->r == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the numerator b is empty");
  int64_t first = 0;
  while (first < a->c && a->v[first] == 0)
    first++;
  if (first == a->c)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the denominator a has no nonzero coefficient");
  a->c -= first;
  memmove(a->v, a->v + first, sizeof *a->v * (size_t)a->c);
  const double a0 = a->v[0];
  for (int64_t i = 0; i < b->r * b->c; i++)
    b->v[i] /= a0;
  for (int64_t i = 0; i < a->c; i++)
    a->v[i] /= a0;
  int64_t lead = 0;
  for (bool zero = true; lead < b->c && zero; lead += zero) {
    for (int64_t i = 0; i < b->r && zero; i++)
      zero = fabs(b->v[i * b->c + lead]) <= 1e-14;
  }
  if (lead == b->c)
    lead--;
  if (lead > 0) {
    const int64_t nc = b->c - lead;
    for (int64_t i = 0; i < b->r; i++)
      memmove(b->v + i * nc, b->v + i * b->c + lead, sizeof *b->v * (size_t)nc);
    b->c = nc;
  }
  return CUSCI_OK;
}

/* numpy.roots of the n coefficients c into a new *r (*nr of them); *real
 * when every root is real, as NumPy then returns float64. */
static cusci_status roots(cusci_ctx *ctx, const char *fn, const double *c, int64_t n, double complex **r, int64_t *nr, bool *real)
{
  *r = malloc(sizeof **r * (size_t)(n ? n : 1));
  if (!*r)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld roots", (long long)n);
  const int rc = cusci__sig_roots(c, n, *r, nr);
  if (rc) {
    free(*r), *r = NULL;
    return cusci__sig_design_fail(ctx, fn, rc);
  }
  *real = true;
  for (int64_t i = 0; i < *nr; i++)
    *real &= cimag((*r)[i]) == 0;
  return CUSCI_OK;
}

/* A zpk system found on the host. */
typedef struct zpk_h {
  double complex *z, *p;
  int64_t nz, np;
  bool zreal, preal;
  double k;
} zpk_h;

static void zpk_h_free(zpk_h *s)
{
  free(s->z), free(s->p);
  s->z = s->p = NULL;
}

/* scipy.signal.tf2zpk on one numerator b (1 x nb) and a, both normalized
 * here (so changed). */
static cusci_status tf2zpk_host(cusci_ctx *ctx, const char *fn, mat *b, mat *a, zpk_h *s)
{
  s->z = s->p = NULL;
  CUSCI_TRY(normalize(ctx, fn, b, a));
  s->k = b->v[0];
  for (int64_t i = 0; i < b->c; i++)
    b->v[i] /= s->k;
  cusci_status st = roots(ctx, fn, b->v, b->c, &s->z, &s->nz, &s->zreal);
  if (st == CUSCI_OK)
    st = roots(ctx, fn, a->v, a->c, &s->p, &s->np, &s->preal);
  if (st != CUSCI_OK)
    zpk_h_free(s);
  return st;
}

static cusci_status read_tf(cusci_ctx *ctx, const char *fn, const cusci_array *b, const cusci_array *a, int bnd, mat *mb, mat *ma)
{
  mb->v = ma->v = NULL;
  if (!b || !a)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%s is NULL", b ? "a" : "b");
  CUSCI_TRY(read_real(ctx, fn, "b", b, bnd, mb));
  const cusci_status st = read_real(ctx, fn, "a", a, 1, ma);
  if (st != CUSCI_OK)
    mat_free(mb);
  return st;
}

static cusci_status give_roots(cusci_ctx *ctx, const char *fn, const zpk_h *s, bool complex_always, cusci_array **z, cusci_array **p, double *k)
{
  cusci_array *rz = NULL, *rp = NULL;
  cusci_status st = cusci__sig_upload(ctx, s->z, 1, &s->nz, s->zreal && !complex_always ? CUSCI_FLOAT64 : CUSCI_COMPLEX128, &rz);
  if (st == CUSCI_OK)
    st = cusci__sig_upload(ctx, s->p, 1, &s->np, s->preal && !complex_always ? CUSCI_FLOAT64 : CUSCI_COMPLEX128, &rp);
  st = cusci__sig_give_two(ctx, fn, st, rz, z, rp, p);
  if (st == CUSCI_OK)
    *k = s->k;
  return st;
}

cusci_status cusci_signal_tf2zpk(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, cusci_array **z, cusci_array **p, double *k)
{
  static const char fn[] = "cusci_signal_tf2zpk";
  CUSCI_ENTRY(ctx, fn, b, a, z, p, k);
  mat mb, ma;
  CUSCI_TRY(read_tf(ctx, fn, b, a, 1, &mb, &ma));
  zpk_h s;
  cusci_status st = tf2zpk_host(ctx, fn, &mb, &ma, &s);
  mat_free(&mb), mat_free(&ma);
  if (st == CUSCI_OK)
    st = give_roots(ctx, fn, &s, false, z, p, k);
  zpk_h_free(&s);
  return st;
}

cusci_status cusci__sig_pairing_of(cusci_ctx *ctx, const char *fn, int pairing, bool analog, int *out)
{
  if ((unsigned)pairing > CUSCI_SIGNAL_PAIRING_MINIMAL)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "pairing %d is not a cusci_signal_pairing", pairing);
  if (analog && pairing != CUSCI_SIGNAL_PAIRING_DEFAULT && pairing != CUSCI_SIGNAL_PAIRING_MINIMAL)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "an analog system takes the minimal pairing only");
  *out = pairing == CUSCI_SIGNAL_PAIRING_DEFAULT ? (analog ? CUSCI__SIG_PAIR_MINIMAL : CUSCI__SIG_PAIR_NEAREST) : pairing - 1;
  return CUSCI_OK;
}

cusci_status cusci_signal_tf2sos(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, cusci_signal_pairing pairing, bool analog,
                                 cusci_array **sos)
{
  static const char fn[] = "cusci_signal_tf2sos";
  CUSCI_ENTRY(ctx, fn, b, a, sos);
  int pr;
  CUSCI_TRY(cusci__sig_pairing_of(ctx, fn, (int)pairing, analog, &pr));
  mat mb, ma;
  CUSCI_TRY(read_tf(ctx, fn, b, a, 1, &mb, &ma));
  zpk_h s;
  cusci_status st = tf2zpk_host(ctx, fn, &mb, &ma, &s);
  mat_free(&mb), mat_free(&ma);
  if (st != CUSCI_OK)
    return st;
  if (analog && s.nz > s.np)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "an analog system with more zeros (%lld) than poles (%lld) has no sections", (long long)s.nz,
                        (long long)s.np);
  const int64_t nsec = cusci__sig_zpk2sos_sections(s.nz, s.np, (cusci__sig_pairing)pr);
  double *v = st == CUSCI_OK ? malloc(sizeof *v * (size_t)(6 * nsec + 1)) : NULL;
  if (st == CUSCI_OK && !v)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld sections", (long long)nsec);
  if (st == CUSCI_OK) {
    const int rc = cusci__sig_zpk2sos(s.z, s.nz, s.p, s.np, s.k, (cusci__sig_pairing)pr, analog, v);
    st = rc ? cusci__sig_design_fail(ctx, fn, rc) : CUSCI_OK;
  }
  cusci_array *r = NULL;
  if (st == CUSCI_OK)
    st = cusci__sig_upload_real(ctx, v, 2, (const int64_t[]){nsec, 6}, CUSCI_FLOAT64, &r);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, sos);
  free(v);
  zpk_h_free(&s);
  return st;
}

/* The sections of sos (as numpy.atleast_2d) into m: n x 6. */
static cusci_status read_sos(cusci_ctx *ctx, const char *fn, const cusci_array *sos, mat *m)
{
  CUSCI_TRY(read_real(ctx, fn, "sos", sos, 2, m));
  if (m->c != 6) {
    mat_free(m);
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "sos has %lld columns; it takes (n_sections, 6)", (long long)m->c);
  }
  return CUSCI_OK;
}

/* c = trim(x) * trim(y) (numpy.polymul: each without its leading zeros,
 * an all-zero one as [0]); c has room nx + ny - 1; the length. */
static int64_t polymul(const double *x, int64_t nx, const double *y, int64_t ny, double *c)
{
  while (nx > 1 && x[0] == 0)
    x++, nx--;
  while (ny > 1 && y[0] == 0)
    y++, ny--;
  const int64_t n = nx + ny - 1;
  for (int64_t i = 0; i < n; i++)
    c[i] = 0;
  for (int64_t i = 0; i < nx; i++)
    for (int64_t j = 0; j < ny; j++)
      c[i + j] += x[i] * y[j];
  return n;
}

cusci_status cusci_signal_sos2tf(cusci_ctx *ctx, const cusci_array *sos, cusci_array **b, cusci_array **a)
{
  static const char fn[] = "cusci_signal_sos2tf";
  CUSCI_ENTRY(ctx, fn, sos, b, a);
  mat m;
  CUSCI_TRY(read_sos(ctx, fn, sos, &m));
  const int64_t cap = 2 * m.r + 1;
  double *buf = malloc(sizeof *buf * (size_t)(4 * cap));
  cusci_status st = buf ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld sections", (long long)m.r);
  cusci_array *rb = NULL, *ra = NULL;
  if (st == CUSCI_OK) {
    double *pb = buf, *pa = buf + cap, *tmp = buf + 2 * cap;
    int64_t nb = 1, na = 1;
    pb[0] = pa[0] = 1;
    for (int64_t s = 0; s < m.r; s++) {
      const double *row = m.v + 6 * s;
      nb = polymul(pb, nb, row, 3, tmp);
      memcpy(pb, tmp, sizeof *tmp * (size_t)nb);
      na = polymul(pa, na, row + 3, 3, tmp);
      memcpy(pa, tmp, sizeof *tmp * (size_t)na);
    }
    st = cusci__sig_upload_real(ctx, pb, 1, &nb, CUSCI_FLOAT64, &rb);
    if (st == CUSCI_OK)
      st = cusci__sig_upload_real(ctx, pa, 1, &na, CUSCI_FLOAT64, &ra);
  }
  free(buf), mat_free(&m);
  return cusci__sig_give_two(ctx, fn, st, rb, b, ra, a);
}

cusci_status cusci_signal_sos2zpk(cusci_ctx *ctx, const cusci_array *sos, cusci_array **z, cusci_array **p, double *k)
{
  static const char fn[] = "cusci_signal_sos2zpk";
  CUSCI_ENTRY(ctx, fn, sos, z, p, k);
  mat m;
  CUSCI_TRY(read_sos(ctx, fn, sos, &m));
  zpk_h all = {.z = calloc((size_t)(2 * m.r + 1), sizeof *all.z), .p = calloc((size_t)(2 * m.r + 1), sizeof *all.p), .nz = 2 * m.r, .np = 2 * m.r,
               .k = 1};
  cusci_status st = all.z && all.p ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld sections", (long long)m.r);
  for (int64_t s = 0; st == CUSCI_OK && s < m.r; s++) {
    double rb[3], ra[3];
    memcpy(rb, m.v + 6 * s, sizeof rb);
    memcpy(ra, m.v + 6 * s + 3, sizeof ra);
    mat mb = {rb, 1, 3}, ma = {ra, 1, 3};
    zpk_h one;
    st = tf2zpk_host(ctx, fn, &mb, &ma, &one);
    if (st != CUSCI_OK)
      break;
    /* SciPy's zero fill where a section has fewer than two of either */
    memcpy(all.z + 2 * s, one.z, sizeof *one.z * (size_t)one.nz);
    memcpy(all.p + 2 * s, one.p, sizeof *one.p * (size_t)one.np);
    all.k *= one.k;
    zpk_h_free(&one);
  }
  if (st == CUSCI_OK)
    st = give_roots(ctx, fn, &all, true, z, p, k);
  zpk_h_free(&all), mat_free(&m);
  return st;
}

/* scipy.signal.tf2ss's controller canonical form of normalized b (q
 * numerators) and a: A (K-1 x K-1), B (K-1 x 1), C (q x K-1), D (q x 1),
 * K = a's length (a 1 x 1 zero A, B and C when K is 1). */
static cusci_status tf2ss_host(cusci_ctx *ctx, const char *fn, mat *b, mat *a, mat *m)
{
  for (int i = 0; i < 4; i++)
    m[i].v = NULL;
  CUSCI_TRY(normalize(ctx, fn, b, a));
  const int64_t M = b->c, K = a->c, q = b->r, n = K > 1 ? K - 1 : 1;
  if (M > K)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the transfer function is improper: b has %lld coefficients, a %lld", (long long)M, (long long)K);
  cusci_status st = mat_zeros(ctx, fn, n, n, &m[0]);
  if (st == CUSCI_OK)
    st = mat_zeros(ctx, fn, n, 1, &m[1]);
  if (st == CUSCI_OK)
    st = mat_zeros(ctx, fn, q, n, &m[2]);
  if (st == CUSCI_OK)
    st = mat_zeros(ctx, fn, q, 1, &m[3]);
  if (st != CUSCI_OK) {
    for (int i = 0; i < 4; i++)
      mat_free(&m[i]);
    return st;
  }
  /* num padded on the left to K columns */
  for (int64_t i = 0; i < q; i++) {
    const double *row = b->v + i * M;
    m[3].v[i] = M == K ? row[0] : 0;
    if (K > 1)
      for (int64_t j = 1; j < K; j++) {
        const int64_t src = j - (K - M);
        const double nij = src >= 0 ? row[src] : 0;
        m[2].v[i * n + j - 1] = nij - m[3].v[i] * a->v[j];
      }
  }
  if (K > 1) {
    for (int64_t j = 0; j < n; j++)
      m[0].v[j] = -a->v[j + 1];
    for (int64_t i = 1; i < n; i++)
      m[0].v[i * n + i - 1] = 1;
    m[1].v[0] = 1;
  }
  return CUSCI_OK;
}

static cusci_status give_ss(cusci_ctx *ctx, const char *fn, mat *m, cusci_array **A, cusci_array **B, cusci_array **C, cusci_array **D)
{
  cusci_array *r[4] = {NULL, NULL, NULL, NULL};
  cusci_status st = CUSCI_OK;
  for (int i = 0; i < 4 && st == CUSCI_OK; i++)
    st = cusci__sig_upload_real(ctx, m[i].v, 2, (const int64_t[]){m[i].r, m[i].c}, CUSCI_FLOAT64, &r[i]);
  st = cusci__sig_give_two(ctx, fn, st, r[0], A, r[1], B);
  st = cusci__sig_give_two(ctx, fn, st, r[2], C, r[3], D);
  for (int i = 0; i < 4; i++)
    mat_free(&m[i]);
  return st;
}

cusci_status cusci_signal_tf2ss(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, cusci_array **A, cusci_array **B, cusci_array **C,
                                cusci_array **D)
{
  static const char fn[] = "cusci_signal_tf2ss";
  CUSCI_ENTRY(ctx, fn, b, a, A, B, C, D);
  mat mb, ma, m[4];
  CUSCI_TRY(read_tf(ctx, fn, b, a, 2, &mb, &ma));
  cusci_status st = tf2ss_host(ctx, fn, &mb, &ma, m);
  mat_free(&mb), mat_free(&ma);
  return st == CUSCI_OK ? give_ss(ctx, fn, m, A, B, C, D) : st;
}

cusci_status cusci_signal_zpk2ss(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, cusci_array **A, cusci_array **B,
                                 cusci_array **C, cusci_array **D)
{
  static const char fn[] = "cusci_signal_zpk2ss";
  CUSCI_ENTRY(ctx, fn, z, p, A, B, C, D);
  const int64_t nz = cusci_array_size(z), np = cusci_array_size(p);
  double complex *hz = NULL, *hp = NULL, *c = NULL;
  CUSCI_TRY(cusci__sig_host_values(ctx, fn, "z", z, &hz));
  cusci_status st = cusci__sig_host_values(ctx, fn, "p", p, &hp);
  mat mb = {NULL, 1, nz + 1}, ma = {NULL, 1, np + 1}, m[4];
  if (st == CUSCI_OK) {
    c = malloc(sizeof *c * (size_t)(nz + np + 2));
    mb.v = malloc(sizeof *mb.v * (size_t)(nz + 1)), ma.v = malloc(sizeof *ma.v * (size_t)(np + 1));
    if (!c || !mb.v || !ma.v)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  if (st == CUSCI_OK) {
    const bool real = cusci__sig_poly(hz, nz, k, c) & cusci__sig_poly(hp, np, 1, c + nz + 1);
    if (!real)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the zeros or poles do not come in conjugate pairs: the system is not real");
    for (int64_t i = 0; i <= nz; i++)
      mb.v[i] = creal(c[i]);
    for (int64_t i = 0; i <= np; i++)
      ma.v[i] = creal(c[nz + 1 + i]);
  }
  if (st == CUSCI_OK)
    st = tf2ss_host(ctx, fn, &mb, &ma, m);
  free(hz), free(hp), free(c), mat_free(&mb), mat_free(&ma);
  return st == CUSCI_OK ? give_ss(ctx, fn, m, A, B, C, D) : st;
}

/* numpy.poly of a square matrix (its characteristic polynomial, n + 1
 * coefficients into c): the eigenvalues' polynomial, real parts. M is
 * destroyed. */
static cusci_status charpoly(cusci_ctx *ctx, const char *fn, double *M, int64_t n, double *c)
{
  double complex *w = malloc(sizeof *w * (size_t)(2 * n + 1));
  if (!w)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  const int rc = cusci__sig_eigvals(M, n, w);
  if (rc == 0) {
    cusci__sig_poly(w, n, 1, w + n);
    for (int64_t i = 0; i <= n; i++)
      c[i] = creal(w[n + i]);
  }
  free(w);
  return rc ? cusci__sig_design_fail(ctx, fn, rc) : CUSCI_OK;
}

/* scipy.signal.ss2tf for one input: num (q x n+1), den (1 x n+1); a
 * system without states gives num = D's column and den [1]. */
static cusci_status ss2tf_host(cusci_ctx *ctx, const char *fn, const cusci_array *A, const cusci_array *B, const cusci_array *C,
                               const cusci_array *D, int64_t input, mat *num, mat *den)
{
  num->v = den->v = NULL;
  if (!A && !B && !C)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "A, B and C are all NULL: the number of states is undefined");
  if (!B && !D)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "B and D are both NULL: the number of inputs is undefined");
  if (!C && !D)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "C and D are both NULL: the number of outputs is undefined");
  static const char *const names[] = {"A", "B", "C", "D"};
  const cusci_array *in[4] = {A, B, C, D};
  mat m[4] = {{0}};
  cusci_status st = CUSCI_OK;
  for (int i = 0; i < 4 && st == CUSCI_OK; i++)
    st = read_real(ctx, fn, names[i], in[i], 2, &m[i]);
  const int64_t sz[4] = {m[0].r * m[0].c, m[1].r * m[1].c, m[2].r * m[2].c, m[3].r * m[3].c};
  const int64_t n = sz[0] ? m[0].r : sz[1] ? m[1].r : sz[2] ? m[2].c : 0;
  const int64_t p = sz[1] ? m[1].c : sz[3] ? m[3].c : 0, q = sz[2] ? m[2].r : sz[3] ? m[3].r : 0;
  const int64_t want[4][2] = {{n, n}, {n, p}, {q, n}, {q, p}};
  for (int i = 0; i < 4 && st == CUSCI_OK; i++) {
    if (sz[i] == 0) {
      mat_free(&m[i]);
      st = mat_zeros(ctx, fn, want[i][0], want[i][1], &m[i]);
    } else if (m[i].r != want[i][0] || m[i].c != want[i][1]) {
      st = cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%s is %lld x %lld; with %lld states, %lld inputs and %lld outputs it must be %lld x %lld", names[i],
                          (long long)m[i].r, (long long)m[i].c, (long long)n, (long long)p, (long long)q, (long long)want[i][0],
                          (long long)want[i][1]);
    }
  }
  if (st == CUSCI_OK && (input < 0 || input >= p))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "input %lld: the system has %lld inputs", (long long)input, (long long)p);
  if (st == CUSCI_OK)
    st = mat_zeros(ctx, fn, 1, n + 1, den);
  if (st == CUSCI_OK)
    st = mat_zeros(ctx, fn, q, n + 1, num);
  double *work = st == CUSCI_OK ? malloc(sizeof *work * (size_t)(n * n + 1)) : NULL;
  if (st == CUSCI_OK && !work)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a %lld x %lld matrix", (long long)n, (long long)n);
  if (st == CUSCI_OK) {
    memcpy(work, m[0].v, sizeof *work * (size_t)(n * n));
    st = charpoly(ctx, fn, work, n, den->v);
  }
  for (int64_t k = 0; st == CUSCI_OK && k < q; k++) {
    /* poly(A - B[:, input] C[k]) + (D[k, input] - 1) den */
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++)
        work[i * n + j] = m[0].v[i * n + j] - m[1].v[i * p + input] * m[2].v[k * n + j];
    double *row = num->v + k * (n + 1);
    st = charpoly(ctx, fn, work, n, row);
    const double d = m[3].v[k * p + input];
    for (int64_t j = 0; j <= n && st == CUSCI_OK; j++)
      row[j] += (d - 1) * den->v[j];
  }
  free(work);
  for (int i = 0; i < 4; i++)
    mat_free(&m[i]);
  if (st != CUSCI_OK)
    mat_free(num), mat_free(den);
  return st;
}

cusci_status cusci_signal_ss2tf(cusci_ctx *ctx, const cusci_array *A, const cusci_array *B, const cusci_array *C, const cusci_array *D, int64_t input,
                                cusci_array **num, cusci_array **den)
{
  static const char fn[] = "cusci_signal_ss2tf";
  CUSCI_ENTRY(ctx, fn, num, den);
  mat mn, md;
  CUSCI_TRY(ss2tf_host(ctx, fn, A, B, C, D, input, &mn, &md));
  cusci_array *rn = NULL, *rd = NULL;
  cusci_status st = cusci__sig_upload_real(ctx, mn.v, 2, (const int64_t[]){mn.r, mn.c}, CUSCI_FLOAT64, &rn);
  if (st == CUSCI_OK)
    st = cusci__sig_upload_real(ctx, md.v, 1, &md.c, CUSCI_FLOAT64, &rd);
  mat_free(&mn), mat_free(&md);
  return cusci__sig_give_two(ctx, fn, st, rn, num, rd, den);
}

cusci_status cusci_signal_ss2zpk(cusci_ctx *ctx, const cusci_array *A, const cusci_array *B, const cusci_array *C, const cusci_array *D, int64_t input,
                                 cusci_array **z, cusci_array **p, double *k)
{
  static const char fn[] = "cusci_signal_ss2zpk";
  CUSCI_ENTRY(ctx, fn, z, p, k);
  mat mn, md;
  CUSCI_TRY(ss2tf_host(ctx, fn, A, B, C, D, input, &mn, &md));
  cusci_status st = CUSCI_OK;
  if (mn.r != 1)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "the system has %lld outputs; ss2zpk takes one", (long long)mn.r);
  zpk_h s = {0};
  if (st == CUSCI_OK)
    st = tf2zpk_host(ctx, fn, &mn, &md, &s);
  if (st == CUSCI_OK)
    st = give_roots(ctx, fn, &s, false, z, p, k);
  zpk_h_free(&s), mat_free(&mn), mat_free(&md);
  return st;
}
