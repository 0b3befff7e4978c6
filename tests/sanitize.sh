#!/bin/sh
# tests/sanitize.sh: GPU test programs under compute-sanitizer, with the
# pool off (CUSCI_POOL=off: every allocation its own exact cudaMalloc, so
# that the checker sees every access outside an array).
#
#   sanitize.sh run TOOL LOG PROGRAM [K/N]
#                                      run PROGRAM (only its part K of N,
#                                      CUSCI_TEST_PART, when given) under
#                                      TOOL, its report in LOG, and print
#                                      one line: the errors that count and
#                                      those that do not
#   sanitize.sh summary TOOL LOG...    add up the logs' lines; exit 1 when
#                                      any error counts
#
# TOOL is memcheck (with --leak-check full), racecheck, initcheck or
# synccheck. Every report counts except the CUDA API errors that the
# error-path tests provoke on purpose: an out-of-memory request
# (cudaErrorMemoryAllocation from an allocation call, and again from the
# cudaGetLastError that clears it) and a kernel name
# that a module does not have (cudaErrorSymbolNotFound). A program that
# fails its own tests under the tool counts as an error too.
set -u
cmd=$1
shift
case $cmd in
run)
  tool=$1 log=$2 prog=$3 part=${4:-}
  mkdir -p "$(dirname "$log")"
  # memcheck also looks for leaks; racecheck gets two analysis threads a
  # program (its default picks a number for each program alone, and make
  # check-sanitize runs many at once). Kernels of a vendor library that a tool
  # must leave out of its analysis (they still run), each for a report
  # inside the library that no argument of ours causes:
  #  - synccheck: cuBLAS 13.0's trsm_ln_up_kernel, which cusolverDnXgetrs
  #    calls, is reported for a barrier in divergent code, and synccheck
  #    then aborts it (seen on an H200 with CUDA 13.0).
  case $tool in
  memcheck) extra="--leak-check full" ;;
  racecheck) extra=
    "${COMPUTE_SANITIZER:-compute-sanitizer}" --help 2>/dev/null | grep -q -e '--racecheck-num-workers' &&
      extra="--racecheck-num-workers 2" ;;
  synccheck) extra="--kernel-name-exclude kns=trsm_ln_up_kernel" ;;
  *) extra= ;;
  esac
  san=${COMPUTE_SANITIZER:-compute-sanitizer}
  # The program's TAP output, then the tool's report, in one log. The
  # tests cap their largest arrays at 2^22 elements under a tool
  # (CUSCI_TEST_SANITIZE: tk_top_log2); make check runs them whole.
  t0=$(date +%s)
  CUSCI_TEST_PART=$part CUSCI_TEST_SANITIZE=1 CUSCI_POOL=off ${LIBTOOL:-libtool} --mode=execute "$san" --tool "$tool" $extra --print-limit 200 \
    --log-file "$log.tool" "$prog" >"$log.tap" 2>&1
  rc=$?
  secs=$(($(date +%s) - t0))
  cat "$log.tap" "$log.tool" >"$log" 2>/dev/null
  rm -f "$log.tap" "$log.tool"
  # A report starts with a line "========= <what>" right after a blank
  # "=========" line or at the top; the summary lines are not reports.
  # Reports are lines "========= <what>"; the tool's own count is on its
  # ERROR SUMMARY line. Errors = that count less the expected API errors,
  # or the reports seen when that is more (racecheck's warnings, say).
  [ -z "$part" ] || prog="$prog (part $part)"
  awk -v tool="$tool" -v prog="$prog" -v rc="$rc" -v secs="$secs" '
    /^========= ERROR SUMMARY: [0-9]+ errors?$/ { summary = $4; has_summary = 1; next }
    /^========= ERROR SUMMARY: / { next }
    /^========= (LEAK SUMMARY|RACECHECK SUMMARY|COMPUTE-SANITIZER|Saved host backtrace|    )/ { next }
    /^========= Program hit cudaErrorMemoryAllocation .* on CUDA API call to cuda(Malloc|MallocAsync|MallocManaged|HostAlloc|MallocHost|GetLastError)\./ { expected++; next }
    /^========= Program hit cudaErrorSymbolNotFound/ { expected++; next }
    /^========= (Program hit|Invalid|Uninitialized|Error|Warning|Leaked|Barrier|Race|Misaligned|Out of|Host API|Unused|Divergent)/ {
      seen++; if (first == "") first = substr($0, 11); next }
    /^not ok / { failed++ }
    END {
      errors = has_summary ? summary - expected : seen
      if (seen > errors) errors = seen
      if (rc != 0 && errors + failed == 0) { errors = 1; first = "the program exited with status " rc }
      printf "sanitize %s %s (%d s): %d errors, %d expected API errors not counted, %d failed tests%s%s\n",
             tool, prog, secs, errors, expected, failed, first != "" ? ": " : "", first
    }' "$log"
  ;;
summary)
  tool=$1
  shift
  total=0 progs=0 bad=0
  for log in "$@"; do
    line=$(tail -1 "$log.line" 2>/dev/null)
    [ -n "$line" ] || continue
    progs=$((progs + 1))
    e=$(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) errors, [0-9]* expected API errors not counted, \([0-9]*\) failed tests.*/\1 \2/p')
    n=$(echo "$e" | awk '{print $1 + $2}')
    total=$((total + ${n:-1}))
    [ "${n:-1}" -eq 0 ] || { bad=$((bad + 1)); echo "$line"; }
  done
  echo "sanitize $tool: $progs programs, $total errors, $bad programs with errors"
  [ "$total" -eq 0 ] && [ "$progs" -gt 0 ]
  ;;
*)
  echo "usage: $0 run TOOL LOG PROGRAM [K/N] | summary TOOL LOG..." >&2
  exit 2
  ;;
esac
