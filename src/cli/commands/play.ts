import { randomUUID } from 'node:crypto';
import { ACTION_NAMES, GameAction, actionName, checkedClick, parseAction, type Action } from '../../engine/index.js';
import type { Game } from '../../engine/index.js';
import { InputError } from '../../errors.js';
import { resolveGame } from '../../explorer/index.js';
import { ActionError, openSession, type FrameData, type GameSession } from '../../engine/index.js';
import { frameDataToJson, writeRecordingLines, type RecordedFrameData } from '../../recording/index.js';
import { numberOption, onePositional, outputFileOption, parse, PYTHON_OPTIONS, PYTHON_USAGE, pythonOptions, STEP_OPTION, stepTimeoutOption } from '../args.js';
import { StepTimeout, threadedGame } from '../../parallel/index.js';
import { PythonGame } from '../../python/index.js';
import { INTERRUPTED, interruption } from '../interrupt.js';
import type { Command } from '../main.js';
import { TERM, clickCell, parseKeys, renderFrame, type KeyEvent } from '../terminal.js';

const USAGE = `Usage: arcgraph play <game> [--level N] [--record FILE]

Plays a game in the terminal, in the ARC palette. <game> is a suite id, a path to a JavaScript
module whose default export is a game, or a real ARC game (see below).
  --level N      start at level N (a full reset returns there)
  --record FILE  write an ARC-AGI-3-Agents style recording of the session on exit (however it
                 ends: a refused stdin line or a crash keeps the steps before it)
  --step-timeout S  a game step or render that does not return within S seconds is a hang: the
                 session ends with the error (default 10)

Keys: arrows or WASD = ACTION1..4 (up, down, left, right), space or enter = ACTION5,
u or z = ACTION7 (undo), r = RESET, mouse click = ACTION6 on the cell (top pixel of the
character), c = cursor mode (arrows/WASD move the cursor, shift+WASD by 8, space or enter
clicks, c or escape leaves), q = quit.

When stdin is not a terminal, commands are read from it, one per line: ACTION1 .. ACTION7,
ACTION6 <x> <y>, RESET, quit (blank lines and # comments are skipped); a status line is printed
after each. An action the game does not offer is played as replay plays it (agents send them): as
the engine plays it, a step that leaves the state unchanged (a real ARC game's perform_action
decides), and it is recorded.
SIGTERM (or SIGINT) ends the session as quitting does, the recording still written, exit 130.

A real ARC game is played with the engine's own perform_action (RESET rules, level progression).
${PYTHON_USAGE}`;

/** A play session: the runtime session plus what the recording and the status line need. */
export class Player {
  readonly session: GameSession;
  readonly lines: RecordedFrameData[] = [];
  /** The actions played, the opening RESET first. */
  private readonly actions: Action[] = [];
  last: FrameData;
  private readonly guid = randomUUID();

  constructor(
    readonly game: Game,
    level: number,
  ) {
    // An action the game does not offer is played as replay plays it (agents send them): as the
    // engine plays it, a step that leaves the state unchanged (a real ARC game's perform_action decides).
    this.session = openSession(game, level, { acceptUnavailable: true });
    this.last = this.act({ id: GameAction.RESET });
  }

  act(action: Action): FrameData {
    try {
      this.last = this.session.act(action);
    } catch (err) {
      if (!(err instanceof StepTimeout)) throw err;
      // Name where it hung: the actions of this session (RESETs included), the last one the step.
      const actions = [...this.actions, action].slice(1).map(actionName);
      throw new StepTimeout(`${this.game.id} level ${this.session.currentLevel} hung after ${actions.length} actions of this session [${actions.join(', ')}]: ${err.message}`);
    }
    this.lines.push(frameDataToJson(this.last, this.guid));
    this.actions.push(action);
    return this.last;
  }

  statusLine(): string {
    const { game, session, last } = this;
    return [
      `${game.id} (${game.title})`,
      `level ${session.currentLevel}/${game.levels}`,
      last.state,
      `completed ${last.levels_completed}`,
      `actions ${session.actionCount}`,
      `available ${game.actions.map((a) => ACTION_NAMES[a]).join(' ')}`,
    ].join(' | ');
  }
}

/** What a key means to the player. */
export type Intent =
  | { kind: 'act'; action: Action }
  | { kind: 'cursor'; dx: number; dy: number }
  | { kind: 'click-cursor' }
  | { kind: 'toggle-cursor' }
  | { kind: 'quit' }
  | { kind: 'none' };

const MOVES: Record<string, [number, number, GameAction]> = {
  up: [0, -1, GameAction.ACTION1],
  down: [0, 1, GameAction.ACTION2],
  left: [-1, 0, GameAction.ACTION3],
  right: [1, 0, GameAction.ACTION4],
};
const WASD: Record<string, string> = { w: 'up', s: 'down', a: 'left', d: 'right' };

/** Maps a key to an intent; in cursor mode the direction keys move the cursor instead of acting. */
export function interpretKey(event: KeyEvent, cursorMode: boolean): Intent {
  if (event.kind === 'click') {
    const cell = clickCell(event.col, event.row);
    return cell ? { kind: 'act', action: { id: GameAction.ACTION6, ...cell } } : { kind: 'none' };
  }
  let direction: string | undefined;
  let stride = 1;
  if (event.kind === 'key') {
    if (event.name === 'ctrl-c') return { kind: 'quit' };
    if (event.name === 'enter') return cursorMode ? { kind: 'click-cursor' } : { kind: 'act', action: { id: GameAction.ACTION5 } };
    if (event.name === 'escape') return cursorMode ? { kind: 'toggle-cursor' } : { kind: 'none' };
    direction = event.name;
  } else {
    const c = event.char;
    if (c === 'q' || c === 'Q') return { kind: 'quit' };
    if (c === ' ') return cursorMode ? { kind: 'click-cursor' } : { kind: 'act', action: { id: GameAction.ACTION5 } };
    if (c === 'u' || c === 'z') return { kind: 'act', action: { id: GameAction.ACTION7 } };
    if (c === 'r') return { kind: 'act', action: { id: GameAction.RESET } };
    if (c === 'c') return { kind: 'toggle-cursor' };
    direction = WASD[c.toLowerCase()];
    if (direction && c !== c.toLowerCase()) stride = 8;
  }
  const move = direction ? MOVES[direction] : undefined;
  if (!move) return { kind: 'none' };
  return cursorMode ? { kind: 'cursor', dx: move[0] * stride, dy: move[1] * stride } : { kind: 'act', action: { id: move[2] } };
}

/** One scripted command: `ACTION6 10 20` (or any form `parseAction` reads), or undefined for quit. */
export function parseScriptLine(text: string): Action | undefined {
  const t = text.trim();
  if (/^(q|quit|exit)$/i.test(t)) return undefined;
  const click = /^(?:ACTION)?6\s+(-?\d+)\s+(-?\d+)$/i.exec(t);
  if (click) return checkedClick(Number(click[1]), Number(click[2]));
  return parseAction(t);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Resolves with '' when `signal` aborts (the script stops where it is). */
const whenAborted = (signal: AbortSignal): Promise<string> => new Promise((resolve) => signal.addEventListener('abort', () => resolve(''), { once: true }));

/** Plays the commands read from stdin; a bad line is an InputError naming it. */
async function playScript(player: Player, signal: AbortSignal): Promise<void> {
  console.log(player.statusLine());
  const lines = (await Promise.race([readStdin(), whenAborted(signal)])).split('\n');
  // A script still being written when the signal came: stop reading (an open stdin keeps the process alive).
  if (signal.aborted) process.stdin.destroy();
  for (const [index, text] of lines.entries()) {
    if (signal.aborted) return;
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    const where = `stdin line ${index + 1}`;
    let action: Action | undefined;
    try {
      action = parseScriptLine(text);
    } catch (err) {
      throw new InputError(`${where}: ${(err as Error).message}`);
    }
    if (!action) return;
    try {
      player.act(action);
    } catch (err) {
      if (err instanceof ActionError) throw new InputError(`${where}: ${err.message}`);
      throw err;
    }
    console.log(`${actionName(action)}${offered(player.game, action) ? '' : unofferedNote(player.game)} -> ${player.statusLine()}`);
  }
}

/** Whether the game offers `action` (RESET always). */
const offered = (game: Game, action: Action): boolean => action.id === GameAction.RESET || game.actions.includes(action.id as never);

/** What the status line says of an action the game does not offer. */
const unofferedNote = (game: Game): string => ` (not available in ${game.id}: played as the engine plays it, ${game instanceof PythonGame ? 'its perform_action decides' : 'the state unchanged'})`;

/** Interactive play in a raw-mode terminal; resolves on quit or abort, rejects (terminal restored) if the game throws. */
function playInteractive(player: Player, signal: AbortSignal): Promise<void> {
  const { stdin, stdout } = process;
  let cursor: { x: number; y: number } | undefined;
  let message = 'arrows/WASD move, space/enter ACTION5, u undo, r reset, click or c for cursor, q quits';
  const draw = (): void => {
    const frame = player.last.frame[player.last.frame.length - 1];
    const rows = renderFrame(frame, cursor);
    const mode = cursor ? ` | cursor (${cursor.x}, ${cursor.y}): space/enter clicks, c leaves` : '';
    stdout.write(`${TERM.home}${rows.join('\n')}\n${player.statusLine()}${mode}${TERM.clearLine}\n${message}${TERM.clearLine}\n${TERM.clearBelow}`);
  };
  const act = (action: Action): void => {
    try {
      const result = player.act(action);
      message = `${actionName(action)}${offered(player.game, action) ? '' : unofferedNote(player.game)}${result.frame.length > 1 ? ` (${result.frame.length} frames)` : ''}`;
      if (result.state === 'WIN') message += ': game complete! r plays again, q quits';
      if (result.state === 'GAME_OVER') message += ': game over, r resets the level';
    } catch (err) {
      if (!(err instanceof ActionError)) throw err;
      message = err.message;
    }
  };
  return new Promise((done, fail) => {
    const finish = (err?: unknown): void => {
      signal.removeEventListener('abort', onAbort);
      stdin.off('data', onData);
      stdout.off('resize', draw);
      stdin.setRawMode(false);
      stdin.pause();
      stdout.write(TERM.leave);
      if (err) fail(err);
      else done();
    };
    const onData = (chunk: string): void => {
      try {
        for (const event of parseKeys(chunk)) {
          const intent = interpretKey(event, cursor !== undefined);
          if (intent.kind === 'quit') return finish();
          if (intent.kind === 'toggle-cursor') cursor = cursor ? undefined : { x: 32, y: 32 };
          else if (intent.kind === 'cursor' && cursor) cursor = { x: clamp(cursor.x + intent.dx), y: clamp(cursor.y + intent.dy) };
          else if (intent.kind === 'click-cursor' && cursor) act({ id: GameAction.ACTION6, x: cursor.x, y: cursor.y });
          else if (intent.kind === 'act') {
            if (intent.action.id === GameAction.ACTION6 && cursor) cursor = { x: intent.action.x!, y: intent.action.y! };
            act(intent.action);
          }
        }
        draw();
      } catch (err) {
        finish(err);
      }
    };
    const onAbort = (): void => finish();
    signal.addEventListener('abort', onAbort, { once: true });
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
    stdout.on('resize', draw);
    stdout.write(TERM.enter);
    draw();
  });
}

const clamp = (v: number): number => Math.max(0, Math.min(63, v));

const command: Command = {
  summary: 'play a game in the terminal, in colour (keys, mouse, or a script on stdin)',
  async run(argv) {
    const p = parse(argv, { level: { type: 'string' }, record: { type: 'string' }, ...PYTHON_OPTIONS, ...STEP_OPTION }, 'play');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    const stepSeconds = stepTimeoutOption(p.values);
    const resolved = await resolveGame(onePositional(p, 'game', 'play'), pythonOptions(p.values));
    // A JavaScript game runs on its own thread: a step that never returns is stopped at the limit.
    const game = resolved instanceof PythonGame ? resolved : threadedGame(resolved.module, stepSeconds);
    const level = numberOption(p.values, 'level', { min: 1, max: game.levels }) ?? 1;
    const record = outputFileOption(p.values, 'record');
    const player = new Player(game, level);
    // SIGTERM (or SIGINT from outside a raw terminal) ends the session as quitting does: the
    // recording is still written.
    const stop = interruption();
    let ended = '';
    try {
      if (process.stdin.isTTY) await playInteractive(player, stop.signal);
      else await playScript(player, stop.signal);
    } catch (err) {
      ended = err instanceof InputError ? ' (up to the line refused)' : ' (up to the step that failed)';
      throw err;
    } finally {
      stop.dispose();
      // Written however the session ends: a refused line or a crash loses none of the steps before it.
      if (record !== undefined) {
        writeRecordingLines(record, player.lines);
        console.error(`recorded ${player.lines.length} steps${ended} to ${record}`);
      }
    }
    return stop.interrupted ? INTERRUPTED : 0;
  },
};

export default command;
