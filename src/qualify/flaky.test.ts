import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import noncanon from '../../test/fixtures/faults/noncanon.js';
import { GameAction, inspectStep, type Action, type Game } from '../engine/index.js';
import { readRecording, replayRecording } from '../recording/index.js';
import { Camera, Canvas, Colour } from '../toolkit/index.js';
import { repeatFlaky, RESET } from './flaky.js';
import { reproduce } from './reproduce.js';

const RIGHT: Action = { id: GameAction.ACTION4 };

/** A corridor 0..6 from 0: `flaw` at cell 2 shows a quarter of the time (a stray pixel drawn, or a step right that throws). */
function corridor(flaw: 'render' | 'throw'): Game<{ pos: number }> {
  return {
    id: `flk${flaw[0]}`,
    title: 'Corridor with a flaw that comes and goes',
    levels: 1,
    tutorialLevels: 0,
    actions: [GameAction.ACTION3, GameAction.ACTION4],
    init: () => ({ pos: 0 }),
    step(s, a) {
      if (flaw === 'throw' && s.pos === 2 && a.id === GameAction.ACTION4 && Math.random() < 0.25) throw new Error('cosmic ray');
      return { pos: Math.max(0, Math.min(6, s.pos + (a.id === GameAction.ACTION4 ? 1 : -1))) };
    },
    status: (s) => (s.pos >= 6 ? 'won' : 'playing'),
    render(s) {
      const canvas = new Canvas(7, 1, Colour.LIGHT_GREY).set(s.pos, 0, Colour.BLUE);
      if (flaw === 'render' && s.pos === 2 && Math.random() < 0.25) canvas.set(6, 0, Colour.RED);
      return [new Camera(7, 1).render(canvas)];
    },
    encode: (s) => Uint8Array.of(s.pos),
    decode: (b) => ({ pos: b[0] }),
  };
}

const folder = mkdtempSync(join(tmpdir(), 'arcgraph-flaky-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('repeatFlaky', () => {
  it('repeats a reset state that differs from one reset to the next (no actions: the fault is at reset)', () => {
    // Every reset encodes differently (p = 63/64 that two differ): 3 repeats make replay's miss
    // chance (1/64)^(2*3) < 1e-9, so the empty sequence is followed by two more RESET pairs.
    expect(repeatFlaky(noncanon, 1, [])).toEqual([RESET, RESET, RESET, RESET]);
  });

  it('repeats a render or an exception that comes and goes until replay all but surely sees it, every time', async () => {
    for (const [flaw, check] of [['render', 'impure-render'], ['throw', 'exception']] as const) {
      const game = corridor(flaw);
      const actions = [RIGHT, RIGHT, ...(flaw === 'throw' ? [RIGHT] : [])];
      const recorded = repeatFlaky(game, 1, actions, check);
      // Shown in about half the plays (render: any of three renders differs) or a quarter (throw): some 27 or 64 repeats.
      expect(recorded.length / (actions.length + 2)).toBeGreaterThan(10);
      expect(recorded.slice(0, actions.length + 2)).toEqual([...actions, RESET, RESET]);
      // As qualify writes it: shrunk, repeated, played into a recording (a throw while writing ends
      // that repeat, not the recording); each replay of it sees the fault.
      let message = '';
      const pre = actions.length - 1;
      while (!message) message = inspectStep(game, { pos: pre }, Uint8Array.of(pre), RIGHT, { stepLimitMs: Infinity }).faults.find((f) => f.check === check)?.message ?? '';
      const { findings } = await reproduce(game, [{ regime: 'fuzz', check, level: 1, severity: 'fail', message, actions }], { out: folder, search: { maxNodes: 100, maxSeconds: 2 } });
      const recording = readRecording(findings[0].reproduction!);
      for (let i = 0; i < 20; i++) expect(replayRecording(game, recording).reproduced).toBe(false);
    }
  });

  it('records a fault that shows every time once', () => {
    let renders = 0;
    const plain = corridor('throw').render;
    // Every render of cell 2 differs from the one before: a fault, but not a flaky one.
    const steady = { ...corridor('render'), render: (s: { pos: number }) => (s.pos === 2 && renders++ % 2 ? corridor('throw').render({ pos: 3 }) : plain(s)) };
    expect(repeatFlaky(steady, 1, [RIGHT, RIGHT], 'impure-render')).toEqual([RIGHT, RIGHT]);
  });

  it('records a nondeterministic sequence once when playing it again throws (a Python game whose restored states behave unlike it)', () => {
    // The sequence was found nondeterministic; played again here its last step throws every time: a
    // finding with its reproduction, not an error that ends qualify.
    const broken = { ...corridor('throw'), step: (s: { pos: number }, a: Action) => (s.pos === 1 ? (() => { throw new Error('no frame'); })() : corridor('throw').step(s, a)) };
    expect(repeatFlaky(broken, 1, [RIGHT, RIGHT], 'nondeterminism')).toEqual([RIGHT, RIGHT]);
  });
});
