/*
 * libcore/npy.c: the .npy format (NumPy's NEP 1), read and written.
 *
 * A file is the magic "\x93NUMPY", a version (1.0: 2-byte header length;
 * 2.0 and 3.0: 4-byte length, 3.0 with a UTF-8 header), a Python dict
 * literal {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces to a multiple of 64 bytes, then the raw data.
 * The reader trusts nothing: every length is checked against what the
 * buffer holds before anything is allocated.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcore/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "\x93NUMPY"
#define MAGIC_LEN 6

static bool host_little_endian(void)
{
  uint16_t x = 1;
  unsigned char c;
  memcpy(&c, &x, 1);
  return c == 1;
}

/* Find `'key':` in the header and return the text after the colon. */
static const char *find_key(const char *h, size_t len, const char *key)
{
  size_t kl = strlen(key);
  for (size_t i = 0; i + kl + 2 < len; i++) {
    char q = h[i];
    if ((q == '\'' || q == '"') && memcmp(h + i + 1, key, kl) == 0 && h[i + 1 + kl] == q) {
      size_t j = i + kl + 2;
      while (j < len && h[j] == ' ')
        j++;
      if (j < len && h[j] == ':') {
        j++;
        while (j < len && h[j] == ' ')
          j++;
        return h + j;
      }
    }
  }
  return NULL;
}

/* NumPy's descr string ("<f8", "|b1") as a dtype and a byte-swap flag. */
static cusci_status parse_descr(cusci_ctx *ctx, const char *fn, const char *p, const char *end, cusci_dtype *dt, bool *swap)
{
  if (p >= end || (*p != '\'' && *p != '"'))
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "descr is not a plain dtype string (structured arrays are not supported)");
  char q = *p++;
  char d[16];
  size_t n = 0;
  while (p < end && *p != q && n + 1 < sizeof d)
    d[n++] = *p++;
  d[n] = '\0';
  if (p >= end || *p != q)
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "descr string is not terminated");
  if (n < 3)
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "descr '%s' is not a dtype", d);
  char order = d[0], kind = d[1];
  char *e;
  long size = strtol(d + 2, &e, 10);
  if (*e != '\0' || (order != '<' && order != '>' && order != '|' && order != '='))
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "descr '%s' is not a dtype", d);
  static const struct { char kind; long size; cusci_dtype dt; } known[] = {
    {'b', 1, CUSCI_BOOL}, {'i', 1, CUSCI_INT8}, {'i', 2, CUSCI_INT16}, {'i', 4, CUSCI_INT32},
    {'i', 8, CUSCI_INT64}, {'u', 1, CUSCI_UINT8}, {'u', 2, CUSCI_UINT16}, {'u', 4, CUSCI_UINT32},
    {'u', 8, CUSCI_UINT64}, {'f', 2, CUSCI_FLOAT16}, {'f', 4, CUSCI_FLOAT32}, {'f', 8, CUSCI_FLOAT64},
    {'c', 8, CUSCI_COMPLEX64}, {'c', 16, CUSCI_COMPLEX128},
  };
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (known[i].kind == kind && known[i].size == size) {
      *dt = known[i].dt;
      bool little = host_little_endian();
      *swap = size > 1 && ((order == '<' && !little) || (order == '>' && little));
      return CUSCI_OK;
    }
  if (kind == 'O')
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "object arrays ('%s') are not supported", d);
  return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "dtype '%s' is not one of cusci's 14 dtypes", d);
}

static cusci_status parse_shape(cusci_ctx *ctx, const char *fn, const char *p, const char *end, int *ndim, int64_t *shape)
{
  if (p >= end || *p != '(')
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "shape is not a tuple");
  p++;
  int n = 0;
  for (;;) {
    while (p < end && (*p == ' ' || *p == ','))
      p++;
    if (p >= end)
      return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "shape tuple is not terminated");
    if (*p == ')')
      break;
    if (*p < '0' || *p > '9')
      return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "shape holds something other than non-negative integers");
    if (n == CUSCI_MAX_NDIM)
      return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "shape has more than %d dimensions", CUSCI_MAX_NDIM);
    int64_t v = 0;
    while (p < end && *p >= '0' && *p <= '9') {
      if (v > (INT64_MAX - 9) / 10)
        return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "shape extent overflows int64_t");
      v = v * 10 + (*p++ - '0');
    }
    while (p < end && *p == 'L')
      p++;
    shape[n++] = v;
  }
  *ndim = n;
  return CUSCI_OK;
}

static void byteswap(unsigned char *p, size_t n, size_t unit)
{
  for (size_t i = 0; i < n; i += unit)
    for (size_t a = 0, b = unit - 1; a < b; a++, b--) {
      unsigned char t = p[i + a];
      p[i + a] = p[i + b];
      p[i + b] = t;
    }
}

cusci_status cusci__npy_load_image(cusci_ctx *ctx, const char *fn, const unsigned char *buf, size_t len, cusci_array **out)
{
  if (len < MAGIC_LEN + 4 || memcmp(buf, MAGIC, MAGIC_LEN) != 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "not a .npy file (no \\x93NUMPY magic)");
  int major = buf[6];
  size_t hlen, hstart;
  if (major == 1) {
    hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (len < 12)
      return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "file ends inside the header length");
    hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
    hstart = 12;
  } else {
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "unknown .npy format version %d.%d", major, buf[7]);
  }
  if (hlen > len - hstart)
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "header says %zu bytes, the file has %zu after it", hlen, len - hstart);
  const char *h = (const char *)buf + hstart, *hend = h + hlen;

  const char *pd = find_key(h, hlen, "descr"), *pf = find_key(h, hlen, "fortran_order"),
             *ps = find_key(h, hlen, "shape");
  if (!pd || !pf || !ps)
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "header lacks descr, fortran_order or shape");
  cusci_dtype dt = CUSCI_BOOL;
  bool swap = false;
  CUSCI_TRY(parse_descr(ctx, fn, pd, hend, &dt, &swap));
  bool fortran;
  if (hend - pf >= 4 && memcmp(pf, "True", 4) == 0)
    fortran = true;
  else if (hend - pf >= 5 && memcmp(pf, "False", 5) == 0)
    fortran = false;
  else
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "fortran_order is neither True nor False");
  int ndim = 0;
  int64_t shape[CUSCI_MAX_NDIM];
  CUSCI_TRY(parse_shape(ctx, fn, ps, hend, &ndim, shape));

  /* The data must be in the buffer before anything is allocated. */
  size_t itemsize = cusci__itemsize[dt];
  size_t avail = len - hstart - hlen;
  uint64_t cap = avail / itemsize, size = 1;
  bool zero = false;
  for (int i = 0; i < ndim; i++)
    zero = zero || shape[i] == 0;
  for (int i = 0; i < ndim && !zero; i++) {
    if ((uint64_t)shape[i] > cap / size)
      return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "header promises more data than the %zu bytes that follow it", avail);
    size *= (uint64_t)shape[i];
  }
  if (zero)
    size = 0;
  if (size > cap) /* a 0-d array still needs its one element */
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "header promises more data than the %zu bytes that follow it", avail);
  size_t nbytes = (size_t)size * itemsize;
  const unsigned char *data = buf + hstart + hlen;

  unsigned char *copy = NULL;
  if (swap && nbytes) {
    copy = malloc(nbytes);
    if (!copy)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory to swap %zu bytes", nbytes);
    memcpy(copy, data, nbytes);
    byteswap(copy, nbytes, cusci_dtype_kind(dt) == 'c' ? itemsize / 2 : itemsize);
    data = copy;
  }
  /* Fortran order is C order of the reversed shape, transposed back. */
  int64_t stored[CUSCI_MAX_NDIM];
  for (int i = 0; i < ndim; i++)
    stored[i] = fortran ? shape[ndim - 1 - i] : shape[i];
  cusci_array *a = NULL;
  cusci_status st = cusci_array_from_host(ctx, data, ndim, stored, dt, &a);
  free(copy);
  if (st != CUSCI_OK)
    return st;
  if (fortran && ndim > 1) {
    cusci_array *t = NULL;
    st = cusci_array_transpose(ctx, a, NULL, &t);
    cusci_array_release(a);
    if (st != CUSCI_OK)
      return st;
    a = t;
  }
  *out = a;
  return CUSCI_OK;
}

cusci_status cusci_npy_load_buffer(cusci_ctx *ctx, const void *buf, size_t len, cusci_array **out)
{
  CUSCI_ENTRY(ctx, __func__, buf, out);
  return cusci__npy_load_image(ctx, __func__, buf, len, out);
}

cusci_status cusci_npy_load(cusci_ctx *ctx, const char *path, cusci_array **out)
{
  CUSCI_ENTRY(ctx, __func__, path, out);
  unsigned char *buf;
  size_t len;
  CUSCI_TRY(cusci__read_file(ctx, __func__, path, &buf, &len));
  cusci_status st = cusci__npy_load_image(ctx, __func__, buf, len, out);
  free(buf);
  return st;
}

/*
 * The .npy image of `a` in one malloc'ed buffer: header then data in C
 * order. Version 1.0 (2-byte header length); the header is padded so that
 * the data starts on a 64-byte boundary, as NumPy writes it.
 */
cusci_status cusci__npy_image(cusci_ctx *ctx, const char *fn, const cusci_array *a, unsigned char **out, size_t *len)
{
  static const char *const descr[CUSCI_N_DTYPES] = {"|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4",
                                                    "<u8", "<f2", "<f4", "<f8", "<c8", "<c16"};
  char d[8];
  snprintf(d, sizeof d, "%s", descr[a->dtype]);
  if (!host_little_endian() && d[0] == '<')
    d[0] = '>';
  char header[2048];
  int n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (", d);
  for (int i = 0; i < a->ndim; i++)
    n += snprintf(header + n, sizeof header - (size_t)n, "%lld,%s", (long long)a->shape[i],
                  i + 1 < a->ndim ? " " : "");
  if (a->ndim > 1)
    n--; /* NumPy writes (3, 4), with the trailing comma only for one axis */
  n += snprintf(header + n, sizeof header - (size_t)n, "), }");
  size_t total = MAGIC_LEN + 2 + 2 + (size_t)n + 1;
  size_t pad = (64 - total % 64) % 64;
  memset(header + n, ' ', pad);
  n += (int)pad;
  header[n++] = '\n';

  size_t nbytes = cusci_array_nbytes(a), hlen = 10 + (size_t)n;
  unsigned char *buf = malloc(hlen + nbytes);
  if (!buf)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %zu bytes", hlen + nbytes);
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(n & 0xff), (unsigned char)(n >> 8)};
  memcpy(buf, pre, sizeof pre);
  memcpy(buf + 10, header, (size_t)n);
  cusci_status st = cusci_array_to_host(ctx, a, buf + hlen, nbytes);
  if (st != CUSCI_OK) {
    free(buf);
    return st;
  }
  *out = buf;
  *len = hlen + nbytes;
  return CUSCI_OK;
}

cusci_status cusci__write_file(cusci_ctx *ctx, const char *fn, const char *path, const void *buf, size_t len)
{
  FILE *f = fopen(path, "wb");
  if (!f)
    return cusci_ctx_fail(ctx, CUSCI_ERR_IO, fn, "cannot create %s: %s", path, strerror(errno));
  bool good = fwrite(buf, 1, len, f) == len;
  int err = errno;
  good = (fclose(f) == 0) && good;
  if (!good)
    return cusci_ctx_fail(ctx, CUSCI_ERR_IO, fn, "cannot write %s: %s", path, strerror(err));
  return CUSCI_OK;
}

cusci_status cusci__read_file(cusci_ctx *ctx, const char *fn, const char *path, unsigned char **out, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return cusci_ctx_fail(ctx, CUSCI_ERR_IO, fn, "cannot open %s: %s", path, strerror(errno));
  unsigned char *buf = NULL;
  size_t n = 0, cap = 0;
  cusci_status st = CUSCI_OK;
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 1 << 16;
      unsigned char *nb = realloc(buf, ncap);
      if (!nb) {
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory to read %s", path);
        break;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f))
        st = cusci_ctx_fail(ctx, CUSCI_ERR_IO, fn, "cannot read %s: %s", path, strerror(errno));
      break;
    }
  }
  fclose(f);
  if (st != CUSCI_OK) {
    free(buf);
    return st;
  }
  *out = buf;
  *len = n;
  return CUSCI_OK;
}

cusci_status cusci_npy_save(cusci_ctx *ctx, const char *path, const cusci_array *a)
{
  CUSCI_TRY(cusci_check_array(ctx, __func__, "a", a));
  if (!path)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "path is NULL");
  unsigned char *buf;
  size_t len;
  CUSCI_TRY(cusci__npy_image(ctx, __func__, a, &buf, &len));
  cusci_status st = cusci__write_file(ctx, __func__, path, buf, len);
  free(buf);
  return st;
}
