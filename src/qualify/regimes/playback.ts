/**
 * The playback regime: every known-good recording of a game replays to its recorded outcome,
 * every step of it passing replay's transition checks.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { actionName, parseAction } from '../../engine/index.js';
import type { Game } from '../../engine/index.js';
import { PACKAGE_ROOT, suiteModule } from '../../suite/index.js';
import { readRecording } from '../../recording/index.js';
import { replayRecording } from '../../recording/index.js';
import type { RegimeOutcome } from '../types.js';
import { elapsed, type RegimeContext } from './context.js';

/**
 * Where a game's recordings live: games/<id>/recordings for a suite game; for a module, its
 * folder and the folder's recordings/ (for a compiled module of this package, those of its source).
 */
export function recordingFolders(ref: string): string[] {
  if (suiteModule(ref)) return [join(PACKAGE_ROOT, 'games', ref.toLowerCase(), 'recordings')];
  const folder = dirname(resolve(ref));
  const folders = [folder];
  const fromDist = relative(join(PACKAGE_ROOT, 'dist'), folder);
  if (!fromDist.startsWith('..') && fromDist !== folder) folders.push(join(PACKAGE_ROOT, fromDist));
  return folders.flatMap((f) => [f, join(f, 'recordings')]).filter((f) => existsSync(f) && statSync(f).isDirectory());
}

export interface PlaybackOutcome {
  file: string;
  /** The level the replay ended on (or diverged on). */
  level: number;
  steps: number;
  /** Actions replayed up to and including the failing step. */
  actions: string[];
  /** Why it failed; undefined when it replayed to its recorded outcome. */
  failure?: string;
}

/** The recordings (*.jsonl) in `folders` whose game_id names `game` (or that name none). */
export function recordingsOf(game: Game, folders: readonly string[]): string[] {
  const files = new Set<string>();
  for (const folder of folders) {
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith('.jsonl')) continue;
      const path = join(folder, name);
      const recorded = recordedGameId(path);
      if (recorded === undefined || recorded.split('-')[0].toLowerCase() === game.id.toLowerCase()) files.add(path);
    }
  }
  return [...files];
}

/** The game_id on a recording's first line (cheap: recordings can be long). */
function recordedGameId(path: string): string | undefined {
  const firstLine = readFileSync(path, 'utf8').slice(0, 4096).split('\n')[0];
  return /"game_id":\s*"([^"]*)"/.exec(firstLine)?.[1];
}

/** Replays one recording; a malformed file or a refused action is a failure too. */
export function playBack(game: Game, file: string): PlaybackOutcome {
  try {
    const recording = readRecording(file);
    const result = replayRecording(game, recording);
    const last = result.lines[result.lines.length - 1];
    const level = Math.min(game.levels, (last?.levels_completed ?? 0) + (last?.state === 'WIN' ? 0 : 1));
    const upTo = result.divergence ? result.divergence.step : recording.steps.length;
    return {
      file,
      level,
      steps: result.steps,
      actions: recording.steps.slice(0, upTo).map((s) => actionName(s.action)),
      ...(result.divergence && { failure: result.divergence.message }),
    };
  } catch (err) {
    return { file, level: 1, steps: 0, actions: [], failure: (err as Error).message };
  }
}

/** Replays every recording of the game; each is attributed to the level it ends on. */
export function playbackRegime(ctx: RegimeContext, ref: string | undefined, levels: readonly number[]): Map<number, RegimeOutcome> {
  const outcomes = new Map<number, RegimeOutcome>(levels.map((l) => [l, { status: 'skipped', steps: 0, findings: 0, seconds: 0 }]));
  const files = ref ? recordingsOf(ctx.game, recordingFolders(ref)) : [];
  for (const file of files) {
    const started = performance.now();
    const p: PlaybackOutcome = playBack(ctx.game, file);
    const outcome = outcomes.get(p.level);
    if (!outcome) continue;
    outcome.steps += p.steps;
    outcome.seconds += elapsed(started);
    if (p.failure) {
      outcome.status = 'fail';
      ctx.raw.push({ regime: 'playback', check: 'playback', level: p.level, severity: 'fail', message: `${file}: ${p.failure}`, actions: p.actions.map(parseAction), file });
    } else if (outcome.status === 'skipped') outcome.status = 'pass';
  }
  return outcomes;
}
