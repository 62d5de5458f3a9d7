import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import boom from '../../test/fixtures/boom.js';
import lights from '../../test/fixtures/lights.js';
import ruin, { RUIN_LEVELS } from '../../test/fixtures/ruin.js';
import { ACTION_NAMES, GRID, GameAction, type Action } from '../engine/actions.js';
import { InputError } from '../errors.js';
import { parseRecording, readRecording } from './read.js';
import { replayRecording } from './replay.js';
import { recordActions, recordingText, writeRecording, type RecordedFrameData } from './write.js';

const dir = mkdtempSync(join(tmpdir(), 'arcgraph-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RIGHT: Action = { id: GameAction.ACTION4 };
const LEFT: Action = { id: GameAction.ACTION3 };
const click = (x: number, y: number): Action => ({ id: GameAction.ACTION6, x, y });
/** The ruin corridor won level after level: n - start steps right each. */
const ruinWins = (levels: number): Action[] => RUIN_LEVELS.slice(0, levels).flatMap((l) => Array.from({ length: l.n - l.start }, () => RIGHT));
/** Lights: the centre, then two opposite corners (the fixture's documented solutions). */
const lightsWin: Action[] = [click(31, 31), click(15, 15), click(49, 49)];

/** The arc-agi toolkit style of the same session: action names, {x, y} data, frames only where asked. */
function toolkitText(lines: RecordedFrameData[], keepFrame: (i: number) => boolean): string {
  return lines
    .map((d, i) => {
      const data: Record<string, unknown> = {
        game_id: d.game_id,
        state: d.state,
        levels_completed: d.levels_completed,
        win_levels: d.win_levels,
        action_input: { id: ACTION_NAMES[d.action_input.id], data: d.action_input.data },
        guid: d.guid,
        full_reset: d.full_reset,
        available_actions: d.available_actions,
      };
      if (keepFrame(i)) data.frame = d.frame;
      return JSON.stringify({ timestamp: new Date(0).toISOString(), data }) + '\n';
    })
    .join('');
}

describe('writeRecording', () => {
  it('writes one compact {timestamp, data} line per step, RESET first, and returns the outcome', () => {
    const path = join(dir, 'ruin.test.1.win.recording.jsonl');
    const actions = ruinWins(6);
    expect(writeRecording(path, ruin, actions)).toEqual({ state: 'WIN', levels_completed: 6 });
    const text = readFileSync(path, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(actions.length + 1);
    expect(text).not.toMatch(/": |, /);
    const first = JSON.parse(lines[0]);
    expect(Object.keys(first)).toEqual(['timestamp', 'data']);
    expect(new Date(first.timestamp).toISOString()).toBe(first.timestamp);
    expect(first.data).toMatchObject({ game_id: 'ruin', state: 'NOT_FINISHED', action_input: { id: 0, data: {} }, full_reset: true, win_levels: 6 });
    expect(first.data.frame[0]).toHaveLength(GRID);
    expect(first.data.frame[0][0]).toHaveLength(GRID);
    const guids = new Set(lines.map((l) => JSON.parse(l).data.guid));
    expect(guids.size).toBe(1);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves no file at all when a step fails (unavailable action, crashing game, missing folder)', () => {
    const before = readdirSync(dir).sort();
    expect(() => writeRecording(join(dir, 'a.recording.jsonl'), ruin, [RIGHT, { id: GameAction.ACTION1 }])).toThrow('ACTION1 is not available');
    const crash = [GameAction.ACTION1, GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION2].map((id) => ({ id }) as Action);
    expect(() => writeRecording(join(dir, 'b.recording.jsonl'), boom, crash)).toThrow('boom');
    expect(() => writeRecording(join(dir, 'missing', 'c.recording.jsonl'), ruin, [RIGHT])).toThrow();
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});

describe('record then replay', () => {
  it('reproduces an Agents-style recording of a whole game', () => {
    const path = join(dir, 'ruin.roundtrip.recording.jsonl');
    writeRecording(path, ruin, [...ruinWins(2), LEFT, { id: GameAction.RESET }, ...ruinWins(6).slice(ruinWins(2).length)]);
    const recording = readRecording(path);
    expect(recording.style).toBe('agents');
    expect(recording.gameId).toBe('ruin');
    const result = replayRecording(ruin, recording);
    expect(result).toMatchObject({ reproduced: true, outcome: { state: 'WIN', levels_completed: 6 }, steps: recording.steps.length });
    expect(result.lines.map((l) => [l.state, l.levels_completed, l.full_reset])).toEqual(recording.steps.map((s) => [s.state, s.levelsCompleted, s.fullReset]));
  });

  it('reproduces the toolkit style (action names, clicks as {x, y}), with or without frames', () => {
    const { lines, outcome } = recordActions(lights, lightsWin);
    expect(outcome).toEqual({ state: 'WIN', levels_completed: 2 });
    for (const keep of [() => true, () => false, (i: number) => i % 2 === 0]) {
      const recording = parseRecording(toolkitText(lines, keep), 'lights.jsonl');
      expect(recording.style).toBe('toolkit');
      expect(recording.steps.map((s) => s.action)).toEqual([{ id: 0 }, ...lightsWin]);
      const result = replayRecording(lights, recording);
      expect(result.reproduced).toBe(true);
      expect(result.outcome).toEqual(outcome);
      // the replay, written in the Agents style, is itself a faithful recording
      const again = replayRecording(lights, parseRecording(recordingText(result.lines), 'again.jsonl'));
      expect(again.reproduced).toBe(true);
    }
  });

  it('starts a recording without a leading RESET from the reset state', () => {
    const { lines } = recordActions(ruin, ruinWins(1));
    const recording = parseRecording(toolkitText(lines.slice(1), () => true), 'no-reset.jsonl');
    expect(replayRecording(ruin, recording)).toMatchObject({ reproduced: true, steps: 2, outcome: { levels_completed: 1 } });
  });

  it('replays a session begun at a later level (its first RESET reports the earlier levels completed)', () => {
    const { lines, outcome } = recordActions(ruin, [RIGHT, { id: GameAction.RESET }, { id: GameAction.RESET }, ...ruinWins(4).slice(-3)], { startLevel: 4 });
    expect(outcome).toEqual({ state: 'NOT_FINISHED', levels_completed: 4 });
    expect(replayRecording(ruin, parseRecording(recordingText(lines), 'late.jsonl'))).toMatchObject({ reproduced: true, outcome });
  });

  it('accepts a final scorecard line', () => {
    const { lines } = recordActions(ruin, ruinWins(1));
    const text = recordingText(lines) + JSON.stringify({ timestamp: 'x', data: { card_id: 'c', score: 1 } }) + '\n';
    const recording = parseRecording(text, 'card.jsonl');
    expect(recording.scorecard).toEqual({ card_id: 'c', score: 1 });
    expect(recording.steps).toHaveLength(lines.length);
    // written back last, as it was
    const again = recordingText(lines, undefined, { timestamp: recording.scorecardTimestamp, data: recording.scorecard });
    expect(again.trimEnd().split('\n').at(-1)).toBe('{"timestamp":"x","data":{"card_id":"c","score":1}}');
    expect(parseRecording(again, 'again.jsonl').scorecard).toEqual({ card_id: 'c', score: 1 });
  });
});

describe('divergence', () => {
  const { lines } = recordActions(ruin, ruinWins(3));
  const tampered = (step: number, change: (d: RecordedFrameData) => void): string => {
    const copy = lines.map((l) => structuredClone(l));
    change(copy[step - 1]);
    return recordingText(copy);
  };

  it('names the first step whose state or level count differs', () => {
    const r1 = replayRecording(ruin, parseRecording(tampered(3, (d) => (d.levels_completed = 2)), 'r.jsonl'));
    expect(r1.reproduced).toBe(false);
    expect(r1.divergence).toMatchObject({ step: 3, line: 3, action: 'ACTION4', field: 'levels_completed', recorded: 2, replayed: 1 });
    const r2 = replayRecording(ruin, parseRecording(tampered(5, (d) => (d.state = 'GAME_OVER')), 'r.jsonl'));
    expect(r2.divergence).toMatchObject({ step: 5, field: 'state', recorded: 'GAME_OVER', replayed: 'NOT_FINISHED' });
    // the replay still runs to the end
    expect(r2.steps).toBe(lines.length);
  });

  it('names the first differing frame cell', () => {
    const r = replayRecording(ruin, parseRecording(tampered(2, (d) => (d.frame[0][40][17] = 15)), 'r.jsonl'));
    expect(r.divergence?.field).toBe('frame');
    expect(r.divergence?.message).toContain('(17, 40)');
    const layers = replayRecording(ruin, parseRecording(tampered(3, (d) => d.frame.pop()), 'r.jsonl'));
    expect(layers.divergence?.message).toContain('1 layer(s) recorded, 2 replayed');
  });

  it('names the first step whose available_actions differ, the actions that differ by name', () => {
    const r = replayRecording(ruin, parseRecording(tampered(3, (d) => (d.available_actions = [4, 5])), 'r.jsonl'));
    expect(r.divergence).toMatchObject({ step: 3, line: 3, action: 'ACTION4', field: 'available_actions', recorded: [4, 5], replayed: [3, 4] });
    expect(r.divergence?.message).toBe('step 3 (line 3, ACTION4): available_actions recorded [ACTION4, ACTION5], replayed [ACTION3, ACTION4]: ACTION5 recorded but not available in the replay; ACTION3 available in the replay but not recorded');
    // A list is a set of actions: another order, or names (the toolkit style), is no divergence.
    expect(replayRecording(ruin, parseRecording(tampered(3, (d) => (d.available_actions = [4, 3])), 'r.jsonl')).reproduced).toBe(true);
    const named = tampered(3, () => {}).replaceAll('"available_actions":[3,4]', '"available_actions":["ACTION3","ACTION4"]');
    expect(replayRecording(ruin, parseRecording(named, 'r.jsonl')).reproduced).toBe(true);
  });

  it('reports a blank line count correctly (line numbers are file lines)', () => {
    const text = tampered(4, (d) => (d.full_reset = true)).replace('\n', '\n\n');
    expect(replayRecording(ruin, parseRecording(text, 'r.jsonl')).divergence).toMatchObject({ step: 4, line: 5, field: 'full_reset' });
  });

  it('reports a game that throws as a divergence of kind crash', () => {
    const { lines: boomLines } = recordActions(boom, [GameAction.ACTION1, GameAction.ACTION1, GameAction.ACTION2].map((id) => ({ id }) as Action));
    const extra = structuredClone(boomLines[3]);
    const r = replayRecording(boom, parseRecording(recordingText([...boomLines, extra]), 'boom.jsonl'));
    expect(r.divergence).toMatchObject({ step: 5, field: 'crash' });
    expect(r.divergence?.message).toContain('counter overflow');
    expect(r.steps).toBe(4);
  });
});

describe('actions after GAME_OVER or WIN (recordings made against the ARC API hold them)', () => {
  const RESET: Action = { id: GameAction.RESET };
  // Level 1 won, then level 2 (cell 2 of 5) lost by two steps left: GAME_OVER with one level completed.
  const lostActions = [...ruinWins(1), LEFT, LEFT];
  const lost = recordActions(ruin, lostActions).lines;
  const levelReset = recordActions(ruin, [...lostActions, RESET]).lines.at(-1)!;
  const won = recordActions(ruin, ruinWins(6)).lines;
  const fullReset = recordActions(ruin, [...ruinWins(6), RESET]).lines.at(-1)!;
  const right = { id: GameAction.ACTION4, data: {} };
  /** The engine's answer (perform_action): no frame, the state unchanged, levels_completed and win_levels 0, no full reset. */
  const engineAnswer = (after: RecordedFrameData, action: RecordedFrameData['action_input']): RecordedFrameData => ({ ...structuredClone(after), action_input: action, frame: [], levels_completed: 0, win_levels: 0, full_reset: false });

  it('replays one after GAME_OVER as the engine answers it: no frame, the state unchanged, RESET still resetting the level', () => {
    expect(lost.at(-1)).toMatchObject({ state: 'GAME_OVER', levels_completed: 1 });
    const text = recordingText([...lost, engineAnswer(lost.at(-1)!, right), engineAnswer(lost.at(-1)!, { id: GameAction.ACTION1, data: {} }), levelReset]);
    const r = replayRecording(ruin, parseRecording(text, 'over.jsonl'));
    expect(r.divergence).toBeUndefined();
    expect(r).toMatchObject({ reproduced: true, steps: lost.length + 3, outcome: { state: 'NOT_FINISHED', levels_completed: 1 } });
    // The replay writes the session's counts; written again, it still reproduces.
    expect(r.lines.slice(-3, -1).map((l) => [l.state, l.frame.length, l.levels_completed, l.win_levels, l.full_reset])).toEqual([
      ['GAME_OVER', 0, 1, 6, false],
      ['GAME_OVER', 0, 1, 6, false],
    ]);
    expect(replayRecording(ruin, parseRecording(recordingText(r.lines), 'again.jsonl')).reproduced).toBe(true);
  });

  it('replays one after WIN alike (the RESET after it is a full reset)', () => {
    const text = recordingText([...won, engineAnswer(won.at(-1)!, right), fullReset]);
    const r = replayRecording(ruin, parseRecording(text, 'win.jsonl'));
    expect(r.divergence).toBeUndefined();
    expect(r).toMatchObject({ reproduced: true, outcome: { state: 'NOT_FINISHED', levels_completed: 0 } });
    expect(r.lines.at(-2)).toMatchObject({ state: 'WIN', frame: [], levels_completed: 6 });
  });

  it('diverges where the recording says such an action did something', () => {
    const after = (change: (d: RecordedFrameData) => void) => {
      const line = engineAnswer(lost.at(-1)!, right);
      change(line);
      return replayRecording(ruin, parseRecording(recordingText([...lost, line]), 'r.jsonl')).divergence;
    };
    const step = lost.length + 1;
    expect(after((d) => (d.frame = structuredClone(lost.at(-1)!.frame)))).toMatchObject({ step, field: 'frame', message: `step ${step} (line ${step}, ACTION4): frame has 1 layer(s) recorded, 0 replayed` });
    expect(after((d) => (d.state = 'NOT_FINISHED'))).toMatchObject({ step, field: 'state', recorded: 'NOT_FINISHED', replayed: 'GAME_OVER' });
    // Neither the engine's 0 nor the session's 1.
    expect(after((d) => (d.levels_completed = 3))).toMatchObject({ step, field: 'levels_completed', recorded: 3, replayed: 1 });
    expect(after((d) => (d.full_reset = true))).toMatchObject({ step, field: 'full_reset' });
  });
});

describe('unavailable actions (the reference agent sends them)', () => {
  // ruin's actions are ACTION3 and ACTION4: ACTION1 and a click are unavailable.
  const [reset, right] = recordActions(ruin, [RIGHT]).lines;
  /** What the engine answers: the state unchanged, its frame, no full reset. */
  const noop = (action: RecordedFrameData['action_input'], after: RecordedFrameData): RecordedFrameData => ({ ...structuredClone(after), action_input: action, full_reset: false });
  const up = { id: GameAction.ACTION1, data: {} };
  const clickAt = { id: GameAction.ACTION6, data: { x: 3, y: 4 } };

  it('replays one as a step that leaves the state unchanged, its recorded fields checked', () => {
    const text = recordingText([reset, noop(up, reset), noop(clickAt, reset), right, noop(up, right)]);
    const r = replayRecording(ruin, parseRecording(text, 'noop.jsonl'));
    expect(r).toMatchObject({ reproduced: true, steps: 5 });
    expect(r.lines.map((l) => l.action_input.id)).toEqual([0, 1, 6, 4, 1]);
    expect(r.lines[4].frame).toEqual(right.frame);
  });

  it('counts it as an action for RESET: a RESET after it resets the level, not the game', () => {
    const levelReset = { ...structuredClone(reset), full_reset: false };
    expect(replayRecording(ruin, parseRecording(recordingText([reset, noop(up, reset), levelReset]), 'r.jsonl')).reproduced).toBe(true);
    const claimsFull = replayRecording(ruin, parseRecording(recordingText([reset, noop(up, reset), reset]), 'r.jsonl'));
    expect(claimsFull.divergence).toMatchObject({ step: 3, field: 'full_reset', recorded: true, replayed: false });
  });

  it('diverges where the recording says it changed the state', () => {
    const r = replayRecording(ruin, parseRecording(recordingText([reset, { ...noop(up, right) }]), 'r.jsonl'));
    expect(r.divergence).toMatchObject({ step: 2, line: 2, action: 'ACTION1', field: 'frame' });
  });
});

describe('malformed recordings', () => {
  const good = recordingText(recordActions(lights, lightsWin.slice(0, 1)).lines);
  const bad = (text: string) => () => parseRecording(text, 'f.jsonl');

  it.each([
    ['a truncated last line', good.slice(0, good.length - 200), /^f\.jsonl:2: not valid JSON/],
    ['a line that is not JSON', good + 'oops\n', /^f\.jsonl:3: not valid JSON/],
    ['a line without data', good + '{"timestamp":"t"}\n', /^f\.jsonl:3: expected an object/],
    ['an unknown action id', good.replace('"id":0', '"id":9'), /^f\.jsonl:1: action_input.id must be/],
    ['an unknown action name', good.replace('"id":0', '"id":"JUMP"'), /^f\.jsonl:1: action_input.id must be/],
    ['a click outside 0..63', good.replace('"x":31', '"x":64'), /^f\.jsonl:2: click outside the grid/],
    ['a click without a cell', good.replace('"data":{"x":31,"y":31}', '"data":{}'), /^f\.jsonl:2: ACTION6 needs/],
    ['a click with string coordinates', good.replace('"data":{"x":31,"y":31}', '"data":{"x":"2","y":"29"}'), /^f\.jsonl:2: ACTION6 x and y must be integers, got x "2", y "29"$/],
    ['a click with a fractional coordinate', good.replace('"data":{"x":31,"y":31}', '"data":{"x":1.5,"y":2}'), /^f\.jsonl:2: ACTION6 x and y must be integers, got x 1\.5, y 2$/],
    ['a game_id that changes mid-file', good.replace(/("game_id":")lite(".*\n.*"game_id":")lite/, '$1lite$2lp85'), /^f\.jsonl:2: game_id "lp85" differs from "lite" of line 1$/],
    ['an unknown state', good.replace('"state":"NOT_FINISHED"', '"state":"DONE"'), /^f\.jsonl:1: state must be one of/],
    ['a negative level count', good.replace('"levels_completed":0', '"levels_completed":-1'), /^f\.jsonl:1: levels_completed must be/],
    ['available actions that are not a list', good.replace('"available_actions":[6]', '"available_actions":6'), /^f\.jsonl:1: available_actions must be a list of action ids$/],
    ['an unknown available action', good.replace('"available_actions":[6]', '"available_actions":[6,9]'), /^f\.jsonl:1: available_actions\[1\] must be 0\.\.7 or one of .*, got 9$/],
    ['a frame row too short', good.replace('[5,5,5,', '[5,5,'), /^f\.jsonl:1: frame layer 0 row 0 must have 64 cells/],
    ['a colour out of range', good.replace('[5,5,5,', '[16,5,5,'), /^f\.jsonl:1: frame layer 0 cell \(0, 0\) must be a colour/],
    ['a step after the scorecard', good.replace('\n', '\n{"timestamp":"t","data":{"score":1}}\n'), /^f\.jsonl:3: a step follows the scorecard of line 2/],
    ['no steps', '\n\n', /^f\.jsonl: the recording has no steps/],
  ])('rejects %s with an InputError naming the line', (_what, text, message) => {
    expect(bad(text)).toThrow(InputError);
    expect(bad(text)).toThrow(message);
  });

  it('reports a missing file as an InputError', () => {
    expect(() => readRecording(join(dir, 'nope.jsonl'))).toThrow(/cannot read recording .*nope\.jsonl: ENOENT/);
  });
});
