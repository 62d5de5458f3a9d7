/**
 * Writes the known-good recordings of a game. For each level k, the explorer (src/explorer)
 * searches breadth-first over canonical state identity from init(k), on --workers threads and up
 * to --max-nodes states; nodes are numbered in BFS order, so its first won node is a shortest win
 * and its first lost node a shortest loss. Where the cap hides them:
 * - the win comes from the game's own solver, when the game's folder (named after its id, as
 *   games/<id>/) holds a `solver.js` exporting `winningActions(level: number): Action[] | undefined`:
 *   a win, not necessarily a shortest one;
 * - the loss comes from seeded random attempts from init(k) (keys, and one click per click class),
 *   the first attempt that ends in game over.
 * games/<id>/recordings/ receives, named by how the actions were found:
 * - `<id>.shortest-win.<k>.<uuid>.recording.jsonl` (exact search) or `<id>.solver-win.<k>...`
 *   (the game's solver): RESET, then the wins of levels 1..k (a full reset starts at level 1);
 * - `<id>.shortest-loss.<k>...` (exact search) or `<id>.random-loss.<k>...` (random attempt): the
 *   wins of levels 1..k-1, then a way to game over on level k (absent when level k cannot be lost).
 * Every recording is replayed as it is written and must end as its name says. The uuid is derived
 * from the actions, so an unchanged solution rewrites the same file. A level without a win is
 * reported and the others go on, but the levels after it cannot be recorded (a recording reaches
 * level k only through the wins of 1..k-1); the exit code is then 1.
 *
 *   node dist/src/recording/record-suite.js <game-id-or-module> [--max-nodes N] [--workers N] [--out DIR]
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, unlinkSync } from 'node:fs';
import { makeDir } from '../files.js';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { actionCode, actionFromCode, actionName, type Action } from '../engine/index.js';
import { playerMoves, type Game } from '../engine/index.js';
import { InputError } from '../errors.js';
import { PACKAGE_ROOT, loadGame, type LoadedGame } from '../suite/index.js';
import { exploreGraph } from '../explorer/index.js';
import { bfsPath, NodeFlag, type StateGraph } from '../graph/index.js';
import { defaultWorkers } from '../parallel/index.js';
import { Rng } from '../player/index.js';
import { writeRecording, type RecordingOutcome } from './write.js';

const DEFAULT_MAX_NODES = 3_000_000;
/** Random attempts tried for a loss, and the steps after which an attempt is given up. */
const LOSS_ATTEMPTS = 1_000;
const ATTEMPT_STEPS = 10_000;
const LOSS_SEED = 1;

const WIN_AGENTS = ['shortest-win', 'solver-win'] as const;
const LOSS_AGENTS = ['shortest-loss', 'random-loss'] as const;
type Agent = (typeof WIN_AGENTS)[number] | (typeof LOSS_AGENTS)[number];

type WinningActions = (level: number) => Action[] | undefined;

/** The game's own solver, if its folder has one. */
async function gameSolver({ game, module }: LoadedGame): Promise<WinningActions | undefined> {
  const folder = dirname(module);
  const solver = join(folder, 'solver.js');
  if (basename(folder) !== game.id || !existsSync(solver)) return undefined;
  const exports = (await import(pathToFileURL(solver).href)) as { winningActions?: unknown };
  if (typeof exports.winningActions !== 'function') throw new InputError(`${solver} does not export winningActions(level)`);
  return exports.winningActions as WinningActions;
}

/** The action sequence from the reset state to the first node (in BFS order) carrying `flag`. */
function firstPath(graph: StateGraph, flag: number): Action[] | undefined {
  for (let u = 0; u < graph.nodeCount; u++) {
    if (graph.flags[u] & flag) return Array.from(bfsPath(graph, u), actionFromCode);
  }
  return undefined;
}

/** The first of the seeded random attempts from init(level) that ends in game over. */
function randomLoss(game: Game, level: number): { actions: Action[]; attempt: number } | undefined {
  const root = game.init(level);
  for (let attempt = 0; attempt < LOSS_ATTEMPTS; attempt++) {
    const rng = new Rng(LOSS_SEED, attempt);
    const actions: Action[] = [];
    let state = root;
    while (game.status(state) === 'playing' && actions.length < ATTEMPT_STEPS) {
      const options = playerMoves(game, state);
      const action = options[rng.below(options.length)];
      actions.push(action);
      state = game.step(state, action);
    }
    if (game.status(state) === 'lost') return { actions, attempt };
  }
  return undefined;
}

/** A UUID-shaped digest of the recording's content, so reruns overwrite rather than pile up. */
function contentUuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * Writes one recording and removes this script's earlier files of the same level and outcome
 * (whichever agent found them), returns the file name and the replayed outcome.
 */
function record(dir: string, game: Game, agent: Agent, level: number, actions: Action[]): { file: string; outcome: RecordingOutcome } {
  const prefix = `${game.id}.${agent}.${level}.`;
  const uuid = contentUuid(`${prefix}${actions.map(actionCode).join(',')}`);
  const file = `${prefix}${uuid}.recording.jsonl`;
  const outcome = writeRecording(join(dir, file), game, actions, { guid: uuid });
  const kin = (WIN_AGENTS as readonly string[]).includes(agent) ? WIN_AGENTS : LOSS_AGENTS;
  for (const old of readdirSync(dir)) {
    const stale = kin.some((a) => old.startsWith(`${game.id}.${a}.${level}.`));
    if (stale && old.endsWith('.recording.jsonl') && old !== file) unlinkSync(join(dir, old));
  }
  return { file, outcome };
}

/** Levels as ranges for the summary: [1, 2, 3, 5] -> "1-3, 5". */
function ranges(levels: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < levels.length; i++) {
    let j = i;
    while (j + 1 < levels.length && levels[j + 1] === levels[j] + 1) j++;
    parts.push(i === j ? `${levels[i]}` : `${levels[i]}-${levels[j]}`);
    i = j;
  }
  return parts.join(', ') || 'none';
}

const positiveInteger = (name: string, text: string | undefined, fallback: number): number => {
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`--${name} must be a positive integer, got '${text}'`);
  return n;
};

async function main(argv: string[]): Promise<number> {
  const usage = 'usage: node dist/src/recording/record-suite.js <game-id-or-module> [--max-nodes N] [--workers N] [--out DIR]';
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'max-nodes': { type: 'string' }, workers: { type: 'string' }, out: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new InputError(usage);
  const maxNodes = positiveInteger('max-nodes', values['max-nodes'], DEFAULT_MAX_NODES);
  const workers = positiveInteger('workers', values.workers, defaultWorkers());
  const loaded = await loadGame(positionals[0]);
  const { game } = loaded;
  const solver = await gameSolver(loaded);
  const dir = values.out ?? join(PACKAGE_ROOT, 'games', game.id, 'recordings');
  makeDir(dir);

  const by: Record<Agent, number[]> = { 'shortest-win': [], 'solver-win': [], 'shortest-loss': [], 'random-loss': [] };
  const missing: string[] = [];
  // The wins of levels 1..level-1, or undefined once a level has no win.
  let wins: Action[] | undefined = [];
  for (let level = 1; level <= game.levels; level++) {
    if (!wins) {
      console.error(`${game.id} level ${level}: not recorded, an earlier level has no win`);
      missing.push(`level ${level} (no earlier win)`);
      continue;
    }
    const { result, graph } = await exploreGraph(loaded, { level, workers, maxNodes });
    const capped = !result.fullyExplored;
    const explored = `${result.nodes} states${capped ? ` (stopped at the cap of ${maxNodes})` : ' (complete)'}`;

    let win: Action[] | undefined = firstPath(graph, NodeFlag.WON);
    let winAgent: Agent = 'shortest-win';
    if (!win && capped && solver) {
      win = solver(level);
      winAgent = 'solver-win';
    }
    let won = !capped ? 'no win reachable' : solver ? "no win found before the cap nor by the game's solver" : 'no win found before the cap (the game has no solver)';
    if (win) {
      const w = record(dir, game, winAgent, level, [...wins, ...win]);
      const expected = level === game.levels ? 'WIN' : 'NOT_FINISHED';
      if (w.outcome.state !== expected || w.outcome.levels_completed !== level) {
        throw new Error(`${game.id} level ${level}: the ${winAgent} replays to ${w.outcome.state} with ${w.outcome.levels_completed} levels completed`);
      }
      const how = winAgent === 'shortest-win' ? 'shortest' : "by the game's solver, not necessarily shortest";
      won = `win in ${win.length} (${how}) [${win.map(actionName).join(' ')}] (${w.file})`;
      by[winAgent].push(level);
    } else {
      missing.push(`win of level ${level}`);
    }

    let loss = firstPath(graph, NodeFlag.LOST);
    let lossAgent: Agent = 'shortest-loss';
    let lossHow = 'shortest';
    if (!loss && capped) {
      const attempt = randomLoss(game, level);
      loss = attempt?.actions;
      lossAgent = 'random-loss';
      lossHow = `random attempt ${attempt?.attempt}`;
    }
    let lost = capped ? `no loss found before the cap nor in ${LOSS_ATTEMPTS} random attempts` : 'no loss reachable';
    if (loss) {
      const l = record(dir, game, lossAgent, level, [...wins, ...loss]);
      if (l.outcome.state !== 'GAME_OVER' || l.outcome.levels_completed !== level - 1) {
        throw new Error(`${game.id} level ${level}: the ${lossAgent} replays to ${l.outcome.state} with ${l.outcome.levels_completed} levels completed`);
      }
      lost = `loss in ${loss.length} (${lossHow}) (${l.file})`;
      by[lossAgent].push(level);
    } else if (capped) {
      missing.push(`loss of level ${level}`);
    }

    const line = `${game.id} level ${level}: ${won}; ${lost}; ${explored} in ${result.seconds.toFixed(1)} s`;
    if (win) console.log(line);
    else console.error(`${line}; later levels need it`);
    wins = win && [...wins, ...win];
  }
  console.log(
    `${game.id}: wins shortest (exact search) for levels ${ranges(by['shortest-win'])}, by the game's solver for ${ranges(by['solver-win'])}; ` +
      `losses shortest for ${ranges(by['shortest-loss'])}, random for ${ranges(by['random-loss'])}` +
      (missing.length ? `; missing: ${missing.join(', ')}` : ''),
  );
  return missing.length ? 1 : 0;
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
