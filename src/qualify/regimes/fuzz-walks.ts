/**
 * The fuzz regime's worker side: seeded random walks from a level's reset state, every transition
 * inspected (src/engine/checks.ts), click classes sampled, and a sample of transitions shipped
 * back so the coordinator can step them again in another thread.
 */
import { GameAction, actionCode, type Action, type ActionCode } from '../../engine/index.js';
import type { Frame, Game } from '../../engine/index.js';
import { hash64, initIdentity } from '../../engine/index.js';
import { Rng } from '../../player/index.js';
import { IdentityFrames, clickRepresentative, inspectReset, inspectStep, sameBytes, type Check, type Fault } from '../../engine/index.js';
import { drawAction } from '../../player/index.js';

export interface FuzzTask {
  module: string;
  level: number;
  seed: number;
  /** Walk w of this task plays Rng stream `firstStream + w`. */
  firstStream: number;
  /** Steps this task plays (the last walk is cut when they are spent). */
  steps: number;
  maxWalkSteps: number;
  stepLimitMs: number;
  /** Every this many steps, every click class of the current state is sampled. */
  clickSampleEvery: number;
  /** Every this many steps, the transition is shipped back to be stepped again elsewhere. */
  crossSampleEvery: number;
  /** Int32Array view [walk, step] the coordinator watches to name a step that never returns. */
  progress?: SharedArrayBuffer;
}

/** Where a transition is: `action` played after the first `step` actions of walk `walk`. */
export interface WalkPoint {
  walk: number;
  step: number;
  action: ActionCode;
}

/** A fault at a walk point; `earlier` is the walk point of the first state with the same bytes. */
export interface FuzzFault extends WalkPoint {
  check: Check;
  message: string;
  earlier?: WalkPoint;
}

/** A transition to step again in another thread. */
export interface CrossSample {
  walk: number;
  step: number;
  action: ActionCode;
  pre: Uint8Array;
  next: Uint8Array;
}

/** Steps timed in a fuzz task (the performance profile): game step plus render, frames rendered, the slowest few. */
export interface FuzzTiming {
  steps: number;
  seconds: number;
  frames: number;
  slowest: { seconds: number; walk: number; step: number }[];
}

export interface FuzzResult {
  steps: number;
  /** Seconds the task ran in its worker. */
  seconds: number;
  walks: number;
  wins: number;
  /** The first fault of each check in this task, in the order found. */
  faults: FuzzFault[];
  /** Faults of the level's reset state (reproduced by RESET alone). */
  resetFaults: Fault[];
  samples: CrossSample[];
  timing: FuzzTiming;
}

/** Adds one timed step to `t`, keeping the five slowest. */
export function timeStep(t: FuzzTiming, seconds: number, frames: number, walk: number, step: number): void {
  t.steps++;
  t.seconds += seconds;
  t.frames += frames;
  if (t.slowest.length < 5 || seconds > t.slowest[t.slowest.length - 1].seconds) {
    t.slowest.push({ seconds, walk, step });
    t.slowest.sort((a, b) => b.seconds - a.seconds);
    t.slowest.length = Math.min(t.slowest.length, 5);
  }
}

function frameKey(layers: Frame[]): bigint {
  let h = 0n;
  for (const layer of layers) h = (h * 1_000_003n + hash64(layer)) & 0xffff_ffff_ffff_ffffn;
  return h;
}

/** Cells of each click class of `state` (two per class) that act unlike the class representative. */
function sampleClickClasses(game: Game, state: unknown, rng: Rng): { action: Action; message: string } | undefined {
  const targets = game.clickTargets!(state);
  const cells: Action[] = [];
  const cell = (x: number, y: number): Action => ({ id: GameAction.ACTION6, x: Math.min(63, Math.max(0, x)), y: Math.min(63, Math.max(0, y)) });
  for (const t of targets) for (let k = 0; k < 2; k++) cells.push(cell(t.x + rng.below(Math.max(1, t.w)), t.y + rng.below(Math.max(1, t.h))));
  for (let k = 0; k < 20 && cells.length < targets.length * 2 + 2; k++) {
    const x = rng.below(64);
    const y = rng.below(64);
    if (!targets.some((t) => x >= t.x && x < t.x + t.w && y >= t.y && y < t.y + t.h)) cells.push(cell(x, y));
  }
  const outcome = new Map<string, Uint8Array>();
  for (const click of cells) {
    const rep = clickRepresentative(game, state, click.x!, click.y!);
    const key = `${rep.x},${rep.y}`;
    let expected = outcome.get(key);
    if (!expected) {
      expected = game.encode(game.step(state, { id: GameAction.ACTION6, x: rep.x, y: rep.y }));
      outcome.set(key, expected);
    }
    if (!sameBytes(game.encode(game.step(state, click)), expected)) {
      return { action: click, message: `click (${click.x}, ${click.y}) acts unlike its class representative (${rep.x}, ${rep.y})` };
    }
  }
  return undefined;
}

/** Plays the task's walks; deterministic in the task alone, so results do not depend on the worker. */
export async function runFuzz(game: Game, task: FuzzTask): Promise<FuzzResult> {
  await initIdentity();
  const started = performance.now();
  const identity = new IdentityFrames<unknown>(hash64, frameKey);
  const progress = task.progress ? new Int32Array(task.progress) : undefined;
  const available = new Set<number>(game.actions);
  const found = new Set<Check>();
  const faults: FuzzFault[] = [];
  const samples: CrossSample[] = [];
  const resetFaults = inspectReset(game, task.level);
  const timing: FuzzTiming = { steps: 0, seconds: 0, frames: 0, slowest: [] };
  const result: FuzzResult = { steps: 0, seconds: 0, walks: 0, wins: 0, faults, resetFaults, samples, timing };
  if (resetFaults.some((f) => f.check === 'exception')) return { ...result, seconds: (performance.now() - started) / 1000 };
  const root = game.init(task.level);
  const rootBytes = game.encode(root);
  const rootLayers = game.render(root);
  const note = (fault: Fault, walk: number, step: number, action: Action): void => {
    if (found.has(fault.check)) return;
    found.add(fault.check);
    faults.push({ check: fault.check, message: fault.message, walk, step, action: actionCode(action), ...(fault.earlier !== undefined && { earlier: fault.earlier as WalkPoint }) });
  };

  let used = 0;
  for (let walk = 0; used < task.steps; walk++) {
    const rng = new Rng(task.seed, task.firstStream + walk);
    const clickRng = new Rng(task.seed ^ 0x5bd1e995, task.firstStream + walk);
    let state = root;
    let bytes = rootBytes;
    let layers = rootLayers;
    result.walks++;
    for (let n = 0; n < task.maxWalkSteps && used < task.steps; n++) {
      if (progress) {
        Atomics.store(progress, 0, walk);
        Atomics.store(progress, 1, n);
      }
      const action = drawAction(rng, game.actions, available)!;
      if (game.clickTargets && used % task.clickSampleEvery === 0 && !found.has('click-targets')) {
        try {
          const odd = sampleClickClasses(game, state, clickRng);
          if (odd) note({ check: 'click-targets', message: odd.message }, walk, n, odd.action);
        } catch {
          // a click that throws is the exception check's to report, on the walk's own steps
        }
      }
      const tag: WalkPoint = { walk, step: n, action: actionCode(action) };
      const r = inspectStep(game, state, bytes, action, { stepLimitMs: task.stepLimitMs, identity, tag, preLayers: layers });
      used++;
      timeStep(timing, (r.ms + (r.renderMs ?? 0)) / 1000, r.layers?.length ?? 0, walk, n);
      for (const fault of r.faults) note(fault, walk, n, action);
      if (used % task.crossSampleEvery === 0 && r.nextBytes) samples.push({ walk, step: n, action: actionCode(action), pre: bytes, next: r.nextBytes });
      if (!r.nextBytes || r.faults.some((f) => f.check === 'exception')) break;
      if (r.status === 'won') result.wins++;
      if (r.status === 'won' || r.status === 'lost') break;
      state = r.next;
      bytes = r.nextBytes;
      layers = r.layers!;
    }
  }
  result.steps = used;
  result.seconds = (performance.now() - started) / 1000;
  return result;
}
