/*
 * tests/signal-fft.c: cusci-signal's transforms on the host:
 *  - every case of tests/fixtures/signal/cases.txt (scipy.fft, every
 *    function, norm and DCT/DST type, odd shapes and axes), the result's
 *    dtype and shape exactly and its values within a few eps log2(n)
 *    (relative RMS); the helpers (fftfreq, rfftfreq, fftshift,
 *    ifftshift, next_fast_len, prev_fast_len) of helpers.txt and the
 *    tables;
 *  - properties that need no reference: ifft(fft(x)) = x, Parseval,
 *    linearity, the shift theorem, the Hermitian symmetry of a real
 *    input's transform, each inverse of the DCT/DST;
 *  - explicit plans (a workspace, a given out, the wrong layout) and the
 *    cache (hits, misses, the limits);
 *  - bad input: each its own status and message.
 */
#include <stdio.h>

#include "tests/signal-util.h"

static cusci_ctx *host;

/* "a,b,c" into v (at most 32), or 0 values for "-" (returns -1). */
static int parse_list(const char *s, int64_t *v)
{
  if (!strcmp(s, "-"))
    return -1;
  int n = 0;
  const char *p = s;
  while (*p && n < 32) {
    char *end;
    v[n++] = strtoll(p, &end, 10);
    p = *end == ',' ? end + 1 : end;
    if (end == p && *p)
      break;
  }
  return n;
}

static int64_t longest(const cusci_array *a)
{
  int64_t m = 1;
  for (int i = 0; i < cusci_array_ndim(a); i++)
    if (cusci_array_shape(a)[i] > m)
      m = cusci_array_shape(a)[i];
  return m;
}

/* tests/fixtures/signal/<name>, with a test that it opens. */
static FILE *manifest(const char *name)
{
  return tk_manifest("signal", name);
}

static void fixtures(void)
{
  FILE *f = manifest("cases.txt");
  if (!f)
    return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    char name[128], func[32], norm[16], sl[128], al[128];
    int type, axis;
    long long n;
    if (line[0] == '#' || sscanf(line, "%127s %31s %d %lld %d %15s %127s %127s", name, func, &type, &n, &axis, norm, sl, al) != 8)
      continue;
    int64_t s[32], a64[32];
    int ax[32];
    int ns = parse_list(sl, s), na = parse_list(al, a64);
    for (int i = 0; i < na; i++)
      ax[i] = (int)a64[i];
    int naxes = ns > 0 ? ns : na > 0 ? na : 0;
    char xn[160], yn[160];
    snprintf(xn, sizeof xn, "%s_x", name);
    snprintf(yn, sizeof yn, "%s_y", name);
    cusci_array *x = tk_fixture(host, "signal", xn, false), *y = tk_fixture(host, "signal", yn, false), *out = NULL;
    cusci_status st = x && y ? sig_call(host, func, type, n, axis, sig_norm_of(norm), naxes, ns > 0 ? s : NULL, na > 0 ? ax : NULL, x, &out)
                             : CUSCI_ERR_IO;
    bool shape = st == CUSCI_OK && cusci_array_ndim(out) == cusci_array_ndim(y) &&
                 !memcmp(cusci_array_shape(out), cusci_array_shape(y), sizeof(int64_t) * (size_t)cusci_array_ndim(y));
    bool dtype = st == CUSCI_OK && cusci_array_dtype(out) == cusci_array_dtype(y);
    double e = shape ? sig_rel_rms(host, out, host, y) : INFINITY, tol = y ? sig_tol(cusci_array_dtype(y), longest(x ? x : y)) : 0;
    ok(st == CUSCI_OK && shape && dtype && e <= tol, "%s: %s: %s%s, relative RMS error %.3g (tolerance %.3g)%s%s", name, func,
       st == CUSCI_OK ? (shape ? "" : "wrong shape ") : cusci_status_name(st), st == CUSCI_OK && !dtype ? "wrong dtype" : "", e, tol,
       st == CUSCI_OK ? "" : ": ", st == CUSCI_OK ? "" : cusci_ctx_last_error(host));
    cusci_array_release(x), cusci_array_release(y), cusci_array_release(out);
  }
  fclose(f);
}

static void helpers(void)
{
  FILE *f = manifest("helpers.txt");
  if (!f)
    return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    char name[128], func[32], a[128], b[64] = "";
    if (line[0] == '#' || sscanf(line, "%127s %31s %127s %63s", name, func, a, b) < 3)
      continue;
    char yn[160], xn[160];
    snprintf(yn, sizeof yn, "%s_y", name);
    snprintf(xn, sizeof xn, "%s_x", name);
    cusci_array *y = tk_fixture(host, "signal", yn, false), *x = NULL, *out = NULL;
    cusci_status st;
    if (!strcmp(func, "fftfreq") || !strcmp(func, "rfftfreq")) {
      int64_t n = strtoll(a, NULL, 10);
      double d = strtod(b, NULL);
      st = func[0] == 'f' ? cusci_fft_fftfreq(host, n, d, &out) : cusci_fft_rfftfreq(host, n, d, &out);
    } else {
      int64_t v[32];
      int axes[32], na = parse_list(a, v);
      for (int i = 0; i < na; i++)
        axes[i] = (int)v[i];
      x = tk_fixture(host, "signal", xn, false);
      st = !x ? CUSCI_ERR_IO
           : !strcmp(func, "fftshift") ? cusci_fft_fftshift(host, x, na > 0 ? na : 0, na > 0 ? axes : NULL, &out)
                                       : cusci_fft_ifftshift(host, x, na > 0 ? na : 0, na > 0 ? axes : NULL, &out);
    }
    ok(st == CUSCI_OK && y && tk_agree(host, out, host, y, TK_EXACT, name), "%s: %s %s %s: %s", name, func, a, b, cusci_status_name(st));
    cusci_array_release(x), cusci_array_release(y), cusci_array_release(out);
  }
  fclose(f);
  /* The fast lengths: rows (target, real, length). */
  for (int prev = 0; prev < 2; prev++) {
    cusci_array *t = tk_fixture(host, "signal", prev ? "prev_fast_len" : "next_fast_len", false);
    int bad = -1, rows = t ? (int)cusci_array_shape(t)[0] : 0;
    const int64_t *v = t ? cusci_array_data(t) : NULL;
    for (int i = 0; i < rows && bad < 0; i++) {
      int64_t got = -1;
      cusci_status st = prev ? cusci_fft_prev_fast_len(v[3 * i], v[3 * i + 1] != 0, &got) : cusci_fft_next_fast_len(v[3 * i], v[3 * i + 1] != 0, &got);
      if (st != CUSCI_OK || got != v[3 * i + 2])
        bad = i;
    }
    ok(t && bad < 0, "%s_fast_len: SciPy's %d rows%s", prev ? "prev" : "next", rows, bad < 0 ? "" : " (a row differs)");
    if (bad >= 0)
      diag("row %d: target %lld real %lld, SciPy %lld", bad, (long long)v[3 * bad], (long long)v[3 * bad + 1], (long long)v[3 * bad + 2]);
    cusci_array_release(t);
  }
  /* fhtoffset: rows (dln, mu, initial, bias, offset). */
  cusci_array *t = tk_fixture(host, "signal", "fhtoffset", false);
  int bad = -1, rows = t ? (int)cusci_array_shape(t)[0] : 0;
  const double *v = t ? cusci_array_data(t) : NULL;
  double worst = 0;
  for (int i = 0; i < rows; i++) {
    double got = NAN;
    cusci_status st = cusci_fft_fhtoffset(v[5 * i], v[5 * i + 1], v[5 * i + 2], v[5 * i + 3], &got);
    double e = fabs(got - v[5 * i + 4]);
    worst = e > worst ? e : worst;
    if (st != CUSCI_OK || !(e <= 1e-12 * (1 + fabs(v[5 * i + 4]))))
      bad = bad < 0 ? i : bad;
  }
  ok(t && rows > 0 && bad < 0, "fhtoffset: SciPy's %d rows, within %.3g", rows, worst);
  cusci_array_release(t);
  /* fht and ifht. */
  f = manifest("fht.txt");
  while (f && fgets(line, sizeof line, f)) {
    char name[128], func[16];
    double dln, mu, off, bias;
    if (line[0] == '#' || sscanf(line, "%127s %15s %lf %lf %lf %lf", name, func, &dln, &mu, &off, &bias) != 6)
      continue;
    char xn[160], yn[160];
    snprintf(xn, sizeof xn, "%s_x", name);
    snprintf(yn, sizeof yn, "%s_y", name);
    cusci_array *x = tk_fixture(host, "signal", xn, false), *y = tk_fixture(host, "signal", yn, false), *out = NULL;
    cusci_status st = !x || !y ? CUSCI_ERR_IO
                      : !strcmp(func, "fht") ? cusci_fft_fht(host, x, dln, mu, off, bias, &out)
                                             : cusci_fft_ifht(host, x, dln, mu, off, bias, &out);
    double e = st == CUSCI_OK ? sig_rel_rms(host, out, host, y) : INFINITY;
    ok(st == CUSCI_OK && e <= 1e-13, "%s: %s(dln %g, mu %g, offset %g, bias %g): relative RMS %.3g", name, func, dln, mu, off, bias, e);
    cusci_array_release(x), cusci_array_release(y), cusci_array_release(out);
  }
  if (f)
    fclose(f);
  int64_t len = 0;
  ok(cusci_fft_next_fast_len(-1, true, &len) == CUSCI_ERR_VALUE, "next_fast_len(-1): CUSCI_ERR_VALUE");
  ok(cusci_fft_next_fast_len(5, true, NULL) == CUSCI_ERR_NULL_POINTER, "next_fast_len with len NULL: CUSCI_ERR_NULL_POINTER");
}

/* A random array of the given shape and dtype on the host, values in
 * [-2, 2). */
static cusci_array *rnd(int ndim, const int64_t *shape, cusci_dtype dt, uint64_t seed)
{
  cusci_array *a = tk_random(host, ndim, shape, dt, -2, 2, &seed);
  if (!a) {
    printf("Bail out! no random array\n");
    exit(1);
  }
  return a;
}

static void properties(void)
{
  static const int64_t lens[] = { 1, 2, 7, 16, 97, 360, 1009, 4096, 65537 };
  static const cusci_dtype dts[2] = { CUSCI_COMPLEX64, CUSCI_COMPLEX128 };
  for (int d = 0; d < 2; d++)
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
      int64_t n = lens[i], sh[2] = { 3, n };
      cusci_array *x = rnd(2, sh, dts[d], 100 + i), *X = NULL, *y = NULL;
      cusci_status st = cusci_fft_fft(host, x, 0, -1, CUSCI_FFT_BACKWARD, &X);
      if (st == CUSCI_OK)
        st = cusci_fft_ifft(host, X, 0, -1, CUSCI_FFT_BACKWARD, &y);
      double e = st == CUSCI_OK ? sig_rel_rms(host, y, host, x) : INFINITY, tol = sig_tol(dts[d], n);
      ok(e <= tol, "ifft(fft(x)) = x, %s, n = %lld: %.3g", cusci_dtype_name(dts[d]), (long long)n, e);
      /* Parseval with norm ortho: the same energy. */
      cusci_array *o = NULL;
      st = cusci_fft_fft(host, x, 0, -1, CUSCI_FFT_ORTHO, &o);
      double complex *xv = sig_values(host, x), *ov = st == CUSCI_OK ? sig_values(host, o) : NULL;
      double ex = 0, eo = 0;
      for (int64_t k = 0; ov && k < 3 * n; k++)
        ex += creal(xv[k] * conj(xv[k])), eo += creal(ov[k] * conj(ov[k]));
      ok(ov && fabs(ex - eo) <= 4 * tol * ex, "Parseval (ortho), %s, n = %lld: %.17g against %.17g", cusci_dtype_name(dts[d]), (long long)n, eo, ex);
      /* The shift theorem: x rolled by 1 has the transform X_k e^{-2 pi i k / n}. */
      cusci_array *r = NULL, *R = NULL;
      int ax = 1;
      st = cusci_fft_ifftshift(host, x, 1, &ax, &r); /* a roll by -(n / 2) */
      if (st == CUSCI_OK)
        st = cusci_fft_fft(host, r, 0, -1, CUSCI_FFT_BACKWARD, &R);
      double complex *Xv = sig_values(host, X), *Rv = st == CUSCI_OK ? sig_values(host, R) : NULL;
      double num = 0, den = 0;
      for (int64_t b = 0; Rv && b < 3; b++)
        for (int64_t k = 0; k < n; k++) {
          /* The phase's index reduced exactly, so that w is accurate. */
          const int64_t j = (int64_t)((uint64_t)k * (uint64_t)(n / 2) % (uint64_t)n);
          double complex w = cexp(I * 6.283185307179586 * (double)j / (double)n);
          double complex dlt = Rv[b * n + k] - Xv[b * n + k] * w;
          num += creal(dlt * conj(dlt)), den += creal(Xv[b * n + k] * conj(Xv[b * n + k]));
        }
      ok(Rv && sqrt(num / (den > 0 ? den : 1)) <= 4 * tol, "shift theorem, %s, n = %lld: %.3g", cusci_dtype_name(dts[d]), (long long)n,
         sqrt(num / (den > 0 ? den : 1)));
      free(xv), free(ov), free(Xv), free(Rv);
      cusci_array_release(x), cusci_array_release(X), cusci_array_release(y), cusci_array_release(o), cusci_array_release(r),
        cusci_array_release(R);
    }
  /* Linearity, and a real input's Hermitian transform (rfft's half). */
  int64_t sh[1] = { 1000 };
  cusci_array *a = rnd(1, sh, CUSCI_FLOAT64, 7), *b = rnd(1, sh, CUSCI_FLOAT64, 8), *ab = NULL, *A = NULL, *B = NULL, *AB = NULL, *sum = NULL;
  cusci_add(host, a, b, &ab);
  cusci_fft_fft(host, a, 0, 0, CUSCI_FFT_BACKWARD, &A);
  cusci_fft_fft(host, b, 0, 0, CUSCI_FFT_BACKWARD, &B);
  cusci_fft_fft(host, ab, 0, 0, CUSCI_FFT_BACKWARD, &AB);
  cusci_add(host, A, B, &sum);
  ok(sum && sig_rel_rms(host, AB, host, sum) <= sig_tol(CUSCI_FLOAT64, 1000), "linearity: fft(a + b) = fft(a) + fft(b)");
  double complex *Av = A ? sig_values(host, A) : NULL;
  double herm = 0;
  for (int k = 1; Av && k < 1000; k++)
    herm = fmax(herm, cabs(Av[k] - conj(Av[1000 - k])));
  ok(Av && herm <= 1e-11 * cabs(Av[0]) + 1e-11, "a real input's transform is Hermitian: %.3g", herm);
  cusci_array *half = NULL;
  cusci_fft_rfft(host, a, 0, 0, CUSCI_FFT_BACKWARD, &half);
  double complex *Hv = half ? sig_values(host, half) : NULL;
  double hd = 0;
  for (int k = 0; Hv && Av && k <= 500; k++)
    hd = fmax(hd, cabs(Hv[k] - Av[k]));
  ok(Hv && hd <= 1e-11 * cabs(Av[0]) + 1e-11, "rfft is fft's first half: %.3g", hd);
  free(Av), free(Hv);
  cusci_array_release(a), cusci_array_release(b), cusci_array_release(ab), cusci_array_release(A), cusci_array_release(B),
    cusci_array_release(AB), cusci_array_release(sum), cusci_array_release(half);
  /* Each DCT/DST's inverse, every norm. */
  int64_t sh2[2] = { 4, 33 };
  cusci_array *x = rnd(2, sh2, CUSCI_FLOAT64, 9);
  for (int sine = 0; sine < 2; sine++)
    for (int t = 1; t <= 4; t++)
      for (int nm = 0; nm < 3; nm++) {
        cusci_array *y = NULL, *z = NULL;
        cusci_status st = sine ? cusci_fft_dst(host, x, t, 0, -1, (cusci_fft_norm)nm, &y) : cusci_fft_dct(host, x, t, 0, -1, (cusci_fft_norm)nm, &y);
        if (st == CUSCI_OK)
          st = sine ? cusci_fft_idst(host, y, t, 0, -1, (cusci_fft_norm)nm, &z) : cusci_fft_idct(host, y, t, 0, -1, (cusci_fft_norm)nm, &z);
        double e = st == CUSCI_OK ? sig_rel_rms(host, z, host, x) : INFINITY;
        ok(e <= sig_tol(CUSCI_FLOAT64, 264), "i%s(%s(x)) = x, type %d, norm %d: %.3g", sine ? "dst" : "dct", sine ? "dst" : "dct", t, nm, e);
        cusci_array_release(y), cusci_array_release(z);
      }
  cusci_array_release(x);
}

/* Strided and reversed views read in place: the same numbers as their
 * contiguous copies, every kind; an empty input padded is zeros. */
static void views(void)
{
  static const char *const funcs[] = { "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "dct", "dst" };
  int64_t sh[2] = { 5, 24 };
  for (size_t f = 0; f < sizeof funcs / sizeof *funcs; f++) {
    const bool real = !strcmp(funcs[f], "rfft") || !strcmp(funcs[f], "ihfft") || funcs[f][0] == 'd';
    uint64_t seed = 60 + f;
    cusci_array *v = tk_random_strided(host, 2, sh, real ? CUSCI_FLOAT64 : CUSCI_COMPLEX128, -2, 2, &seed), *c = NULL, *a = NULL, *b = NULL;
    cusci_array_copy(host, v, &c);
    cusci_status sa = sig_call(host, funcs[f], 2, 0, -1, CUSCI_FFT_ORTHO, 0, NULL, NULL, v, &a);
    cusci_status sb = sig_call(host, funcs[f], 2, 0, -1, CUSCI_FFT_ORTHO, 0, NULL, NULL, c, &b);
    ok(sa == CUSCI_OK && sb == CUSCI_OK && sig_rel_rms(host, a, host, b) == 0, "%s of a strided reversed view = of its copy: %s %s", funcs[f],
       cusci_status_name(sa), cusci_status_name(sb));
    cusci_array_release(v), cusci_array_release(c), cusci_array_release(a), cusci_array_release(b);
  }
  /* Complex input to the DCT/DST: the real and imaginary parts apart. */
  for (int sine = 0; sine < 2; sine++) {
    uint64_t seed = 90 + sine;
    cusci_array *z = tk_random_strided(host, 2, sh, CUSCI_COMPLEX64, -2, 2, &seed), *re = NULL, *im = NULL, *Z = NULL, *R = NULL, *M = NULL;
    cusci_real(host, z, &re);
    cusci_imag(host, z, &im);
    cusci_status sz = sine ? cusci_fft_dst(host, z, 3, 30, 0, CUSCI_FFT_ORTHO, &Z) : cusci_fft_dct(host, z, 3, 30, 0, CUSCI_FFT_ORTHO, &Z);
    if (sine)
      cusci_fft_dst(host, re, 3, 30, 0, CUSCI_FFT_ORTHO, &R), cusci_fft_dst(host, im, 3, 30, 0, CUSCI_FFT_ORTHO, &M);
    else
      cusci_fft_dct(host, re, 3, 30, 0, CUSCI_FFT_ORTHO, &R), cusci_fft_dct(host, im, 3, 30, 0, CUSCI_FFT_ORTHO, &M);
    double complex *zv = sz == CUSCI_OK ? sig_values(host, Z) : NULL, *rv = R ? sig_values(host, R) : NULL, *mv = M ? sig_values(host, M) : NULL;
    bool same = zv && rv && mv && cusci_array_dtype(Z) == CUSCI_COMPLEX64 && cusci_array_shape(Z)[0] == 30;
    for (int64_t i = 0; same && i < cusci_array_size(Z); i++)
      same = creal(zv[i]) == creal(rv[i]) && cimag(zv[i]) == creal(mv[i]);
    ok(same, "%s of a complex64 view (padded along axis 0) = of its real and imaginary parts: %s", sine ? "dst" : "dct", cusci_status_name(sz));
    free(zv), free(rv), free(mv);
    cusci_array_release(z), cusci_array_release(re), cusci_array_release(im), cusci_array_release(Z), cusci_array_release(R),
      cusci_array_release(M);
  }
  int64_t e[2] = { 3, 0 };
  cusci_array *x = NULL, *y = NULL;
  cusci_array_zeros(host, 2, e, CUSCI_COMPLEX64, &x);
  cusci_status st = cusci_fft_fft(host, x, 4, -1, CUSCI_FFT_BACKWARD, &y);
  double complex *yv = st == CUSCI_OK ? sig_values(host, y) : NULL;
  bool zeros = yv != NULL;
  for (int i = 0; yv && i < 12; i++)
    zeros &= yv[i] == 0;
  ok(st == CUSCI_OK && zeros && cusci_array_shape(y)[1] == 4, "fft of an empty axis with n = 4: zeros of shape (3, 4)");
  free(yv);
  cusci_array_release(x), cusci_array_release(y);
}

static void plans_and_cache(void)
{
  int64_t sh[2] = { 6, 40 }, sb[2] = { 6, 41 };
  cusci_array *x = rnd(2, sh, CUSCI_COMPLEX128, 11), *want = NULL, *got = NULL, *bad = rnd(2, sb, CUSCI_COMPLEX128, 12);
  int ax = 1;
  cusci_fft_fft(host, x, 0, 1, CUSCI_FFT_ORTHO, &want);
  cusci_fft_plan *p = NULL;
  int64_t n = 50;
  cusci_status st = cusci_fft_plan_create(host, CUSCI_FFT_KIND_FFT, 2, sh, NULL, CUSCI_COMPLEX128, 1, NULL, &ax, CUSCI_FFT_ORTHO, &p);
  ok(st == CUSCI_OK && p, "plan_create: %s", cusci_status_name(st));
  size_t ws = cusci_fft_plan_workspace_size(p);
  void *w = malloc(ws ? ws : 1);
  st = cusci_fft_plan_execute(host, p, x, w, ws, &got);
  ok(st == CUSCI_OK && sig_rel_rms(host, got, host, want) == 0, "plan_execute with a workspace = the plain call, bit for bit");
  cusci_array *again = got;
  st = cusci_fft_plan_execute(host, p, x, w, ws, &again);
  ok(st == CUSCI_OK && again == got, "plan_execute into a given out writes it in place");
  tk_status(host, cusci_fft_plan_execute(host, p, bad, w, ws, &again), CUSCI_ERR_SHAPE, "the plan's arrays", "plan_execute on another shape");
  cusci_fft_plan_destroy(p);
  p = NULL;
  st = cusci_fft_plan_create(host, CUSCI_FFT_KIND_FFT, 2, sh, NULL, CUSCI_COMPLEX128, 1, &n, &ax, CUSCI_FFT_ORTHO, &p);
  size_t ws2 = cusci_fft_plan_workspace_size(p);
  ok(st == CUSCI_OK && ws2 > 0, "a padding plan needs a workspace: %zu bytes", ws2);
  if (ws2 > 1) {
    cusci_array *o = NULL;
    tk_status(host, cusci_fft_plan_execute(host, p, x, w, 1, &o), CUSCI_ERR_BUFFER_TOO_SMALL, "the plan needs", "plan_execute with a small workspace");
  }
  cusci_fft_plan_destroy(p);
  cusci_fft_plan_destroy(NULL);
  free(w);
  /* The cache: a miss, then hits; the limits. */
  cusci_fft_cache_clear(host);
  cusci_fft_cache_info i0, i1, i2;
  cusci_fft_cache_get_info(host, &i0);
  for (int k = 0; k < 3; k++) {
    cusci_array *o = NULL;
    cusci_fft_fft(host, x, 37, 1, CUSCI_FFT_BACKWARD, &o);
    cusci_array_release(o);
  }
  cusci_fft_cache_get_info(host, &i1);
  ok(i1.misses == i0.misses + 1 && i1.hits == i0.hits + 2 && i1.plans >= 1, "the cache: one miss, then two hits (%llu, %llu)",
     (unsigned long long)(i1.misses - i0.misses), (unsigned long long)(i1.hits - i0.hits));
  cusci_fft_cache_set_limits(host, 4, SIZE_MAX);
  for (int k = 0; k < 10; k++) {
    cusci_array *o = NULL;
    cusci_fft_fft(host, x, 10 + k, 1, CUSCI_FFT_BACKWARD, &o);
    cusci_array_release(o);
  }
  cusci_fft_cache_get_info(host, &i2);
  ok(i2.plans == 4 && i2.max_plans == 4, "the cache holds at most its limit: %zu plans", i2.plans);
  cusci_fft_cache_set_limits(host, 0, SIZE_MAX);
  cusci_fft_cache_get_info(host, &i2);
  ok(i2.plans == 0, "a limit of 0 plans empties the cache");
  cusci_fft_cache_set_limits(host, 16, SIZE_MAX);
  cusci_array_release(x), cusci_array_release(want), cusci_array_release(got), cusci_array_release(bad);
}

static void errors(void)
{
  int64_t sh[2] = { 4, 8 }, s1[1] = { 5 }, e0[2] = { 4, 0 };
  cusci_array *x = rnd(2, sh, CUSCI_FLOAT64, 3), *c = rnd(2, sh, CUSCI_COMPLEX128, 4), *out = NULL, *empty = NULL;
  cusci_array_zeros(host, 2, e0, CUSCI_FLOAT64, &empty);
  tk_status(host, cusci_fft_fft(host, x, -3, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_VALUE, "invalid number of data points (-3)", "fft n < 0");
  tk_status(host, cusci_fft_fft(host, x, 0, 2, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_AXIS, "axis 2 is out of range", "fft axis 2 of a 2-d array");
  tk_status(host, cusci_fft_fft(host, x, 0, -3, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_AXIS, "out of range", "fft axis -3 of a 2-d array");
  tk_status(host, cusci_fft_dct(host, x, 5, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_VALUE, "types 1 to 4", "dct type 5");
  tk_status(host, cusci_fft_dst(host, x, 0, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_VALUE, "types 1 to 4", "dst type 0");
  tk_status(host, cusci_fft_fft(host, empty, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_VALUE, "invalid number of data points (0)",
            "fft of an empty axis");
  tk_status(host, cusci_fft_rfft(host, c, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_DTYPE, "takes real input", "rfft of complex input");
  tk_status(host, cusci_fft_fft(host, x, 0, -1, (cusci_fft_norm)7, &out), CUSCI_ERR_VALUE, "norm 7", "fft with norm 7");
  int dup[2] = { 1, -1 };
  tk_status(host, cusci_fft_fftn(host, x, 2, NULL, dup, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_AXIS, "given twice", "fftn with axis 1 twice");
  int64_t s0[1] = { 0 };
  tk_status(host, cusci_fft_fftn(host, x, 1, s0, NULL, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_VALUE, "invalid number of data points (0)",
            "fftn with s = (0,)");
  cusci_array *one = NULL;
  int64_t sh1[1] = { 1 };
  cusci_array_zeros(host, 1, sh1, CUSCI_COMPLEX128, &one);
  tk_status(host, cusci_fft_irfft(host, one, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_VALUE, "2 * (m - 1)", "irfft of one point, n None");
  tk_status(host, cusci_fft_dct(host, one, 1, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_VALUE, "DCT-I of 1 point", "dct type 1 of a complex point");
  cusci_array *r1 = NULL;
  cusci_array_zeros(host, 1, sh1, CUSCI_FLOAT64, &r1);
  tk_status(host, cusci_fft_dct(host, r1, 1, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_VALUE, "DCT-I of 1 point", "dct type 1 of one point");
  tk_status(host, cusci_fft_fft(NULL, x, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_NULL_POINTER, NULL, "fft with ctx NULL");
  tk_status(host, cusci_fft_fft(host, NULL, 0, -1, CUSCI_FFT_BACKWARD, &out), CUSCI_ERR_NULL_POINTER, "x is NULL", "fft with x NULL");
  tk_status(host, cusci_fft_fft(host, x, 0, -1, CUSCI_FFT_BACKWARD, NULL), CUSCI_ERR_NULL_POINTER, "out is NULL", "fft with out NULL");
  cusci_array *wrong = NULL;
  cusci_array_zeros(host, 2, sh, CUSCI_COMPLEX64, &wrong);
  tk_status(host, cusci_fft_fft(host, x, 0, -1, CUSCI_FFT_BACKWARD, &wrong), CUSCI_ERR_DTYPE, "expected complex128", "fft into an out of another dtype");
  ok(out == NULL, "no failing call wrote *out");
  cusci_fft_plan *p = NULL;
  tk_status(host, cusci_fft_plan_create(host, (cusci_fft_kind)9, 2, sh, NULL, CUSCI_FLOAT64, 0, NULL, NULL, CUSCI_FFT_BACKWARD, &p), CUSCI_ERR_VALUE,
            "kind 9", "plan_create of kind 9");
  tk_status(host, cusci_fft_plan_create(host, CUSCI_FFT_KIND_FFT, 2, sh, NULL, (cusci_dtype)99, 0, NULL, NULL, CUSCI_FFT_BACKWARD, &p),
            CUSCI_ERR_DTYPE, "outside cusci_dtype", "plan_create of dtype 99");
  tk_status(host, cusci_fft_fftfreq(host, 0, 1.0, &out), CUSCI_ERR_VALUE, "at least 1", "fftfreq(0)");
  tk_status(host, cusci_fft_fftfreq(host, 4, 0.0, &out), CUSCI_ERR_VALUE, "spacing", "fftfreq with d = 0");
  double offset;
  ok(cusci_fft_fhtoffset(0.0, 0.0, 0.0, 0.0, &offset) == CUSCI_ERR_VALUE, "fhtoffset with dln = 0: CUSCI_ERR_VALUE");
  tk_status(host, cusci_fft_fht(host, c, 0.1, 0.0, 0.0, 0.0, &out), CUSCI_ERR_DTYPE, "real input", "fht of complex input");
  tk_status(host, cusci_fft_ifht(host, x, 0.0, 0.0, 0.0, 0.0, &out), CUSCI_ERR_VALUE, "dln must be finite", "ifht with dln = 0");
  int big = 5;
  tk_status(host, cusci_fft_fftshift(host, x, 1, &big, &out), CUSCI_ERR_AXIS, "out of range", "fftshift on axis 5");
  (void)s1;
  cusci_array_release(x), cusci_array_release(c), cusci_array_release(empty), cusci_array_release(one), cusci_array_release(r1),
    cusci_array_release(wrong);
}

int main(void)
{
  host = tk_host_ctx();
  fixtures();
  helpers();
  properties();
  views();
  plans_and_cache();
  errors();
  cusci_ctx_destroy(host);
  return done_testing();
}
