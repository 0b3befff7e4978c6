/*
 * libsignal/windows.c: scipy.signal.get_window (the window named by a
 * string, its parameters after commas) and FIR design by windowed sincs
 * (firwin, kaiser_beta, kaiser_atten, kaiserord). The numerics are
 * reference/signal/design.c's.
 */
#include "libsignal/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include <cusci/signal.h>

#include "reference/signal/design.h"

enum { MAXPAR = 64 };

/* SciPy's names and aliases, with the parameters each takes. */
static const struct win_name {
  const char *name;
  cusci__sig_window_kind kind;
  int minpar, maxpar;
} win_names[] = {
  {"barthann", CUSCI__WIN_BARTHANN, 0, 0},
  {"brthan", CUSCI__WIN_BARTHANN, 0, 0},
  {"bth", CUSCI__WIN_BARTHANN, 0, 0},
  {"bartlett", CUSCI__WIN_BARTLETT, 0, 0},
  {"bart", CUSCI__WIN_BARTLETT, 0, 0},
  {"brt", CUSCI__WIN_BARTLETT, 0, 0},
  {"blackman", CUSCI__WIN_BLACKMAN, 0, 0},
  {"black", CUSCI__WIN_BLACKMAN, 0, 0},
  {"blk", CUSCI__WIN_BLACKMAN, 0, 0},
  {"blackmanharris", CUSCI__WIN_BLACKMANHARRIS, 0, 0},
  {"blackharr", CUSCI__WIN_BLACKMANHARRIS, 0, 0},
  {"bkh", CUSCI__WIN_BLACKMANHARRIS, 0, 0},
  {"bohman", CUSCI__WIN_BOHMAN, 0, 0},
  {"bman", CUSCI__WIN_BOHMAN, 0, 0},
  {"bmn", CUSCI__WIN_BOHMAN, 0, 0},
  {"boxcar", CUSCI__WIN_BOXCAR, 0, 0},
  {"box", CUSCI__WIN_BOXCAR, 0, 0},
  {"ones", CUSCI__WIN_BOXCAR, 0, 0},
  {"rect", CUSCI__WIN_BOXCAR, 0, 0},
  {"rectangular", CUSCI__WIN_BOXCAR, 0, 0},
  {"chebwin", CUSCI__WIN_CHEBWIN, 1, 1},
  {"cheb", CUSCI__WIN_CHEBWIN, 1, 1},
  {"cosine", CUSCI__WIN_COSINE, 0, 0},
  {"halfcosine", CUSCI__WIN_COSINE, 0, 0},
  {"dpss", CUSCI__WIN_DPSS, 1, 1},
  {"exponential", CUSCI__WIN_EXPONENTIAL, 0, 2},
  {"poisson", CUSCI__WIN_EXPONENTIAL, 0, 2},
  {"flattop", CUSCI__WIN_FLATTOP, 0, 0},
  {"flat", CUSCI__WIN_FLATTOP, 0, 0},
  {"flt", CUSCI__WIN_FLATTOP, 0, 0},
  {"gaussian", CUSCI__WIN_GAUSSIAN, 1, 1},
  {"gauss", CUSCI__WIN_GAUSSIAN, 1, 1},
  {"gss", CUSCI__WIN_GAUSSIAN, 1, 1},
  {"general cosine", CUSCI__WIN_GENERAL_COSINE, 1, MAXPAR},
  {"general_cosine", CUSCI__WIN_GENERAL_COSINE, 1, MAXPAR},
  {"general gaussian", CUSCI__WIN_GENERAL_GAUSSIAN, 2, 2},
  {"general_gaussian", CUSCI__WIN_GENERAL_GAUSSIAN, 2, 2},
  {"general gauss", CUSCI__WIN_GENERAL_GAUSSIAN, 2, 2},
  {"general_gauss", CUSCI__WIN_GENERAL_GAUSSIAN, 2, 2},
  {"ggs", CUSCI__WIN_GENERAL_GAUSSIAN, 2, 2},
  {"general hamming", CUSCI__WIN_GENERAL_HAMMING, 1, 1},
  {"general_hamming", CUSCI__WIN_GENERAL_HAMMING, 1, 1},
  {"hamming", CUSCI__WIN_HAMMING, 0, 0},
  {"hamm", CUSCI__WIN_HAMMING, 0, 0},
  {"ham", CUSCI__WIN_HAMMING, 0, 0},
  {"hann", CUSCI__WIN_HANN, 0, 0},
  {"han", CUSCI__WIN_HANN, 0, 0},
  {"kaiser", CUSCI__WIN_KAISER, 1, 1},
  {"ksr", CUSCI__WIN_KAISER, 1, 1},
  {"kaiser bessel derived", CUSCI__WIN_KBD, 1, 1},
  {"kaiser_bessel_derived", CUSCI__WIN_KBD, 1, 1},
  {"kbd", CUSCI__WIN_KBD, 1, 1},
  {"lanczos", CUSCI__WIN_LANCZOS, 0, 0},
  {"sinc", CUSCI__WIN_LANCZOS, 0, 0},
  {"nuttall", CUSCI__WIN_NUTTALL, 0, 0},
  {"nutl", CUSCI__WIN_NUTTALL, 0, 0},
  {"nut", CUSCI__WIN_NUTTALL, 0, 0},
  {"parzen", CUSCI__WIN_PARZEN, 0, 0},
  {"parz", CUSCI__WIN_PARZEN, 0, 0},
  {"par", CUSCI__WIN_PARZEN, 0, 0},
  {"taylor", CUSCI__WIN_TAYLOR, 0, 3},
  {"taylorwin", CUSCI__WIN_TAYLOR, 0, 3},
  {"triangle", CUSCI__WIN_TRIANG, 0, 0},
  {"triang", CUSCI__WIN_TRIANG, 0, 0},
  {"tri", CUSCI__WIN_TRIANG, 0, 0},
  {"tukey", CUSCI__WIN_TUKEY, 0, 1},
  {"tuk", CUSCI__WIN_TUKEY, 0, 1},
};

/* A parsed window: its kind, parameters (NaN where a field is empty) and
 * symmetry. */
typedef struct win_spec {
  cusci__sig_window_kind kind;
  const char *name;
  double par[MAXPAR];
  int npar;
  bool sym;
} win_spec;

static bool parse_number(const char *s, size_t n, double *v)
{
  char buf[64];
  while (n && isspace((unsigned char)*s))
    s++, n--;
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  if (n == 0) {
    *v = NAN;
    return true;
  }
  if (n >= sizeof buf)
    return false;
  memcpy(buf, s, n);
  buf[n] = 0;
  if (!strcmp(buf, "True") || !strcmp(buf, "true")) {
    *v = 1;
    return true;
  }
  if (!strcmp(buf, "False") || !strcmp(buf, "false")) {
    *v = 0;
    return true;
  }
  char *end;
  errno = 0;
  *v = strtod(buf, &end);
  return *end == 0 && errno == 0 && isfinite(*v);
}

/* Parse "name[,p1[,p2...]]" (or a number alone: a Kaiser beta) into w,
 * the window's parameters defaulted as SciPy's. */
static cusci_status parse_window(cusci_ctx *ctx, const char *fn, const char *window, int64_t nx, bool fftbins, win_spec *w)
{
  memset(w, 0, sizeof *w);
  w->sym = !fftbins;
  double beta;
  if (parse_number(window, strlen(window), &beta) && !isnan(beta)) {
    w->kind = CUSCI__WIN_KAISER, w->name = "kaiser", w->par[0] = beta, w->npar = 1;
    return CUSCI_OK;
  }
  const char *comma = strchr(window, ',');
  size_t nl = comma ? (size_t)(comma - window) : strlen(window);
  static const char per[] = "_periodic", sym[] = "_symmetric";
  if (nl > sizeof sym - 1 && !strncmp(window + nl - (sizeof sym - 1), sym, sizeof sym - 1))
    w->sym = true, nl -= sizeof sym - 1;
  else if (nl > sizeof per - 1 && !strncmp(window + nl - (sizeof per - 1), per, sizeof per - 1))
    w->sym = false, nl -= sizeof per - 1;
  const struct win_name *e = NULL;
  for (size_t i = 0; i < sizeof win_names / sizeof *win_names && !e; i++)
    if (strlen(win_names[i].name) == nl && !strncmp(win_names[i].name, window, nl))
      e = &win_names[i];
  if (!e)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "unknown window \"%.*s\" in \"%s\"", (int)nl, window, window);
  w->kind = e->kind, w->name = e->name;
  for (const char *s = comma; s; s = strchr(s + 1, ',')) {
    if (w->npar == e->maxpar)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": %s takes at most %d parameter%s", window, e->name, e->maxpar,
                            e->maxpar == 1 ? "" : "s");
    const char *next = strchr(s + 1, ',');
    const size_t len = next ? (size_t)(next - s - 1) : strlen(s + 1);
    if (!parse_number(s + 1, len, &w->par[w->npar]))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": parameter %d (\"%.*s\") is not a finite number", window, w->npar + 1, (int)len,
                            s + 1);
    w->npar++;
  }
  if (w->npar < e->minpar)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": %s needs %d parameter%s", window, e->name, e->minpar, e->minpar == 1 ? "" : "s");
  /* Only the exponential window's center may be None (an empty field). */
  for (int i = 0; i < w->npar; i++)
    if (isnan(w->par[i]) && !(w->kind == CUSCI__WIN_EXPONENTIAL && i == 0))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": parameter %d is empty", window, i + 1);
  const int given = w->npar;
  switch (w->kind) {
  case CUSCI__WIN_EXPONENTIAL:
    if (given < 1)
      w->par[0] = NAN;
    if (given < 2)
      w->par[1] = 1.0;
    if (w->sym && !isnan(w->par[0]))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": a symmetric exponential window takes no center (it is the middle)", window);
    if (!(w->par[1] > 0))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": tau %g must be positive", window, w->par[1]);
    break;
  case CUSCI__WIN_TAYLOR:
    if (given < 1)
      w->par[0] = 4;
    if (given < 2)
      w->par[1] = 30;
    if (given < 3)
      w->par[2] = 1;
    if (w->par[0] != floor(w->par[0]) || w->par[0] < 1 || w->par[0] > 1000)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": nbar %g must be a whole number from 1 to 1000", window, w->par[0]);
    break;
  case CUSCI__WIN_TUKEY:
    if (given < 1)
      w->par[0] = 0.5;
    break;
  case CUSCI__WIN_GAUSSIAN:
    if (w->par[0] == 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": std must not be 0", window);
    break;
  case CUSCI__WIN_GENERAL_GAUSSIAN:
    if (w->par[1] == 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\": sig must not be 0", window);
    break;
  case CUSCI__WIN_KBD:
    if (!w->sym)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn,
                            "window \"%s\": Kaiser-Bessel derived windows are only defined for symmetric shapes (fftbins false or \"_symmetric\")",
                            window);
    if (nx % 2)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\", nx %lld: Kaiser-Bessel derived windows are only defined for even lengths", window,
                            (long long)nx);
    break;
  case CUSCI__WIN_DPSS:
    if (nx > 1 && (!(w->par[0] > 0) || !(w->par[0] < (double)nx / 2)))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window \"%s\", nx %lld: NW %g must be positive and less than nx/2", window, (long long)nx,
                            w->par[0]);
    break;
  default: break;
  }
  return CUSCI_OK;
}

/* The nx values of the parsed window w into a new host array *v. */
static cusci_status spec_values(cusci_ctx *ctx, const char *fn, const win_spec *w, int64_t nx, double **v)
{
  *v = NULL;
  double *h = malloc(sizeof *h * (size_t)nx);
  if (!h)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a window of %lld samples", (long long)nx);
  const int rc = cusci__sig_window(w->kind, w->par, w->npar, nx, w->sym, h);
  if (rc != 0) {
    free(h);
    return rc == CUSCI__SIG_DESIGN_MEMORY ? cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the %s window", w->name)
                                          : cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "the %s window failed (code %d)", w->name, rc);
  }
  for (int64_t i = 0; i < nx; i++)
    if (!isfinite(h[i])) {
      free(h);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the %s window of %lld samples is not finite at %lld (its parameters overflow)", w->name,
                            (long long)nx, (long long)i);
    }
  *v = h;
  return CUSCI_OK;
}

/* The window named by `window`: its nx values into a new host array *v. */
cusci_status cusci__sig_window_host(cusci_ctx *ctx, const char *fn, const char *window, int64_t nx, bool fftbins, double **v)
{
  *v = NULL;
  if (nx < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nx %lld: a window has at least one sample", (long long)nx);
  win_spec w;
  CUSCI_TRY(parse_window(ctx, fn, window, nx, fftbins, &w));
  return spec_values(ctx, fn, &w, nx, v);
}

cusci_status cusci_signal_get_window(cusci_ctx *ctx, const char *window, int64_t nx, bool fftbins, cusci_array **w)
{
  static const char fn[] = "cusci_signal_get_window";
  CUSCI_ENTRY(ctx, fn, window, w);
  double *h;
  CUSCI_TRY(cusci__sig_window_host(ctx, fn, window, nx, fftbins, &h));
  const cusci_status st = cusci__sig_give_real(ctx, fn, CUSCI_OK, h, nx, w);
  free(h);
  return st;
}

double cusci_signal_kaiser_beta(double a)
{
  if (a > 50)
    return 0.1102 * (a - 8.7);
  if (a > 21)
    return 0.5842 * pow(a - 21, 0.4) + 0.07886 * (a - 21);
  return 0.0;
}

double cusci_signal_kaiser_atten(int64_t numtaps, double width)
{
  return 2.285 * (double)(numtaps - 1) * M_PI * width + 7.95;
}

cusci_status cusci_signal_kaiserord(cusci_ctx *ctx, double ripple, double width, int64_t *numtaps, double *beta)
{
  static const char fn[] = "cusci_signal_kaiserord";
  CUSCI_ENTRY(ctx, fn, numtaps, beta);
  const double A = fabs(ripple);
  if (!(A >= 8) || isinf(A))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ripple %g: the attenuation must be at least 8 dB (and finite) for the Kaiser formula", ripple);
  if (!(width > 0) || isinf(width))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "width %g must be positive and finite", width);
  const double n = ceil((A - 7.95) / 2.285 / (M_PI * width) + 1);
  if (!(n < 1e15))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "width %g: the filter would have %g taps", width, n);
  *numtaps = (int64_t)n;
  *beta = cusci_signal_kaiser_beta(A);
  return CUSCI_OK;
}

cusci_status cusci_signal_firwin(cusci_ctx *ctx, int64_t numtaps, int ncutoff, const double *cutoff, const cusci_signal_firwin_opts *opts,
                                 cusci_array **h)
{
  static const char fn[] = "cusci_signal_firwin";
  CUSCI_ENTRY(ctx, fn, cutoff, h);
  const cusci_signal_firwin_opts o = opts ? *opts : (cusci_signal_firwin_opts){0};
  if (numtaps < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld: a filter has at least one tap", (long long)numtaps);
  if (ncutoff < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ncutoff %d: at least one cutoff frequency must be given", ncutoff);
  CUSCI_TRY(cusci__sig_check_fs(ctx, fn, o.fs, false));
  const double nyq = o.fs > 0 ? o.fs / 2 : 1;
  double *edges = malloc(sizeof *edges * (size_t)(ncutoff + 2));
  if (!edges)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_status st = CUSCI_OK;
  for (int i = 0; i < ncutoff && st == CUSCI_OK; i++) {
    const double c = cutoff[i] / nyq;
    if (!(c > 0 && c < 1))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "cutoff[%d] %g: cutoff frequencies must be greater than 0 and less than fs/2 (%g)", i, cutoff[i], nyq);
    else if (i && !(c > edges[i]))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "cutoff[%d] %g: the cutoff frequencies must be strictly increasing", i, cutoff[i]);
    edges[i + 1] = c;
  }
  bool pass_zero = true;
  if (st == CUSCI_OK) {
    switch (o.pass_zero) {
    case CUSCI_SIGNAL_PASS_ZERO_DEFAULT: pass_zero = true; break;
    case CUSCI_SIGNAL_PASS_ZERO_FALSE: pass_zero = false; break;
    case CUSCI_SIGNAL_PASS_ZERO_LOWPASS:
    case CUSCI_SIGNAL_PASS_ZERO_HIGHPASS:
      pass_zero = o.pass_zero == CUSCI_SIGNAL_PASS_ZERO_LOWPASS;
      if (ncutoff != 1)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ncutoff %d: a %s filter has one cutoff", ncutoff, pass_zero ? "lowpass" : "highpass");
      break;
    case CUSCI_SIGNAL_PASS_ZERO_BANDPASS:
    case CUSCI_SIGNAL_PASS_ZERO_BANDSTOP:
      pass_zero = o.pass_zero == CUSCI_SIGNAL_PASS_ZERO_BANDSTOP;
      if (ncutoff < 2)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ncutoff %d: a %s filter has at least two cutoffs", ncutoff, pass_zero ? "bandstop" : "bandpass");
      break;
    default: st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "pass_zero %d is not a cusci_signal_pass_zero", (int)o.pass_zero); break;
    }
  }
  const bool pass_nyquist = (ncutoff % 2 == 0) == pass_zero;
  if (st == CUSCI_OK && pass_nyquist && numtaps % 2 == 0)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn,
                        "numtaps %lld: a filter with an even number of coefficients must have zero response at the Nyquist frequency", (long long)numtaps);
  if (st == CUSCI_OK && (!(o.width >= 0) || isinf(o.width)))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "width %g must be positive and finite (0: none)", o.width);
  double *win = NULL, *taps = NULL;
  if (st == CUSCI_OK) {
    if (o.width > 0) {
      /* A Kaiser window for the transition width, as SciPy's. */
      const win_spec k = {
        .kind = CUSCI__WIN_KAISER, .name = "kaiser", .par = {cusci_signal_kaiser_beta(cusci_signal_kaiser_atten(numtaps, o.width / nyq))}, .npar = 1,
        .sym = true};
      st = spec_values(ctx, fn, &k, numtaps, &win);
    } else {
      st = cusci__sig_window_host(ctx, fn, o.window ? o.window : "hamming", numtaps, false, &win);
    }
  }
  if (st == CUSCI_OK) {
    /* The band edges: 0 first when DC passes, 1 last when Nyquist does. */
    const double *first = edges + (pass_zero ? 0 : 1);
    edges[0] = 0;
    edges[ncutoff + 1] = 1;
    const int64_t nedge = ncutoff + pass_zero + pass_nyquist;
    taps = malloc(sizeof *taps * (size_t)numtaps);
    if (!taps)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld taps", (long long)numtaps);
    else
      cusci__sig_firwin_bands(numtaps, first, nedge / 2, win, !o.noscale, taps);
  }
  st = cusci__sig_give_real(ctx, fn, st, taps, numtaps, h);
  free(edges), free(win), free(taps);
  return st;
}
