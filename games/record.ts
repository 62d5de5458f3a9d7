/**
 * Writes the known-good recordings of a game: for each level k, a breadth-first search over
 * canonical state identity from init(k) finds a shortest win and a shortest loss, and
 * games/<id>/recordings/ receives
 * - `<id>.shortest-win.<k>.<uuid>.recording.jsonl`: RESET, then the wins of levels 1..k (a full
 *   reset starts at level 1);
 * - `<id>.shortest-loss.<k>.<uuid>.recording.jsonl`: the wins of levels 1..k-1, then the shortest
 *   way to game over on level k (absent when level k cannot be lost).
 * The uuid is derived from the actions, so an unchanged solution rewrites the same file.
 *
 *   node dist/games/record.js <game-id-or-module> [--max-nodes N] [--out DIR]
 *
 * The search is small and single-threaded on purpose; the explorer's library will replace it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GameAction, actionCode, actionFromCode, actionName, type Action, type ActionCode } from '../src/engine/actions.js';
import { clickClasses, type Game } from '../src/engine/game.js';
import { hash64, initIdentity } from '../src/engine/identity.js';
import { InputError, PACKAGE_ROOT, loadGame } from '../src/engine/loader.js';
import { writeRecording, type RecordingOutcome } from '../src/recording/write.js';

const DEFAULT_MAX_NODES = 3_000_000;

interface LevelSearch {
  /** Shortest action sequence from init(level) to a won state, if one was found. */
  win?: Action[];
  /** Shortest action sequence from init(level) to a lost state, if one was found. */
  loss?: Action[];
  nodes: number;
  /** True when the node cap stopped the search before both were found. */
  capped: boolean;
}

/** The moves tried from a state: the keyboard actions, and one click per click class. */
function moves(game: Game, state: unknown): ActionCode[] {
  const codes: ActionCode[] = [];
  for (const id of game.actions) {
    if (id !== GameAction.ACTION6) codes.push(id);
    else for (const c of clickClasses(game, state)) codes.push(actionCode({ id, x: c.x, y: c.y }));
  }
  return codes;
}

/** Breadth-first search from init(level); terminal states are not expanded. */
function searchLevel(game: Game, level: number, maxNodes: number): LevelSearch {
  const root = game.init(level);
  const seen = new Map<bigint, number>([[hash64(game.encode(root)), 0]]);
  const parent: number[] = [-1];
  const via: ActionCode[] = [0];
  // the states still to expand (never terminal ones) and their node numbers
  const open: unknown[] = [root];
  const openNode: number[] = [0];
  const path = (node: number): Action[] => {
    const actions: Action[] = [];
    for (let n = node; n > 0; n = parent[n]) actions.push(actionFromCode(via[n]));
    return actions.reverse();
  };
  const result: LevelSearch = { nodes: 1, capped: false };
  const rootStatus = game.status(root);
  if (rootStatus !== 'playing') return { ...result, [rootStatus === 'won' ? 'win' : 'loss']: [] };
  for (let head = 0; head < open.length; head++) {
    const state = open[head];
    open[head] = undefined; // expanded: let the state go
    for (const code of moves(game, state)) {
      const next = game.step(state, actionFromCode(code));
      const key = hash64(game.encode(next));
      if (seen.has(key)) continue;
      if (seen.size >= maxNodes) return { ...result, nodes: seen.size, capped: true };
      const node = seen.size;
      seen.set(key, node);
      parent.push(openNode[head]);
      via.push(code);
      const status = game.status(next);
      if (status === 'playing') {
        open.push(next);
        openNode.push(node);
      }
      if (status === 'won') result.win ??= path(node);
      if (status === 'lost') result.loss ??= path(node);
      if (result.win && result.loss) return { ...result, nodes: seen.size };
    }
  }
  return { ...result, nodes: seen.size };
}

/** A UUID-shaped digest of the recording's content, so reruns overwrite rather than pile up. */
function contentUuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Writes one recording, removes this script's earlier file of the same kind and level, returns the outcome. */
function record(dir: string, game: Game, agent: string, level: number, actions: Action[]): { file: string; outcome: RecordingOutcome } {
  const prefix = `${game.id}.${agent}.${level}.`;
  const uuid = contentUuid(`${prefix}${actions.map(actionCode).join(',')}`);
  const file = `${prefix}${uuid}.recording.jsonl`;
  const outcome = writeRecording(join(dir, file), game, actions, { guid: uuid });
  for (const old of readdirSync(dir)) {
    if (old.startsWith(prefix) && old.endsWith('.recording.jsonl') && old !== file) unlinkSync(join(dir, old));
  }
  return { file, outcome };
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { 'max-nodes': { type: 'string' }, out: { type: 'string' } }, allowPositionals: true });
  if (positionals.length !== 1) throw new InputError('usage: node dist/games/record.js <game-id-or-module> [--max-nodes N] [--out DIR]');
  const maxNodes = values['max-nodes'] === undefined ? DEFAULT_MAX_NODES : Number(values['max-nodes']);
  if (!Number.isInteger(maxNodes) || maxNodes < 1) throw new InputError(`--max-nodes must be a positive integer, got '${values['max-nodes']}'`);
  await initIdentity();
  const { game } = await loadGame(positionals[0]);
  const dir = values.out ?? join(PACKAGE_ROOT, 'games', game.id, 'recordings');
  mkdirSync(dir, { recursive: true });
  const wins: Action[] = [];
  for (let level = 1; level <= game.levels; level++) {
    const search = searchLevel(game, level, maxNodes);
    const explored = `${search.nodes} states${search.capped ? ` (stopped at the cap of ${maxNodes})` : ''}`;
    if (!search.win) {
      console.error(`${game.id} level ${level}: no win found in ${explored}; later levels need it, stopping`);
      return 1;
    }
    const won = record(dir, game, 'shortest-win', level, [...wins, ...search.win]);
    const expected = level === game.levels ? 'WIN' : 'NOT_FINISHED';
    if (won.outcome.state !== expected || won.outcome.levels_completed !== level) {
      throw new Error(`${game.id} level ${level}: the win replays to ${won.outcome.state} with ${won.outcome.levels_completed} levels completed`);
    }
    let lost = search.capped ? 'no loss found before the cap' : 'no loss reachable';
    if (search.loss) {
      const loss = record(dir, game, 'shortest-loss', level, [...wins, ...search.loss]);
      if (loss.outcome.state !== 'GAME_OVER') throw new Error(`${game.id} level ${level}: the loss replays to ${loss.outcome.state}`);
      lost = `loss in ${search.loss.length} (${loss.file})`;
    }
    console.log(`${game.id} level ${level}: win in ${search.win.length} [${search.win.map(actionName).join(' ')}] (${won.file}), ${lost}; ${explored}`);
    wins.push(...search.win);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`record: ${(err as Error).message}`);
    process.exitCode = err instanceof InputError ? 2 : 1;
  },
);
