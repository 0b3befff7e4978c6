#!/bin/sh
# The special-matrix tests on a GPU context (they skip where there is none).
exec "${top_builddir:-.}/tests/linalg-special" --gpu
