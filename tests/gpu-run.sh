#!/bin/bash
# tests/gpu-run.sh: a dist tarball built and checked on a machine with a
# GPU and no autotools, in steps that may span several sessions of one
# machine (the sanitizers run on in the background between them):
#
#   bash tests/gpu-run.sh STEP [ARGS] STEP ...
#
#   build              unpack TARBALL (default .dist/cusci-0.1.0.tar.xz)
#                      into $WORK, configure for CUDA_ARCH (default 90) and
#                      CONFIGURE_ARGS, make (MAKE_TARGETS, default all)
#   progs              build the test programs (needed before the tools)
#   sanstart           make -k check-sanitize in the background
#   sanset PROGS TOOLS those programs under those tools in the background
#                      (e.g. "signal-gpu linalg-eig-gpu" "memcheck initcheck")
#   check              make check, and the TAP counts per program
#   sanwait SECS       wait up to SECS for the background tools; print the
#                      runs with errors and the slowest; their logs to $OUT
#   sanstop            stop the background tools (their logs stay)
#   bench              bench/compare_cupy.py's table, to $OUT/bench.md
#                      (BENCH_ARGS, e.g. "--case signal.", passed to it)
#   patch FILE         apply a patch to the unpacked tree and rebuild
set -u
ROOT=$(pwd)
TARBALL=${TARBALL:-$ROOT/.dist/cusci-0.1.0.tar.xz}
WORK=${WORK:-/root/cb}
B=$WORK/cusci-0.1.0
OUT=${OUT:-/tmp/gpu-run-out}
mkdir -p "$OUT"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
while [ $# -gt 0 ]; do
  step=$1; shift
  case $step in
  build)
    rm -rf "$WORK" && mkdir -p "$WORK" && tar xf "$TARBALL" -C "$WORK" || exit 1
    cd $B
    ./configure --with-cuda-arch="${CUDA_ARCH:-90}" ${CONFIGURE_ARGS:-} >configure.out 2>&1 || { tail -30 configure.out; exit 1; }
    make -j16 ${MAKE_TARGETS:-} >make.out 2>&1 || { grep -B2 -A8 -i "error" make.out | head -80; exit 1; }
    stamp "built"; cd "$ROOT" ;;
  progs)
    cd $B && make -j16 check TESTS= >progs.out 2>&1 || { grep -B2 -A8 -i error progs.out | head -60; exit 1; }
    stamp "test programs built"; cd "$ROOT" ;;
  sanstart)
    cd $B && rm -rf sanitize && mkdir sanitize
    setsid nohup make -j16 -k check-sanitize >sanitize/make.out 2>&1 </dev/null &
    echo $! >sanitize/make.pid
    echo $(( ($(ls tests/*-gpu | grep -vc core-fault-gpu) + 6) * 4 )) >sanitize/count  # three in two parts, one in four
    stamp "sanitizers started"; cd "$ROOT" ;;
  sanset)
    progs=$1 tools=$2; shift 2
    cd $B && rm -rf sanitize && mkdir sanitize
    list=
    for t in $tools; do for p in $progs; do list="$list sanitize/$t/$p.log"; done; done
    setsid nohup make -j16 -k $list >sanitize/make.out 2>&1 </dev/null &
    echo $! >sanitize/make.pid
    echo "$list" | wc -w >sanitize/count
    stamp "sanitizers started: $list"; cd "$ROOT" ;;
  check)
    cd $B && make -j16 check >check.out 2>&1; rc=$?
    stamp "make check rc=$rc"
    for f in $(ls tests/*.log | grep -v test-suite); do
      t=${f%.log}.trs
      [ -f "$t" ] || continue
      p=$(grep -c '^:test-result: PASS' "$t"); s=$(grep -c '^:test-result: SKIP' "$t"); x=$(grep -c '^:test-result: FAIL\|^:test-result: ERROR' "$t")
      echo "$(basename ${f%.log}) pass=$p skip=$s fail=$x"
    done | awk '{print} {split($2,a,"=");split($3,b,"=");split($4,c,"="); P+=a[2];S+=b[2];F+=c[2]} END {print "TOTAL pass="P" skip="S" fail="F}'
    grep -h '^not ok\|^Bail' tests/*.log | head -40
    cp tests/test-suite.log "$OUT/" 2>/dev/null
    cd "$ROOT" ;;
  sanwait)
    secs=$1; shift
    cd $B
    end=$(( $(date +%s) + secs ))
    while [ $(date +%s) -lt $end ] && kill -0 $(cat sanitize/make.pid) 2>/dev/null; do sleep 5; done
    n=$(ls sanitize/*/*.line 2>/dev/null | wc -l)
    stamp "sanitizer runs done: $(cat sanitize/*/*.line 2>/dev/null | grep -c .) of $(cat sanitize/count 2>/dev/null) (started $n)"
    cat sanitize/*/*.line 2>/dev/null | grep -v ': 0 errors, [0-9]* expected API errors not counted, 0 failed' 
    cat sanitize/*/*.line 2>/dev/null | sed -n 's/^sanitize \([a-z]*\) tests\/\([a-z-]*\)\( (part [0-9/]*)\)* (\([0-9]*\) s).*/\4 \1 \2\3/p' | sort -rn | head -12 | tr '\n' ';'; echo
    if ! kill -0 $(cat sanitize/make.pid) 2>/dev/null; then stamp "check-sanitize finished"; grep '^sanitize [a-z]*:' sanitize/make.out; tail -3 sanitize/make.out; fi
    tar czf "$OUT/sanlogs.tgz" sanitize 2>/dev/null
    cd "$ROOT" ;;
  sanstop)
    cd $B && kill -- -$(cat sanitize/make.pid) 2>/dev/null; sleep 2; pkill -f compute-sanitizer; sleep 1
    stamp "sanitizers stopped"; cd "$ROOT" ;;
  bench)
    cd $B
    PYTHONUNBUFFERED=1 python3 bench/compare_cupy.py --bench bench/cusci-bench ${BENCH_ARGS:-} --markdown 2>&1 | tee "$OUT/bench.md"
    stamp "bench done"; cd "$ROOT" ;;
  patch)
    f=$1; shift
    cd $B && patch -p1 <"$ROOT/$f" && make -j16 >>make.out 2>&1 && make -j16 check TESTS= >>progs.out 2>&1 || { tail -40 make.out; exit 1; }
    stamp "patched and rebuilt"; cd "$ROOT" ;;
  *) echo "unknown step $step"; exit 2 ;;
  esac
done
