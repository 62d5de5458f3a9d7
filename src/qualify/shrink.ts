/**
 * Shortest reproductions. A fault is "at the last action of a sequence played from a level's
 * reset state"; a sequence is shrunk by cutting the cycles it walks, by delta debugging (removing
 * chunks while the fault still reproduces), and by a breadth-first search (the explorer) for the
 * shortest path to the faulty state, keeping the shortest sequence that still reproduces.
 */
import { rethrowInterruption } from '../errors.js';
import { actionFromCode, parseAction, type Action } from '../engine/index.js';
import type { Game } from '../engine/index.js';
import { fingerprint, initIdentity } from '../engine/index.js';
import { GameCrash, exploreGraph } from '../explorer/index.js';
import { bfsPath, NodeFlag } from '../graph/index.js';
import { cutCycles, inspectStep, unplayable, type Check } from '../engine/index.js';

/** Re-steps of the last transition when probing for nondeterminism (a flaky step differs only sometimes). */
const NONDETERMINISM_RESTEPS = 32;

/** The state after `prefix` from init(level), or undefined when a step throws or the level ends early. */
function playPrefix(game: Game, level: number, prefix: readonly Action[]): { state: unknown; bytes: Uint8Array } | undefined {
  try {
    let state = game.init(level);
    for (const action of prefix) {
      if (game.status(state) !== 'playing') return undefined;
      state = game.step(state, action);
    }
    if (game.status(state) !== 'playing') return undefined;
    return { state, bytes: game.encode(state) };
  } catch (err) {
    rethrowInterruption(err);
    return undefined;
  }
}

/**
 * Does `actions` show the fault `check` at its last action? (`message` pins an exception to the
 * same error, so shrinking does not wander to another crash.)
 */
export function reproduces(game: Game, level: number, check: Check, actions: readonly Action[], message?: string): boolean {
  if (actions.length === 0) return false;
  const at = playPrefix(game, level, actions.slice(0, -1));
  if (!at) return false;
  const last = actions[actions.length - 1];
  if (check === 'random-win') {
    try {
      return game.status(game.step(at.state, last)) === 'won';
    } catch (err) {
      rethrowInterruption(err);
      return false;
    }
  }
  const restep = check === 'nondeterminism' ? NONDETERMINISM_RESTEPS : 1;
  const r = inspectStep(game, at.state, at.bytes, last, { stepLimitMs: Infinity, restep });
  return r.faults.some((f) => f.check === check && (message === undefined || f.message === message));
}


/** Delta debugging (ddmin): a 1-minimal subsequence on which `test` still holds, within `budget` tests. */
export function ddmin<T>(items: readonly T[], test: (candidate: T[]) => boolean, budget = 20_000): T[] {
  let current = [...items];
  let n = 2;
  while (current.length >= 2 && budget > 0) {
    const chunk = Math.ceil(current.length / n);
    let reduced = false;
    for (let start = 0; start < current.length && budget > 0; start += chunk) {
      const complement = [...current.slice(0, start), ...current.slice(start + chunk)];
      budget--;
      if (complement.length > 0 && test(complement)) {
        current = complement;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(current.length, 2 * n);
    }
  }
  return current;
}

/** How far the breadth-first search for a shorter path may go. */
export interface SearchLimits {
  maxNodes: number;
  maxSeconds: number;
}

/** Replays of a nondeterministic fault's prefix: each may end in another state (the flaky step can be in the prefix). */
const NONDETERMINISM_REPLAYS = 16;

/**
 * Shortest paths (by the explorer's BFS over state identity) to the state before the faulty
 * action, then that action, shortest first; for a random win, a shortest win; for an exception,
 * the explorer's own shortest crash path. Empty when the search finds none within its limits. A
 * nondeterministic fault's prefix is replayed several times, and each state it ends in is a
 * target: the state where the fault shows may not be the one a single replay reaches.
 */
async function searchShortest(game: Game, level: number, check: Check, actions: readonly Action[], limits: SearchLimits): Promise<Action[][]> {
  await initIdentity();
  const targets = new Set<string>();
  if (check !== 'random-win') {
    for (let i = 0; i < (check === 'nondeterminism' ? NONDETERMINISM_REPLAYS : 1); i++) {
      const target = playPrefix(game, level, actions.slice(0, -1));
      if (!target) continue;
      const fp = fingerprint(target.bytes);
      targets.add(`${fp.lo}:${fp.hi}`);
    }
    if (targets.size === 0) return [];
  }
  try {
    const { graph } = await exploreGraph(game, { level, maxNodes: limits.maxNodes, maxSeconds: limits.maxSeconds });
    const path = (v: number): Action[] => Array.from(bfsPath(graph, v), actionFromCode);
    if (check === 'random-win') {
      // Nodes are numbered in breadth-first order: the first winning node is a nearest one.
      for (let v = 0; v < graph.nodeCount; v++) if (graph.flags[v] & NodeFlag.WON) return [path(v)];
      return [];
    }
    const found: Action[][] = [];
    for (let v = 0; v < graph.nodeCount && found.length < targets.size; v++) {
      if (targets.has(`${graph.fingerprintLo![v]}:${graph.fingerprintHi![v]}`)) found.push([...path(v), actions[actions.length - 1]]);
    }
    return found;
  } catch (err) {
    rethrowInterruption(err);
    if (err instanceof GameCrash && check === 'exception') return [err.actions.map(parseAction)];
  }
  return [];
}

/**
 * The shortest sequence found that still shows the fault at its last action: the original with
 * its cycles cut and delta-debugged, or the breadth-first path, whichever is shorter.
 */
export async function shrink(game: Game, level: number, check: Check, actions: readonly Action[], limits: SearchLimits, message?: string): Promise<Action[]> {
  // A slow step may never return (an allocation may not end): only its prefix is ever played again, to cut its cycles.
  if (unplayable(check)) return cutCycles(game, level, actions);
  // Delta debugging replays prefixes from the reset state: bounded in time too (a real ARC game's
  // steps are requests to its Python process, about a millisecond each).
  const test = (candidate: Action[]): boolean => reproduces(game, level, check, candidate, message);
  const shrunk = (): ((candidate: Action[]) => boolean) => {
    const deadline = performance.now() + limits.maxSeconds * 1000;
    return (candidate) => performance.now() < deadline && test(candidate);
  };
  // A nondeterministic game may not replay the original prefix to the same state (it can pass
  // through the flaky step itself): its cycle-cut form, or the search's path, may still reproduce.
  const cut = cutCycles(game, level, actions);
  const base = [cut, [...actions]].find(test);
  const candidates: Action[][] = base ? [ddmin(base, shrunk())] : [];
  const found = (await searchShortest(game, level, check, base ?? actions, limits)).find(test);
  if (found) candidates.push(ddmin(found, shrunk()));
  if (candidates.length === 0) return [...actions];
  return candidates.reduce((best, c) => (c.length < best.length ? c : best));
}
