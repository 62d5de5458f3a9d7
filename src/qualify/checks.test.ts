import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import maze from '../../test/fixtures/maze.js';
import ruin from '../../test/fixtures/ruin.js';
import easy from '../../test/fixtures/easy.js';
import flaky from '../../test/fixtures/flaky.js';
import { GameAction, type Action } from '../engine/actions.js';
import { blankFrame, type Game } from '../engine/game.js';
import { runWalks } from '../random/walk.js';
import { recordActions, recordingText } from '../recording/write.js';
import { IdentityFrames, frameProblem, inspectReset, inspectStep, type Check } from '../engine/checks.js';
import { playEpisode } from '../player/episodes.js';
import { playBack, recordingsOf } from './regimes/playback.js';
import { ddmin, reproduces, shrink } from './shrink.js';
import { cutCycles } from '../engine/cycles.js';

const dir = mkdtempSync(join(tmpdir(), 'arcgraph-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RIGHT: Action = { id: GameAction.ACTION4 };
const LEFT: Action = { id: GameAction.ACTION3 };
const UP: Action = { id: GameAction.ACTION1 };
const DOWN: Action = { id: GameAction.ACTION2 };

/** A one-counter game; `bug` replaces one member to plant a fault. */
function counter(bug: Partial<Game<{ n: number; shown?: number }>> = {}): Game<{ n: number; shown?: number }> {
  return {
    id: 'cntr',
    title: 'counter',
    levels: 1,
    tutorialLevels: 0,
    actions: [GameAction.ACTION1],
    init: () => ({ n: 0 }),
    step: (s) => ({ n: s.n + 1 }),
    status: (s) => (s.n >= 9 ? 'won' : 'playing'),
    render: (s) => [blankFrame(s.n)],
    encode: (s) => Uint8Array.of(s.n),
    decode: (b) => ({ n: b[0] }),
    ...bug,
  };
}

const checksOf = (game: Game, state = game.init(1)): Check[] => inspectStep(game, state, game.encode(state), UP, { stepLimitMs: Infinity }).faults.map((f) => f.check);

describe('transition checks', () => {
  it('pass a sound game', () => {
    expect(checksOf(counter())).toEqual([]);
    expect(inspectReset(counter(), 1)).toEqual([]);
  });

  it('name each planted fault', () => {
    expect(checksOf(counter({ step: () => { throw new Error('x'); } }))).toEqual(['exception']);
    expect(checksOf(counter({ step: (s) => { s.n++; return { n: s.n }; } }))).toContain('malformed-transition');
    expect(checksOf(counter({ status: () => 'done' as never }))).toEqual(['malformed-transition']);
    let calls = 0;
    expect(checksOf(counter({ step: (s) => ({ n: s.n + 1 + (calls++ % 2) }) }))).toEqual(['nondeterminism']);
    expect(checksOf(counter({ render: (s) => [blankFrame(s.n), new Uint8Array(10)] }))).toEqual(['invalid-frame']);
    expect(checksOf(counter({ render: () => [] }))).toEqual(['invalid-frame']);
    let frames = 0;
    expect(checksOf(counter({ render: () => [blankFrame(frames++ % 2)] }))).toEqual(['impure-render']);
    // `shown` is drawn but not encoded: the decoded copy renders otherwise.
    expect(checksOf(counter({ step: (s) => ({ n: s.n + 1, shown: 3 }), render: (s) => [blankFrame(s.shown ?? 0)] }))).toEqual(['impure-render']);
    expect(checksOf(counter({ decode: (b) => ({ n: b[0] + 1 }) }))).toEqual(['non-canonical-identity']);
  });

  it('check a step that leaves the bytes unchanged against the frame before it', () => {
    // The step keeps n but changes `shown`, which render draws and encode leaves out.
    const hidden = counter({ step: (s) => ({ n: s.n, shown: (s.shown ?? 0) + 1 }), render: (s) => [blankFrame(s.shown ?? 0)] });
    const root = hidden.init(1);
    const preLayers = hidden.render(root);
    const faults = inspectStep(hidden, root, hidden.encode(root), UP, { stepLimitMs: Infinity, preLayers }).faults;
    expect(faults.map((f) => f.check)).toEqual(['non-canonical-identity']);
    const still = counter({ step: (s) => s });
    expect(inspectStep(still, root, still.encode(root), UP, { stepLimitMs: Infinity, preLayers: still.render(root) }).faults).toEqual([]);
  });

  it('validate frames: size, layers and colours', () => {
    expect(frameProblem([blankFrame(15)])).toBeUndefined();
    expect(frameProblem([])).toMatch(/no layers/);
    const bad = blankFrame(0);
    bad[64 * 5 + 7] = 16;
    expect(frameProblem([blankFrame(1), bad])).toBe('layer 1 cell (7, 5) has colour 16, outside 0..15');
    expect(frameProblem([new Uint8Array(63 * 64)])).toMatch(/4032 cells/);
  });

  it('remember frames by identity: equal bytes must render alike', () => {
    const identity = new IdentityFrames<string>((b) => b.join(','), (layers) => layers[0][0]);
    expect(identity.check(Uint8Array.of(1), [blankFrame(2)], 'first')).toBeUndefined();
    expect(identity.check(Uint8Array.of(1), [blankFrame(2)], 'again')).toBeUndefined();
    expect(identity.check(Uint8Array.of(1), [blankFrame(3)], 'other')).toMatchObject({ check: 'non-canonical-identity', earlier: 'first' });
  });

  it('check the reset state', () => {
    expect(inspectReset(counter({ status: () => 'won' }), 1)).toMatchObject([{ check: 'malformed-transition' }]);
    let k = 0;
    expect(inspectReset(counter({ init: () => ({ n: k++ }) }), 1)).toMatchObject([{ check: 'nondeterminism' }]);
  });
});

describe('shrinking', () => {
  it('ddmin finds the 1-minimal subsequence a test needs', () => {
    const items = Array.from({ length: 40 }, (_, i) => i);
    const needs = (c: number[]): boolean => c.includes(3) && c.includes(17) && c.includes(31);
    let tests = 0;
    expect(ddmin(items, (c) => (tests++, needs(c)))).toEqual([3, 17, 31]);
    expect(tests).toBeLessThan(200);
  });

  it('cutCycles removes the loops of a walk and keeps its end state and last action', () => {
    // Maze level 1: right, left, right, left, down... loops back to the start twice.
    const walk = [RIGHT, LEFT, RIGHT, LEFT, DOWN, UP, DOWN, DOWN, RIGHT];
    const cut = cutCycles(maze, 1, walk);
    const end = (actions: Action[]) => actions.slice(0, -1).reduce((s, a) => maze.step(s, a), maze.init(1));
    expect(cut).toEqual([DOWN, DOWN, RIGHT]);
    expect(end(cut)).toEqual(end(walk));
  });

  it('a nondeterministic step shrinks to its shortest path even when replaying the walk passes the flaky step again', async () => {
    // From 3, right reaches 4, where right jumps to 5 or (winning) 6. The walk went 3 4 5 4 3 4 and
    // showed the fault at its last step; a replay of its prefix wins at its second step half the time.
    const walk = [RIGHT, RIGHT, LEFT, LEFT, RIGHT, RIGHT];
    for (let i = 0; i < 20; i++) expect(await shrink(flaky, 1, 'nondeterminism', walk, { maxNodes: 1000, maxSeconds: 10 })).toEqual([RIGHT, RIGHT]);
  });

  it('a win reproduces only when its last action wins', () => {
    expect(reproduces(ruin, 2, 'random-win', [RIGHT, RIGHT, RIGHT])).toBe(true);
    expect(reproduces(ruin, 2, 'random-win', [RIGHT, RIGHT])).toBe(false);
    // Level 2 of ruin starts at 2 of 5: the prefix loses before the end.
    expect(reproduces(ruin, 2, 'random-win', [LEFT, LEFT, RIGHT])).toBe(false);
  });
});

describe('episodes played again', () => {
  it('match the random walks step for step', () => {
    const task = { module: '', level: 2, policy: 'reference' as const, seed: 7, first: 0, count: 60, maxAttemptSteps: 50 };
    const walks = runWalks(easy, task);
    for (let i = 0; i < task.count; i++) {
      const e = playEpisode(easy, task.level, task.policy, task.seed, i, task.maxAttemptSteps);
      expect(e.steps).toBe(walks.steps[i]);
      expect(['', 'won', 'lost', 'cut'][walks.end[i]]).toBe(e.end);
      // Only available actions are kept: the reference agent's other keys are no-ops.
      expect(e.actions.every((a) => easy.actions.includes(a.id as never))).toBe(true);
    }
  });
});

describe('playback', () => {
  it('replays the recordings of the game, and fails a tampered one', () => {
    const good = recordActions(ruin, [RIGHT, RIGHT]).lines;
    const tampered = structuredClone(good);
    tampered[2].state = 'WIN';
    writeFileSync(join(dir, 'ruin.good.1.a.recording.jsonl'), recordingText(good));
    writeFileSync(join(dir, 'ruin.bad.1.b.recording.jsonl'), recordingText(tampered));
    writeFileSync(join(dir, 'ezwn.other.1.c.recording.jsonl'), recordingText(recordActions(easy, [RIGHT]).lines));
    const files = recordingsOf(ruin, [dir]);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(['ruin.bad.1.b.recording.jsonl', 'ruin.good.1.a.recording.jsonl']);
    const [bad, fine] = files.map((f) => playBack(ruin, f));
    expect(fine).toMatchObject({ level: 2, steps: 3 });
    expect(fine.failure).toBeUndefined();
    expect(bad.failure).toMatch(/step 3 .*state recorded "WIN", replayed "NOT_FINISHED"/);
    expect(bad.actions).toEqual(['RESET', 'ACTION4', 'ACTION4']);
  });
});
