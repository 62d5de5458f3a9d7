/**
 * The integrity checks of one game transition, shared by the fuzz regime (on every step it plays)
 * and by replay (on every step of a recording), so a fault the fuzzer finds is the fault replay
 * reports on its reproduction.
 */
import { rethrowInterruption } from '../errors.js';
import { CELLS, GRID, GameAction, type Action } from './actions.js';
import { STATUSES, checkedBytes, type Frame, type Game } from './game.js';

/** What a finding is about. The first eight are transition checks; the others whole regimes. */
export type Check =
  | 'exception'
  | 'invalid-frame'
  | 'malformed-transition'
  | 'nondeterminism'
  | 'impure-render'
  | 'non-canonical-identity'
  | 'click-targets'
  | 'slow-step'
  | 'out-of-memory'
  | 'random-win'
  | 'playback';

export const TRANSITION_CHECKS: readonly Check[] = ['exception', 'invalid-frame', 'malformed-transition', 'nondeterminism', 'impure-render', 'non-canonical-identity', 'click-targets', 'slow-step', 'out-of-memory'];

/** Faults whose last step is never played again on the main thread (it may not return, or may exhaust its heap). */
export const unplayable = (check: Check): boolean => check === 'slow-step' || check === 'out-of-memory';

export interface Fault {
  check: Check;
  message: string;
  /** For equal bytes rendering differently: the tag of the state seen first. */
  earlier?: unknown;
}

export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0;

/** Whether two renders are the same layers, cell for cell. */
export function sameLayers(a: Frame[], b: Frame[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (!(a[k] instanceof Uint8Array && b[k] instanceof Uint8Array && sameBytes(a[k], b[k]))) return false;
  return true;
}

/** Why `layers` is not a valid frame list (one or more 64x64 layers of colours 0..15), or undefined. */
export function frameProblem(layers: unknown): string | undefined {
  if (!Array.isArray(layers) || layers.length === 0) return 'render returned no layers';
  for (let k = 0; k < layers.length; k++) {
    const layer = layers[k] as ArrayLike<number>;
    if (layer === null || typeof layer !== 'object' || layer.length !== CELLS) return `layer ${k} has ${layer?.length ?? 'no'} cells, not 64x64 = ${CELLS}`;
    for (let c = 0; c < CELLS; c++) {
      const v = layer[c];
      if (!(v >= 0 && v <= 15 && Number.isInteger(v))) return `layer ${k} cell (${c % GRID}, ${(c / GRID) | 0}) has colour ${v}, outside 0..15`;
    }
  }
  return undefined;
}

/**
 * Remembers which frame each identity showed: two states with equal bytes must render alike,
 * or the bytes miss something the player sees. Keys are computed by the caller's hash functions.
 */
export class IdentityFrames<K> {
  private readonly seen = new Map<K, { frame: unknown; tag: unknown }>();

  constructor(
    private readonly stateKey: (bytes: Uint8Array) => K,
    private readonly frameKey: (layers: Frame[]) => unknown,
    private readonly capacity = 1 << 18,
  ) {}

  /** `tag` names where this state came from, so a fault can point back at the first one. */
  check(bytes: Uint8Array, layers: Frame[], tag?: unknown): Fault | undefined {
    const key = this.stateKey(bytes);
    const frame = this.frameKey(layers);
    const before = this.seen.get(key);
    if (before === undefined) {
      if (this.seen.size < this.capacity) this.seen.set(key, { frame, tag });
      return undefined;
    }
    if (before.frame === frame) return undefined;
    return { check: 'non-canonical-identity', message: 'two states with equal identity bytes render different frames: the bytes miss state the frame shows', earlier: before.tag };
  }
}

/** The cell that stands for the click class of (x, y) in `state`: the top-left cell of the first target holding it, else the first cell outside all targets. */
export function clickRepresentative(game: Game, state: unknown, x: number, y: number): { x: number; y: number } {
  const targets = game.clickTargets!(state);
  const inside = (t: { x: number; y: number; w: number; h: number }, cx: number, cy: number): boolean => cx >= t.x && cx < t.x + t.w && cy >= t.y && cy < t.y + t.h;
  const holder = targets.find((t) => inside(t, x, y));
  if (holder) return { x: Math.max(0, holder.x), y: Math.max(0, holder.y) };
  for (let c = 0; c < CELLS; c++) {
    const cx = c % GRID;
    const cy = (c / GRID) | 0;
    if (!targets.some((t) => inside(t, cx, cy))) return { x: cx, y: cy };
  }
  return { x, y };
}

const describeError = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export interface Inspected {
  /** The successor (undefined when the step threw). */
  next?: unknown;
  nextBytes?: Uint8Array;
  status?: unknown;
  layers?: Frame[];
  /** Milliseconds the step took. */
  ms: number;
  /** Milliseconds the first render of the successor took (the performance profile's frames). */
  renderMs?: number;
  faults: Fault[];
}

export interface InspectOptions {
  /** A step slower than this many milliseconds is a fault. */
  stepLimitMs: number;
  /** Frames by identity seen so far (for equal bytes rendering differently). */
  identity?: IdentityFrames<unknown>;
  /** Extra re-steps of the transition to compare (a flaky step differs only sometimes). */
  restep?: number;
  /** Where this transition came from, remembered by `identity`. */
  tag?: unknown;
  /** The frame of `pre`, already checked: a step that leaves the bytes unchanged must show it again. */
  preLayers?: Frame[];
}

/**
 * Steps `pre` (whose bytes are `preBytes`) with `action` and checks the transition: exception,
 * slow step, mutated input, invalid status, nondeterministic successor, invalid frame, impure
 * render, non-canonical bytes, equal bytes rendering differently, and for a click whether its
 * class representative acts alike. Every fault found is listed, in that order.
 */
export function inspectStep(game: Game, pre: unknown, preBytes: Uint8Array, action: Action, opts: InspectOptions): Inspected {
  const faults: Fault[] = [];
  const started = performance.now();
  let next: unknown;
  try {
    next = game.step(pre, action);
  } catch (err) {
    rethrowInterruption(err);
    return { ms: performance.now() - started, faults: [{ check: 'exception', message: `step threw: ${describeError(err)}` }] };
  }
  const ms = performance.now() - started;
  if (ms > opts.stepLimitMs) faults.push({ check: 'slow-step', message: `a step took ${ms.toFixed(0)} ms (limit ${opts.stepLimitMs} ms)` });
  const out: Inspected = { next, ms, faults };
  try {
    if (!sameBytes(game.encode(pre), preBytes)) faults.push({ check: 'malformed-transition', message: 'step mutated its input state (its identity bytes changed)' });
    const nextBytes = checkedBytes(game.encode(next));
    out.nextBytes = nextBytes;
    const status = game.status(next);
    out.status = status;
    if (!(STATUSES as readonly unknown[]).includes(status)) faults.push({ check: 'malformed-transition', message: `status returned ${JSON.stringify(status)}, not playing, won or lost` });
    const asked = game.status(next);
    if (asked !== status) faults.push({ check: 'nondeterminism', message: `asking the status of one state twice gave ${JSON.stringify(status)}, then ${JSON.stringify(asked)}` });
    for (let r = 0; r < (opts.restep ?? 1); r++) {
      const againState = game.step(pre, action);
      if (!sameBytes(game.encode(againState), nextBytes)) {
        faults.push({ check: 'nondeterminism', message: 'stepping the same state with the same action again gave another successor' });
        break;
      }
      if (game.status(againState) !== status) {
        faults.push({ check: 'nondeterminism', message: 'stepping the same state with the same action again gave a successor with another status' });
        break;
      }
    }
    const rendering = performance.now();
    const layers = game.render(next);
    out.renderMs = performance.now() - rendering;
    out.layers = layers;
    const bad = frameProblem(layers);
    if (bad) faults.push({ check: 'invalid-frame', message: `invalid frame: ${bad}` });
    else if (opts.preLayers && sameBytes(nextBytes, preBytes)) {
      // A step that changed nothing (by bytes): its state was checked when first reached, so one
      // render compared with the frame before the step is enough (most random clicks are these).
      if (!sameLayers(layers, opts.preLayers)) {
        faults.push(next === pre ? { check: 'impure-render', message: 'rendering the same state twice gave different frames' } : { check: 'non-canonical-identity', message: 'a step that left the identity bytes unchanged changed the frame: the bytes miss state the frame shows' });
      }
    } else {
      if (!sameLayers(game.render(next), layers)) faults.push({ check: 'impure-render', message: 'rendering the same state twice gave different frames' });
      const copy = game.decode(nextBytes);
      if (!sameBytes(game.encode(copy), nextBytes)) faults.push({ check: 'non-canonical-identity', message: 'decode(encode(state)) encodes to other bytes' });
      else if (game.status(copy) !== status) faults.push({ check: 'non-canonical-identity', message: 'a decode(encode(state)) copy has another status: status reads state the bytes do not hold' });
      else if (!sameLayers(game.render(copy), layers)) faults.push({ check: 'impure-render', message: 'a decode(encode(state)) copy renders a different frame: render reads state the bytes do not hold' });
      const seen = opts.identity?.check(nextBytes, layers, opts.tag);
      if (seen) faults.push(seen);
    }
    if (action.id === GameAction.ACTION6 && game.clickTargets) {
      const rep = clickRepresentative(game, pre, action.x!, action.y!);
      if (rep.x !== action.x || rep.y !== action.y) {
        const repBytes = game.encode(game.step(pre, { id: GameAction.ACTION6, x: rep.x, y: rep.y }));
        if (!sameBytes(repBytes, nextBytes)) faults.push({ check: 'click-targets', message: `click (${action.x}, ${action.y}) acts unlike its class representative (${rep.x}, ${rep.y})` });
      }
    }
  } catch (err) {
    rethrowInterruption(err);
    faults.push({ check: 'exception', message: `checking the step threw: ${describeError(err)}` });
  }
  return out;
}

/** Checks a level's reset state: init must be deterministic, playing, and render a valid frame. */
export function inspectReset(game: Game, level: number): Fault[] {
  try {
    const root = game.init(level);
    const bytes = checkedBytes(game.encode(root));
    if (!sameBytes(game.encode(game.init(level)), bytes)) return [{ check: 'nondeterminism', message: `init(${level}) gave two different reset states` }];
    const status = game.status(root);
    if (status !== 'playing') return [{ check: 'malformed-transition', message: `the reset state of level ${level} has status ${JSON.stringify(status)}, not playing` }];
    const bad = frameProblem(game.render(root));
    return bad ? [{ check: 'invalid-frame', message: `invalid frame of the reset state: ${bad}` }] : [];
  } catch (err) {
    rethrowInterruption(err);
    return [{ check: 'exception', message: `resetting level ${level} threw: ${describeError(err)}` }];
  }
}
