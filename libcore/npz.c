/*
 * libcore/npz.c: the .npz format: a zip archive of .npy entries, as
 * numpy.savez (stored) and numpy.savez_compressed (deflated) write it.
 *
 * Read: the end-of-central-directory record (zip64 too, which numpy.savez
 * writes for large entries), then each central directory entry, its local
 * header, and its data: stored, or deflated through zlib when cusci was
 * built with it. Every offset and size is checked against the buffer, and
 * every entry's CRC-32 against its data, before it is believed.
 * Write: stored or deflated entries, then the central directory.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcore/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUSCI_HAVE_ZLIB
#include <zlib.h>
#endif

struct cusci_npz {
  int n;
  char **names;
  cusci_array **arrays;
};

/* CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as zip uses it. */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
  static uint32_t table[256];
  static int ready;
  if (!ready) {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int k = 0; k < 8; k++)
        c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    ready = 1;
  }
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++)
    c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const unsigned char *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr16(unsigned char *p, unsigned v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void wr32(unsigned char *p, uint32_t v) { wr16(p, v & 0xffff); wr16(p + 2, v >> 16); }

void cusci_npz_free(cusci_npz *z)
{
  if (!z)
    return;
  for (int i = 0; i < z->n; i++) {
    free(z->names[i]);
    cusci_array_release(z->arrays[i]);
  }
  free(z->names);
  free(z->arrays);
  free(z);
}

int cusci_npz_count(const cusci_npz *z) { return z ? z->n : 0; }

const char *cusci_npz_name(const cusci_npz *z, int i)
{
  return z && i >= 0 && i < z->n ? z->names[i] : NULL;
}

cusci_array *cusci_npz_array(const cusci_npz *z, int i)
{
  return z && i >= 0 && i < z->n ? z->arrays[i] : NULL;
}

cusci_array *cusci_npz_get(const cusci_npz *z, const char *name)
{
  if (!z || !name)
    return NULL;
  for (int i = 0; i < z->n; i++)
    if (!strcmp(z->names[i], name))
      return z->arrays[i];
  return NULL;
}

#define FORMAT(...) cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, __VA_ARGS__)

/* The bytes of one entry, inflated if need be, checked against its CRC. */
static cusci_status entry_data(cusci_ctx *ctx, const char *fn, const char *name, const unsigned char *data, uint64_t csize,
                               uint64_t usize, unsigned method, uint32_t crc, unsigned char **out, bool *owned)
{
  if (method == 0) {
    if (csize != usize)
      return FORMAT("entry %s is stored but its sizes differ (%llu, %llu)", name, (unsigned long long)csize,
                    (unsigned long long)usize);
    if (crc32_of(data, (size_t)usize) != crc)
      return FORMAT("entry %s fails its CRC-32 check", name);
    *out = (unsigned char *)data;
    *owned = false;
    return CUSCI_OK;
  }
  if (method != 8)
    return FORMAT("entry %s uses compression method %u; only stored (0) and deflate (8) are read", name, method);
#ifdef CUSCI_HAVE_ZLIB
  /* Deflate expands at most about 1032 to 1: a larger claim is a lie. */
  if (usize > csize * 1032 + 1024)
    return FORMAT("entry %s claims %llu bytes from %llu compressed", name, (unsigned long long)usize,
                  (unsigned long long)csize);
  unsigned char *buf = malloc(usize ? (size_t)usize : 1);
  if (!buf)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory to inflate %s", name);
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
    free(buf);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "zlib could not start");
  }
  size_t done = 0;
  int zr = Z_OK;
  const unsigned char *in = data;
  uint64_t in_left = csize;
  while (zr == Z_OK) {
    unsigned in_now = in_left > (1u << 30) ? 1u << 30 : (unsigned)in_left;
    size_t out_left = (size_t)usize - done;
    unsigned out_now = out_left > (1u << 30) ? 1u << 30 : (unsigned)out_left;
    zs.next_in = (unsigned char *)in;
    zs.avail_in = in_now;
    zs.next_out = buf + done;
    zs.avail_out = out_now;
    zr = inflate(&zs, Z_NO_FLUSH);
    in += in_now - zs.avail_in;
    in_left -= in_now - zs.avail_in;
    done += out_now - zs.avail_out;
    if (zr == Z_OK && in_now == zs.avail_in && out_now == zs.avail_out)
      zr = Z_BUF_ERROR; /* no progress */
  }
  inflateEnd(&zs);
  if (zr != Z_STREAM_END || done != usize) {
    free(buf);
    return FORMAT("entry %s does not inflate to the %llu bytes it claims", name, (unsigned long long)usize);
  }
  if (crc32_of(buf, (size_t)usize) != crc) {
    free(buf);
    return FORMAT("entry %s fails its CRC-32 check", name);
  }
  *out = buf;
  *owned = true;
  return CUSCI_OK;
#else
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn,
                        "entry %s is deflated and this build of cusci has no zlib", name);
#endif
}

static cusci_status load(cusci_ctx *ctx, const char *fn, const unsigned char *buf, size_t len, cusci_npz **out)
{
  /* The end of central directory record, searched from the end. */
  if (len < 22)
    return FORMAT("not a zip archive (%zu bytes)", len);
  size_t eocd = SIZE_MAX;
  for (size_t i = len - 22 + 1; i-- > 0 && len - i <= 22 + 65535;)
    if (rd32(buf + i) == 0x06054b50u) {
      eocd = i;
      break;
    }
  if (eocd == SIZE_MAX)
    return FORMAT("not a zip archive (no end of central directory)");
  uint64_t count = rd16(buf + eocd + 10), cd_size = rd32(buf + eocd + 12), cd_off = rd32(buf + eocd + 16);
  if (count == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_off == 0xFFFFFFFFu) {
    /* zip64: a locator just before points to the zip64 record. */
    if (eocd < 20 || rd32(buf + eocd - 20) != 0x07064b50u)
      return FORMAT("zip64 archive without its locator");
    uint64_t rec = rd64(buf + eocd - 20 + 8);
    if (rec > len - 56 || rd32(buf + rec) != 0x06064b50u)
      return FORMAT("zip64 end of central directory record out of place");
    count = rd64(buf + rec + 32);
    cd_size = rd64(buf + rec + 40);
    cd_off = rd64(buf + rec + 48);
  }
  if (cd_off > len || cd_size > len - cd_off)
    return FORMAT("central directory lies outside the archive");
  if (count > cd_size / 46)
    return FORMAT("central directory claims %llu entries in %llu bytes", (unsigned long long)count,
                  (unsigned long long)cd_size);
  cusci_npz *z = calloc(1, sizeof *z);
  if (!z)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  z->names = calloc(count ? (size_t)count : 1, sizeof *z->names);
  z->arrays = calloc(count ? (size_t)count : 1, sizeof *z->arrays);
  if (!z->names || !z->arrays) {
    cusci_npz_free(z);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  cusci_status st = CUSCI_OK;
  size_t p = (size_t)cd_off, end = (size_t)(cd_off + cd_size);
  for (uint64_t e = 0; e < count && st == CUSCI_OK; e++) {
    if (end - p < 46 || rd32(buf + p) != 0x02014b50u) {
      st = FORMAT("central directory entry %llu is damaged", (unsigned long long)e);
      break;
    }
    unsigned method = rd16(buf + p + 10), nlen = rd16(buf + p + 28), xlen = rd16(buf + p + 30), clen = rd16(buf + p + 32);
    uint32_t crc = rd32(buf + p + 16);
    uint64_t csize = rd32(buf + p + 20), usize = rd32(buf + p + 24), lho = rd32(buf + p + 42);
    if (end - p - 46 < (size_t)nlen + xlen + clen) {
      st = FORMAT("central directory entry %llu runs past the directory", (unsigned long long)e);
      break;
    }
    const unsigned char *name = buf + p + 46, *x = name + nlen, *xend = x + xlen;
    /* zip64 extra field: the values that are 0xFFFFFFFF, in order. */
    while (xend - x >= 4) {
      unsigned id = rd16(x), sz = rd16(x + 2);
      const unsigned char *v = x + 4;
      if ((size_t)(xend - v) < sz)
        break;
      if (id == 0x0001) {
        const unsigned char *ve = v + sz;
        if (usize == 0xFFFFFFFFu && ve - v >= 8) { usize = rd64(v); v += 8; }
        if (csize == 0xFFFFFFFFu && ve - v >= 8) { csize = rd64(v); v += 8; }
        if (lho == 0xFFFFFFFFu && ve - v >= 8) { lho = rd64(v); v += 8; }
      }
      x += 4 + sz;
    }
    p += 46 + (size_t)nlen + xlen + clen;
    char ename[512];
    size_t elen = nlen < sizeof ename ? nlen : sizeof ename - 1;
    memcpy(ename, name, elen);
    ename[elen] = '\0';
    if (memchr(ename, '\0', elen)) {
      st = FORMAT("entry %llu has a NUL in its name", (unsigned long long)e);
      break;
    }
    if (lho > len - 30 || rd32(buf + lho) != 0x04034b50u) {
      st = FORMAT("entry %s: local header out of place", ename);
      break;
    }
    uint64_t data = lho + 30 + rd16(buf + lho + 26) + rd16(buf + lho + 28);
    if (data > len || csize > len - data) {
      st = FORMAT("entry %s: data runs past the archive", ename);
      break;
    }
    unsigned char *img = NULL;
    bool owned = false;
    st = entry_data(ctx, fn, ename, buf + data, csize, usize, method, crc, &img, &owned);
    if (st != CUSCI_OK)
      break;
    st = cusci__npy_load_image(ctx, fn, img, (size_t)usize, &z->arrays[z->n]);
    if (owned)
      free(img);
    if (st != CUSCI_OK)
      break;
    /* numpy.load names an entry without its .npy suffix. */
    if (elen >= 4 && !strcmp(ename + elen - 4, ".npy"))
      ename[elen - 4] = '\0';
    z->names[z->n] = strdup(ename);
    if (!z->names[z->n]) {
      cusci_array_release(z->arrays[z->n]);
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
      break;
    }
    z->n++;
  }
  if (st != CUSCI_OK) {
    cusci_npz_free(z);
    return st;
  }
  *out = z;
  return CUSCI_OK;
}

cusci_status cusci_npz_load_buffer(cusci_ctx *ctx, const void *buf, size_t len, cusci_npz **out)
{
  CUSCI_ENTRY(ctx, __func__, buf, out);
  return load(ctx, __func__, buf, len, out);
}

cusci_status cusci_npz_load(cusci_ctx *ctx, const char *path, cusci_npz **out)
{
  CUSCI_ENTRY(ctx, __func__, path, out);
  unsigned char *buf;
  size_t len;
  CUSCI_TRY(cusci__read_file(ctx, __func__, path, &buf, &len));
  cusci_status st = load(ctx, __func__, buf, len, out);
  free(buf);
  return st;
}

/* ------------------------------------------------------------ writing */

typedef struct growbuf {
  unsigned char *p;
  size_t n, cap;
} growbuf;

static bool put(growbuf *g, const void *src, size_t n)
{
  if (n == 0)
    return true;
  if (g->cap - g->n < n) {
    size_t cap = g->cap ? g->cap : 4096;
    while (cap - g->n < n)
      cap *= 2;
    unsigned char *q = realloc(g->p, cap);
    if (!q)
      return false;
    g->p = q;
    g->cap = cap;
  }
  memcpy(g->p + g->n, src, n);
  g->n += n;
  return true;
}

cusci_status cusci_npz_save(cusci_ctx *ctx, const char *path, int n, const char *const *names,
                            const cusci_array *const *arrays, bool compress)
{
  CUSCI_ENTRY_CTX(ctx, __func__);
  if (!path || (n > 0 && (!names || !arrays)))
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "%s is NULL", !path ? "path" : !names ? "names" : "arrays");
  if (n < 0 || n > 65535)
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "n is %d, expected 0 to 65535 entries", n);
#ifndef CUSCI_HAVE_ZLIB
  if (compress)
    CUSCI__FAIL(ctx, CUSCI_ERR_NOT_SUPPORTED, "compression needs zlib, which this build of cusci lacks");
#endif
  for (int i = 0; i < n; i++) {
    char what[32];
    snprintf(what, sizeof what, "arrays[%d]", i);
    CUSCI_TRY(cusci_check_array(ctx, __func__, what, arrays[i]));
    if (!names[i] || !names[i][0] || strlen(names[i]) > 250)
      CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "names[%d] must be 1 to 250 characters", i);
    for (int j = 0; j < i; j++)
      if (!strcmp(names[i], names[j]))
        CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "names[%d] repeats \"%s\"", i, names[i]);
  }
  growbuf out = {0}, cd = {0};
  cusci_status st = CUSCI_OK;
  for (int i = 0; i < n && st == CUSCI_OK; i++) {
    unsigned char *img = NULL, *data;
    size_t ilen = 0, dlen;
    st = cusci__npy_image(ctx, __func__, arrays[i], &img, &ilen);
    if (st != CUSCI_OK)
      break;
    uint32_t crc = crc32_of(img, ilen);
    unsigned method = 0;
    data = img;
    dlen = ilen;
#ifdef CUSCI_HAVE_ZLIB
    unsigned char *def = NULL;
    if (compress) {
      z_stream zs;
      memset(&zs, 0, sizeof zs);
      size_t bound = ilen + ilen / 1000 + 1024;
      def = malloc(bound);
      if (!def || deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(def);
        free(img);
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, __func__, "no memory to deflate");
        break;
      }
      size_t done_in = 0, done_out = 0;
      int zr = Z_OK;
      while (zr == Z_OK) {
        unsigned in_now = ilen - done_in > (1u << 30) ? 1u << 30 : (unsigned)(ilen - done_in);
        unsigned out_now = bound - done_out > (1u << 30) ? 1u << 30 : (unsigned)(bound - done_out);
        zs.next_in = img + done_in;
        zs.avail_in = in_now;
        zs.next_out = def + done_out;
        zs.avail_out = out_now;
        zr = deflate(&zs, done_in + in_now == ilen ? Z_FINISH : Z_NO_FLUSH);
        done_in += in_now - zs.avail_in;
        done_out += out_now - zs.avail_out;
      }
      deflateEnd(&zs);
      if (zr != Z_STREAM_END) {
        free(def);
        free(img);
        st = cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, __func__, "zlib could not deflate %s", names[i]);
        break;
      }
      method = 8;
      data = def;
      dlen = done_out;
    }
#endif
    if (ilen >= 0xFFFFFFFFu || dlen >= 0xFFFFFFFFu || out.n >= 0xFFFFFFFFu) {
      st = cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, __func__,
                          "entry %s or the archive reaches 4 GiB; cusci writes zip archives below that", names[i]);
    } else {
      char fname[260];
      snprintf(fname, sizeof fname, "%s.npy", names[i]);
      size_t fl = strlen(fname);
      unsigned char lh[30] = {0}, ch[46] = {0};
      wr32(lh, 0x04034b50u);
      wr16(lh + 4, 20);
      wr16(lh + 8, method);
      wr16(lh + 12, 0x21); /* 1980-01-01 */
      wr32(lh + 14, crc);
      wr32(lh + 18, (uint32_t)dlen);
      wr32(lh + 22, (uint32_t)ilen);
      wr16(lh + 26, (unsigned)fl);
      wr32(ch, 0x02014b50u);
      wr16(ch + 4, 20);
      wr16(ch + 6, 20);
      wr16(ch + 10, method);
      wr16(ch + 14, 0x21);
      wr32(ch + 16, crc);
      wr32(ch + 20, (uint32_t)dlen);
      wr32(ch + 24, (uint32_t)ilen);
      wr16(ch + 28, (unsigned)fl);
      wr32(ch + 38, 0644u << 16);
      wr32(ch + 42, (uint32_t)out.n);
      if (!put(&out, lh, 30) || !put(&out, fname, fl) || !put(&out, data, dlen) || !put(&cd, ch, 46) ||
          !put(&cd, fname, fl))
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, __func__, "no host memory for the archive");
    }
#ifdef CUSCI_HAVE_ZLIB
    free(def);
#endif
    free(img);
  }
  if (st == CUSCI_OK && (out.n + cd.n >= 0xFFFFFFFFu))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, __func__, "the archive reaches 4 GiB");
  if (st == CUSCI_OK) {
    unsigned char eocd[22] = {0};
    wr32(eocd, 0x06054b50u);
    wr16(eocd + 8, (unsigned)n);
    wr16(eocd + 10, (unsigned)n);
    wr32(eocd + 12, (uint32_t)cd.n);
    wr32(eocd + 16, (uint32_t)out.n);
    if (!put(&out, cd.p, cd.n) || !put(&out, eocd, 22))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, __func__, "no host memory for the archive");
  }
  if (st == CUSCI_OK)
    st = cusci__write_file(ctx, __func__, path, out.p, out.n);
  free(out.p);
  free(cd.p);
  return st;
}
