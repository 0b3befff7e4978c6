/*
 * libcore/rtc_cache.c: compiled code of users' kernels, cached in the
 * process's memory and in files.
 *
 * A key is the text "cusci-rtc 1 / NVRTC version / arch / options / source";
 * its 128-bit FNV-1a hash names the file. A file is
 *   "CUSCIRTC" | u32 format | u32 0 | u64 key length | u64 code length |
 *   u64 FNV-1a 64 of key and code | key | code
 * and is used only when every field agrees with what is asked: the key is
 * compared in full, so neither a hash collision nor a damaged file is ever
 * trusted. Files are written under a temporary name in the same directory,
 * then renamed over the final name, which is atomic on POSIX file systems.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcore/rtc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "CUSCIRTC"
#define FORMAT 1u
#define HEADER 40
#define MAX_FILE ((size_t)1 << 30)

/* ------------------------------------------------------------- hashing */

static uint64_t fnv1a(uint64_t h, const void *buf, size_t len)
{
  const unsigned char *p = buf;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

#define FNV_OFFSET 0xcbf29ce484222325ull

void cusci__rtc_hash128(const void *buf, size_t len, uint64_t out[2])
{
  out[0] = fnv1a(FNV_OFFSET, buf, len);
  /* The second half starts from another basis, so the two are independent
   * enough to make an accidental 128-bit collision negligible. */
  out[1] = fnv1a(0x6c62272e07bb0142ull, buf, len) ^ (uint64_t)len;
}

/* --------------------------------------------------------------- keys */

/* The key text of a compilation. */
static char *make_key(const char *code, int nopt, const char *const *opts, int arch, int vmaj, int vmin, size_t *len)
{
  cusci__rtc_str b = {0};
  cusci__rtc_printf(&b, "cusci-rtc %u\nnvrtc %d.%d\narch %d\n", FORMAT, vmaj, vmin, arch);
  for (int i = 0; i < nopt; i++)
    cusci__rtc_printf(&b, "option %zu:%s\n", strlen(opts[i]), opts[i]);
  cusci__rtc_printf(&b, "source %zu\n", strlen(code));
  cusci__rtc_puts(&b, code);
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  *len = b.len;
  return b.s;
}

static void file_name(const uint64_t h[2], char *buf, size_t len)
{
  snprintf(buf, len, "%016llx%016llx.cubin", (unsigned long long)h[0], (unsigned long long)h[1]);
}

cusci_status cusci_kernel_cache_file(const char *code, int n_options, const char *const *options, int arch,
                                     char *buf, size_t len)
{
  if (!code || !buf || (n_options > 0 && !options))
    return CUSCI_ERR_NULL_POINTER;
  if (n_options < 0 || arch < 0)
    return CUSCI_ERR_INVALID_ARGUMENT;
  for (int i = 0; i < n_options; i++)
    if (!options[i])
      return CUSCI_ERR_NULL_POINTER;
  int vmaj, vmin;
  if (cusci__rtc_nvrtc_version(&vmaj, &vmin) != CUSCI_OK)
    return CUSCI_ERR_NOT_SUPPORTED;
  size_t klen;
  char *key = make_key(code, n_options, options, arch, vmaj, vmin, &klen);
  if (!key)
    return CUSCI_ERR_OUT_OF_MEMORY;
  uint64_t h[2];
  cusci__rtc_hash128(key, klen, h);
  free(key);
  char name[64];
  file_name(h, name, sizeof name);
  if (strlen(name) + 1 > len)
    return CUSCI_ERR_BUFFER_TOO_SMALL;
  memcpy(buf, name, strlen(name) + 1);
  return CUSCI_OK;
}

/* ---------------------------------------------------- the memory cache */

typedef struct entry {
  uint64_t h[2];
  char *key;
  size_t klen;
  unsigned char *code;
  size_t len;
  struct entry *next;
} entry;

#define NBUCKETS 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *buckets[NBUCKETS];
static cusci_kernel_cache_stats stats;

static entry *find(const uint64_t h[2], const char *key, size_t klen)
{
  for (entry *e = buckets[h[0] % NBUCKETS]; e; e = e->next)
    if (e->h[0] == h[0] && e->h[1] == h[1] && e->klen == klen && memcmp(e->key, key, klen) == 0)
      return e;
  return NULL;
}

/* Copy code into the memory cache (unless already there); failure to
 * allocate only loses the caching. */
static void remember(const uint64_t h[2], const char *key, size_t klen, const unsigned char *code, size_t len)
{
  pthread_mutex_lock(&lock);
  if (!find(h, key, klen)) {
    entry *e = malloc(sizeof *e);
    char *k = malloc(klen);
    unsigned char *c = malloc(len);
    if (e && k && c) {
      memcpy(k, key, klen);
      memcpy(c, code, len);
      *e = (entry){{h[0], h[1]}, k, klen, c, len, buckets[h[0] % NBUCKETS]};
      buckets[h[0] % NBUCKETS] = e;
    } else {
      free(e);
      free(k);
      free(c);
    }
  }
  pthread_mutex_unlock(&lock);
}

void cusci_kernel_cache_clear_memory(void)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < NBUCKETS; i++) {
    entry *e = buckets[i];
    while (e) {
      entry *next = e->next;
      free(e->key);
      free(e->code);
      free(e);
      e = next;
    }
    buckets[i] = NULL;
  }
  pthread_mutex_unlock(&lock);
}

cusci_status cusci_kernel_cache_get_stats(cusci_kernel_cache_stats *out)
{
  if (!out)
    return CUSCI_ERR_NULL_POINTER;
  pthread_mutex_lock(&lock);
  *out = stats;
  pthread_mutex_unlock(&lock);
  return CUSCI_OK;
}

static void count(uint64_t *counter)
{
  pthread_mutex_lock(&lock);
  (*counter)++;
  pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------ the disk cache */

/* The directory, from the environment; false when none can be named. */
static bool cache_dir(char *buf, size_t len)
{
  const char *d = getenv("CUSCI_CACHE_DIR");
  int n;
  if (d && *d) {
    n = snprintf(buf, len, "%s", d);
  } else if ((d = getenv("XDG_CACHE_HOME")) && *d) {
    n = snprintf(buf, len, "%s/cusci", d);
  } else if ((d = getenv("HOME")) && *d) {
    n = snprintf(buf, len, "%s/.cache/cusci", d);
  } else {
    return false;
  }
  return n > 0 && (size_t)n < len;
}

cusci_status cusci_kernel_cache_dir(char *buf, size_t len)
{
  if (!buf)
    return CUSCI_ERR_NULL_POINTER;
  char dir[4096];
  if (!cache_dir(dir, sizeof dir))
    return CUSCI_ERR_NOT_SUPPORTED;
  if (strlen(dir) + 1 > len)
    return CUSCI_ERR_BUFFER_TOO_SMALL;
  memcpy(buf, dir, strlen(dir) + 1);
  return CUSCI_OK;
}

/* mkdir -p, each new level private to the user. */
static bool make_dirs(const char *dir)
{
  char path[4096];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof path)
    return false;
  memcpy(path, dir, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (path[i] != '/' && path[i] != '\0')
      continue;
    char c = path[i];
    path[i] = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
      return false;
    path[i] = c;
  }
  struct stat st;
  return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static void put64(unsigned char *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static uint64_t checksum(const char *key, size_t klen, const unsigned char *code, size_t len)
{
  return fnv1a(fnv1a(FNV_OFFSET, key, klen), code, len);
}

/*
 * Read and check a cache file. Returns 1 with *code (malloc'ed) when it is
 * valid, 0 when there is no file, -1 when one is there but not to be
 * trusted.
 */
static int read_entry(const char *path, const char *key, size_t klen, unsigned char **code, size_t *len)
{
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return 0;
  struct stat st;
  unsigned char *buf = NULL;
  int result = -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < HEADER || (size_t)st.st_size > MAX_FILE)
    goto out;
  size_t size = (size_t)st.st_size;
  buf = malloc(size);
  if (!buf)
    goto out;
  size_t got = 0;
  while (got < size) {
    ssize_t r = read(fd, buf + got, size - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      goto out;
    got += (size_t)r;
  }
  uint64_t fk = get64(buf + 16), fc = get64(buf + 24), sum = get64(buf + 32);
  if (memcmp(buf, MAGIC, 8) != 0 || get64(buf + 8) != FORMAT || fk != klen || fc == 0 ||
      fc > size || fk > size - HEADER - fc || HEADER + fk + fc != size)
    goto out;
  if (memcmp(buf + HEADER, key, klen) != 0 || checksum(key, klen, buf + HEADER + klen, fc) != sum)
    goto out;
  unsigned char *c = malloc(fc);
  if (!c)
    goto out;
  memcpy(c, buf + HEADER + klen, fc);
  *code = c;
  *len = fc;
  result = 1;
out:
  free(buf);
  close(fd);
  return result;
}

static bool write_all(int fd, const void *buf, size_t len)
{
  const unsigned char *p = buf;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    len -= (size_t)w;
  }
  return true;
}

/* Write a cache file atomically: a temporary in the same directory, then
 * rename. Failure leaves no file behind and is not an error of the call. */
static bool write_entry(const char *dir, const char *path, const char *key, size_t klen, const unsigned char *code,
                        size_t len)
{
  if (!make_dirs(dir))
    return false;
  char tmp[4200];
  if (snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir) >= (int)sizeof tmp)
    return false;
  int fd = mkstemp(tmp);
  if (fd < 0)
    return false;
  unsigned char h[HEADER];
  memcpy(h, MAGIC, 8);
  put64(h + 8, FORMAT);
  put64(h + 16, klen);
  put64(h + 24, len);
  put64(h + 32, checksum(key, klen, code, len));
  bool ok = write_all(fd, h, HEADER) && write_all(fd, key, klen) && write_all(fd, code, len);
  ok = close(fd) == 0 && ok;
  if (ok)
    ok = rename(tmp, path) == 0;
  if (!ok)
    unlink(tmp);
  return ok;
}

/* ------------------------------------------------------------ lookups */

static const char *arch_option(int nopt, const char *const *opts, char *buf, size_t len, int arch)
{
  for (int i = 0; i < nopt; i++)
    if (strncmp(opts[i], "-arch", 5) == 0 || strncmp(opts[i], "--gpu-architecture", 18) == 0)
      return NULL; /* the user's choice */
  snprintf(buf, len, "-arch=sm_%d", arch);
  return buf;
}

cusci_status cusci__rtc_get_code(cusci_ctx *ctx, const char *fn, const char *code, int nopt,
                                 const char *const *opts, int arch, unsigned char **image, size_t *len)
{
  int vmaj, vmin;
  if (cusci__rtc_nvrtc_version(&vmaj, &vmin) != CUSCI_OK)
    return cusci__rtc_nvrtc_compile(ctx, fn, code, nopt, opts, NULL, image, len); /* the build's message */
  size_t klen;
  char *key = make_key(code, nopt, opts, arch, vmaj, vmin, &klen);
  if (!key)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the cache key");
  uint64_t h[2];
  cusci__rtc_hash128(key, klen, h);

  /* Memory. */
  cusci_status st = CUSCI_OK;
  unsigned char *c = NULL;
  size_t n = 0;
  pthread_mutex_lock(&lock);
  entry *e = find(h, key, klen);
  if (e && (c = malloc(e->len))) {
    memcpy(c, e->code, e->len);
    n = e->len;
    stats.memory_hits++;
  }
  pthread_mutex_unlock(&lock);
  if (c)
    goto done;

  /* Disk. */
  char dir[4096], path[4200];
  bool have_dir = cache_dir(dir, sizeof dir);
  if (have_dir) {
    char name[64];
    file_name(h, name, sizeof name);
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
      have_dir = false;
  }
  if (have_dir) {
    int r = read_entry(path, key, klen, &c, &n);
    if (r == 1) {
      count(&stats.disk_hits);
      remember(h, key, klen, c, n);
      goto done;
    }
    if (r < 0)
      count(&stats.disk_rejects);
  }

  /* NVRTC. */
  char abuf[32];
  st = cusci__rtc_nvrtc_compile(ctx, fn, code, nopt, opts, arch_option(nopt, opts, abuf, sizeof abuf, arch), &c,
                                &n);
  if (st != CUSCI_OK)
    goto done;
  count(&stats.compiles);
  remember(h, key, klen, c, n);
  if (have_dir && write_entry(dir, path, key, klen, c, n))
    count(&stats.disk_writes);
done:
  free(key);
  if (st == CUSCI_OK) {
    *image = c;
    *len = n;
  }
  return st;
}
