#!/bin/sh
# Build the loader fuzzer with clang (libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer) from the host backend's sources, then run it.
# usage: tests/fuzz/run.sh [SECONDS]   (default 60)
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${FUZZ_OUT:-/tmp/cusci-fuzz}
mkdir -p "$out/corpus" "$out/include"
# A host-only configuration: no CUDA, zlib when present.
{
  echo '#define CUSCI_HAVE_ZLIB 1'
} > "$out/config.h"
sed -e 's/@CUSCI_VERSION_MAJOR@/0/' -e 's/@CUSCI_VERSION_MINOR@/1/' -e 's/@CUSCI_VERSION_PATCH@/0/' \
    -e 's/@PACKAGE_VERSION@/0.1.0/' "$top/include/cusci/version.h.in" > "$out/include/version.h"
mkdir -p "$out/include/cusci" && cp "$out/include/version.h" "$out/include/cusci/version.h"
# The fuzzer is the core alone: the umbrella header without the modules.
sed -e 's/@CUSCI_HAVE_[A-Z]*@/0/' "$top/include/cusci/cusci.h.in" > "$out/include/cusci/cusci.h"
clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$out" -I"$out/include" -I"$top/include" -I"$top" -DCUSCI_BUILDING \
  "$top"/libcore/*.c "$top"/reference/core/*.c "$top/tests/fuzz/fuzz_load.c" \
  -lz -lm -lpthread -o "$out/fuzz_load"
cp -n "$top"/tests/fuzz/corpus/* "$out/corpus/" 2>/dev/null || true
"$out/fuzz_load" -max_total_time="${1:-60}" -max_len=4096 -rss_limit_mb=2048 -artifact_prefix="$out/" "$out/corpus"
