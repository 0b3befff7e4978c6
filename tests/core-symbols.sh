#!/bin/sh
# Only cusci_* symbols leave libcusci-core: checked with nm on the shared library.
lib="${top_builddir:-.}/libcore/.libs/libcusci-core.so"
if [ ! -f "$lib" ]; then
  echo "1..0 # SKIP no shared library (static-only build)"
  exit 0
fi
nm_cmd=${NM:-nm}
echo "1..2"
syms=$($nm_cmd -D --defined-only "$lib" | awk '{print $NF}' | grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$')
bad=$(printf '%s\n' "$syms" | grep -v '^cusci_[a-z]' | grep -v '^$')
if [ -z "$bad" ]; then
  echo "ok 1 - every exported symbol starts with cusci_"
else
  echo "not ok 1 - symbols outside cusci_ are exported:"
  printf '%s\n' "$bad" | sed 's/^/#   /' | head -20
fi
internal=$(printf '%s\n' "$syms" | grep '^cusci__')
if [ -z "$internal" ]; then
  echo "ok 2 - no internal cusci__ symbol is exported"
else
  echo "not ok 2 - internal symbols are exported:"
  printf '%s\n' "$internal" | sed 's/^/#   /' | head -20
fi
