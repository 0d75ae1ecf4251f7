#!/bin/bash
# bench/ab.sh BEFORE.test AFTER.test [ROUNDS] — an A/B of the in-process pipeline benchmarks:
# two test binaries of ./server (go test -c -o X.test ./server, one per commit) run in
# alternation ROUNDS times (6), and the minimum and median ns/cmd of each benchmark are printed
# with its allocs/op. BENCH (BenchmarkPipeline$) picks the benchmarks, BT (200000x) their
# -test.benchtime. The machine is shared: compare the two sides of one run only.
B=$1; A=$2; R=${3:-6}
for i in $(seq "$R"); do
  for t in before after; do
    bin=$B; [ $t = after ] && bin=$A
    $bin -test.run '^$' -test.bench "${BENCH:-BenchmarkPipeline\$}" -test.benchmem -test.benchtime "${BT:-200000x}" 2>&1 | grep '^Benchmark' | awk -v t=$t '{for(i=1;i<=NF;i++) if($i=="ns/cmd") v=$(i-1); print t, $1, v, $(NF-1)}'
  done
done | sort -k2,2 -k1,1 -k3,3n | awk '{k=$2" "$1; a[k]=a[k]" "$3; al[k]=$4} END{for(k in a){n=split(a[k],x," "); printf "%-40s min %7.1f med %7.1f allocs %s\n", k, x[1], x[int((n+1)/2)], al[k]}}' | sort
