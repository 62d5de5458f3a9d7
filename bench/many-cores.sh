#!/usr/bin/env bash
# Issue 14's measurements on a many-core machine, in one call that fits a short loan of one
# (../shared/DEVICE.md: no Node.js there, so a Node binary and a production bundle travel along).
#
#   bench/many-cores.sh OUT [LEVEL6_SECONDS]
#
# Run from a built project (dist/ and node_modules/), `node` on PATH. Writes to OUT:
#   machine.json       cores, model, memory, node version
#   *-explorer.json    `npm run bench -- --only explorer`: the explorer, the raw loop's ceiling and the coordinator alone
#                      at 1, 2, 4, 8 and all workers (bx19 level 2, 1M states), each row's schedule
#   spare-core.jsonl   bx19:2 to 1M states at all cores - 1 and all cores, interleaved: whether a
#                      core of its own for the coordinator pays; with BASELINE=DIR (another build's
#                      project root: its dist/ and node_modules/) each run is paired with the same
#                      run of that build ("build": "baseline"), the A/B of a coordinator change
#   level6.json        `arcgraph explore bx19 --level 6 --json` under LEVEL6_SECONDS (default 120:
#                      on 16 cores about 600M transitions, and the analysis after it takes minutes)
#   level6-process.json  its exit status, wall seconds and the peak resident memory read from /proc while it ran
#   log                everything the steps printed
# The benchmark and each run at cores - 1 and all cores have a time limit of their own (level 6 its
# exploring time), so a step that runs long still leaves the others' results.
# The whole takes about 8 minutes on 16 cores with the default (one command may run 10).
set -u
out=${1:?usage: bench/many-cores.sh OUT [LEVEL6_SECONDS]}
level6=${2:-120}
mkdir -p "$out"
log="$out/log"
cores=$(node -p 'require("os").availableParallelism()')
node -p 'const os = require("os"); JSON.stringify({ cores: os.availableParallelism(), model: os.cpus()[0].model, memoryGB: os.totalmem() / 2 ** 30, node: process.version })' > "$out/machine.json"
tee -a "$log" < "$out/machine.json"

echo "== explorer bench ($cores cores)" | tee -a "$log"
timeout 420 node --expose-gc --single-threaded-gc dist/bench/run.js --only explorer --out "$out" 2>&1 | tee -a "$log"

echo "== bx19:2 to 1M states at $((cores - 1)) and $cores workers" | tee -a "$log"
builds="current"
[ -n "${BASELINE:-}" ] && builds="current baseline"
for round in 1 2 3; do
  for workers in $((cores - 1)) "$cores"; do
    for build in $builds; do
      root=.
      [ "$build" = baseline ] && root=$BASELINE
      timeout 60 node "$root/dist/src/cli/main.js" explore bx19 --level 2 --max-nodes 1000000 --workers "$workers" --json 2>>"$log" |
        node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { const r = JSON.parse(s); console.log(JSON.stringify({ build: process.argv[2], round: Number(process.argv[1]), workers: r.workers, transitionsPerSecond: Math.round(r.transitionsPerSecond), seconds: r.seconds, schedule: r.schedule })); })' "$round" "$build" |
        tee -a "$out/spare-core.jsonl" "$log"
    done
  done
done

echo "== bx19 level 6, at most $level6 s exploring" | tee -a "$log"
started=$(date +%s)
node dist/src/cli/main.js explore bx19 --level 6 --max-seconds "$level6" --json > "$out/level6.json" 2>>"$log" &
pid=$!
peak=0
while kill -0 "$pid" 2>/dev/null; do
  kb=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
  [ "${kb:-0}" -gt "$peak" ] && peak=$kb
  sleep 1
done
wait "$pid"
echo "{\"exit\": $?, \"wallSeconds\": $(( $(date +%s) - started )), \"peakRssKB\": $peak}" | tee "$out/level6-process.json" | tee -a "$log"
head -c 2000 "$out/level6.json" | tee -a "$log"
