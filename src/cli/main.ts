#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ActionError } from '../engine/index.js';
import { InputError, isInterrupted } from '../errors.js';
import { INTERRUPTED } from './interrupt.js';
import { singleThreadedGc } from './gc.js';

/** A command: runs with its own arguments and returns the exit code. */
export interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

/** Commands are loaded on demand so `arcgraph games` does not pay for the explorer's imports. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  games: async () => (await import('./commands/games.js')).default,
  play: async () => (await import('./commands/play.js')).default,
  replay: async () => (await import('./commands/replay.js')).default,
  explore: async () => (await import('./commands/explore.js')).default,
  random: async () => (await import('./commands/random.js')).default,
  qualify: async () => (await import('./commands/qualify.js')).default,
  sweep: async () => (await import('./commands/sweep.js')).default,
  history: async () => (await import('./commands/history.js')).default,
  worker: async () => (await import('./commands/worker.js')).default,
};

async function usage(): Promise<string> {
  const lines = ['arcgraph: explore and validate ARC-AGI-3-style games', '', 'Usage: arcgraph <command> [options]   (arcgraph <command> --help for details)', '', 'Commands:'];
  for (const [name, load] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(9)} ${(await load()).summary}`);
  lines.push('', 'Exit codes: 0 success or pass, 1 a verdict failed or a game crashed, 2 bad input, 130 interrupted', '(Ctrl-C or SIGTERM: the partial result, marked interrupted; a second signal quits at once).');
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    console.log('arcgraph 0.1.0');
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`arcgraph: unknown command '${name}' (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return 2;
  }
  try {
    return await (await load()).run(rest);
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    // a game's Python processes stopped by the user's Ctrl-C or SIGTERM before there was a result to give
    const [kind, code] = isInterrupted(err) ? (['interrupted', INTERRUPTED] as const) : err instanceof InputError || err instanceof ActionError ? (['bad-input', 2] as const) : (['error', 1] as const);
    console.error(`arcgraph ${name}: ${kind === 'interrupted' ? `interrupted before there was a result to give (${message})` : message}`);
    // A pipeline that asked for JSON gets an object too (reports/JSON.md, "Errors"), the line on stderr as ever.
    if (rest.includes('--json')) console.log(JSON.stringify({ error: await errorObject(name, kind, err, message) }));
    return code;
  }
}

/** The --json error object: what stopped the command; a game's fault names the actions that reproduce it. */
async function errorObject(command: string, kind: 'interrupted' | 'bad-input' | 'error', err: unknown, message: string): Promise<Record<string, unknown>> {
  const { GameCrash } = await import('../explorer/index.js');
  if (err instanceof GameCrash) return { command, kind: 'game-fault', fault: err.kind, game: err.game, level: err.level, actions: err.actions, reason: err.reason, message };
  return { command, kind, message };
}

const isEntry = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntry) {
  singleThreadedGc();
  // A signal before the command installs its own handling (interruption(), once its modules load and
  // its arguments parse: over a second on a loaded machine) stops it as the documented interruption,
  // exit 130 and one line, rather than ending Node by the signal with nothing said.
  // Once the command has returned (its own message said), a signal while Node winds down ends it with its code.
  let settled = false;
  const early = (signal: NodeJS.Signals): void => {
    if (settled) process.exit();
    if (process.listenerCount(signal) > 1) return;
    console.error(`arcgraph${process.argv[2] ? ` ${process.argv[2]}` : ''}: interrupted before there was a result to give (by ${signal})`);
    process.exit(INTERRUPTED);
  };
  process.on('SIGINT', early);
  process.on('SIGTERM', early);
  main(process.argv.slice(2)).then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (err) => {
      settled = true;
      console.error(`arcgraph: ${(err as Error).message}`);
      process.exitCode = 1;
    },
  );
}
