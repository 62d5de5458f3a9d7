/**
 * The garbage collector a command's worker threads run with. Where the workers fill every core,
 * V8's parallel and concurrent collector hands its work to helper threads that wait for a busy
 * core: `node --single-threaded-gc` gave +9-11% on bx19:2 (1M states) at 1 and 2 workers when it
 * was first measured and +4% at 2 workers on 2026-11-26. V8 takes that flag only on node's
 * command line (set at run time, it aborts the process), which `npx arcgraph` does not give; the
 * collector flags it implies, set at run time before the first worker starts, gave the same +4%
 * (4 interleaved rounds, medians 1.61M -> 1.67M transitions/s; the command-line flag 1.67M).
 * Others it implies (parallel marking) abort the process when set at run time, so only these, and
 * only on the Node.js major where they were tried: another V8 might abort on them too.
 */
import { setFlagsFromString } from 'node:v8';

export const GC_FLAGS = ['--no-parallel-scavenge', '--no-concurrent-marking', '--no-concurrent-sweeping', '--no-parallel-compaction', '--no-concurrent-array-buffer-sweeping', '--no-parallel-pointer-update'];

/** Node.js majors where setting GC_FLAGS at run time was tried. */
const TRIED_MAJORS = [20];

/** Whether this process can be given GC_FLAGS at run time: a tried Node.js major, not already single-threaded from its command line. */
export function takesGcFlags(execArgv: readonly string[] = process.execArgv, version: string = process.versions.node): boolean {
  return TRIED_MAJORS.includes(Number(version.split('.')[0])) && !execArgv.includes('--single-threaded-gc');
}

/** Sets GC_FLAGS where they can be (call before any worker thread starts); says whether it did. */
export function singleThreadedGc(): boolean {
  if (!takesGcFlags()) return false;
  for (const flag of GC_FLAGS) setFlagsFromString(flag);
  return true;
}
