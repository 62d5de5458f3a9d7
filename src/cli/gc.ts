/**
 * The garbage collector a command's worker threads run with. Where the workers fill every core,
 * V8's parallel collector hands its work to helper threads that wait for a busy core: `node
 * --single-threaded-gc` gave +9-11% on bx19:2 (1M states) at 1 and 2 workers when it was first
 * measured. V8 takes that flag only on node's command line (set at run time, it aborts the
 * process), which `npx arcgraph` does not give; most collector flags it implies can be set at run
 * time, before the first worker starts. All but one: without concurrent marking the main thread
 * held on to memory (bx19 level 3 to 20M states, 8 workers on 2 cores: peak 2.49-2.51 GB against
 * 1.87-2.01 GB, no faster), so it stays on. These gave +6% with the same peak (2026-11-26: that
 * exploration 45.1 -> 42.5 s, 2.01 -> 1.96 GB; bx19:2 to 1M at 2 workers, 4 interleaved pairs,
 * medians 1.55M -> 1.64M transitions/s). Others it implies (parallel marking) abort the process
 * when set at run time, so only these, and only on the Node.js major where they were tried.
 */
import { setFlagsFromString } from 'node:v8';

const GC_FLAGS = ['--no-parallel-scavenge', '--no-concurrent-sweeping', '--no-parallel-compaction', '--no-concurrent-array-buffer-sweeping', '--no-parallel-pointer-update'];

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
