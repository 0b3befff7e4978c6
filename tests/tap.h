/*
 * tests/tap.h: a small TAP producer for cusci's tests.
 *
 *   plan(n) or no plan and done_testing() at the end;
 *   ok(cond, fmt, ...), is_int(got, want, name), is_double(got, want, tol, name),
 *   skip(n, why), skip_all(why), diag(fmt, ...).
 * Failures report the file and line. exit_status() is 0 when all passed.
 */
#ifndef CUSCI_TESTS_TAP_H
#define CUSCI_TESTS_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_run_, tap_failed_, tap_planned_;

static inline void tap_vresult_(int pass, const char *file, int line, const char *fmt, va_list ap)
{
  tap_run_++;
  if (!pass)
    tap_failed_++;
  printf("%sok %d - ", pass ? "" : "not ", tap_run_);
  vprintf(fmt, ap);
  printf("\n");
  if (!pass)
    printf("#   Failed test at %s line %d.\n", file, line);
  fflush(stdout);
}

static inline int tap_ok_(int pass, const char *file, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  tap_vresult_(pass, file, line, fmt, ap);
  va_end(ap);
  return pass;
}

static inline int tap_is_int_(long long got, long long want, const char *file, int line, const char *name)
{
  int pass = got == want;
  tap_ok_(pass, file, line, "%s", name);
  if (!pass)
    printf("#          got: %lld\n#     expected: %lld\n", got, want);
  return pass;
}

static inline int tap_is_double_(double got, double want, double tol, const char *file, int line, const char *name)
{
  int pass = (isnan(got) && isnan(want)) || got == want || fabs(got - want) <= tol;
  tap_ok_(pass, file, line, "%s", name);
  if (!pass)
    printf("#          got: %.17g\n#     expected: %.17g (tolerance %g)\n", got, want, tol);
  return pass;
}

static inline void plan(int n)
{
  tap_planned_ = n;
  printf("1..%d\n", n);
}

static inline void diag(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  printf("# ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

static inline void skip(int n, const char *why)
{
  for (int i = 0; i < n; i++)
    printf("ok %d # SKIP %s\n", ++tap_run_, why);
}

/* The whole program is skipped: print the empty plan and exit. */
static inline void skip_all(const char *why)
{
  printf("1..0 # SKIP %s\n", why);
  exit(0);
}

static inline int done_testing(void)
{
  if (!tap_planned_)
    printf("1..%d\n", tap_run_);
  else if (tap_planned_ != tap_run_)
    printf("# planned %d tests but ran %d\n", tap_planned_, tap_run_);
  return tap_failed_ || (tap_planned_ && tap_planned_ != tap_run_) ? 1 : 0;
}

#define ok(cond, ...) tap_ok_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, name) tap_is_int_((long long)(got), (long long)(want), __FILE__, __LINE__, name)
#define is_double(got, want, tol, name) tap_is_double_((got), (want), (tol), __FILE__, __LINE__, name)

#endif
