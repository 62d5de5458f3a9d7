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
    // a game's Python processes stopped by the user's Ctrl-C or SIGTERM before there was a result to give
    if (isInterrupted(err)) {
      console.error(`arcgraph ${name}: interrupted before there was a result to give (${(err as Error).message})`);
      return INTERRUPTED;
    }
    if (err instanceof InputError || err instanceof ActionError) {
      console.error(`arcgraph ${name}: ${err.message}`);
      return 2;
    }
    console.error(`arcgraph ${name}: ${(err as Error)?.message ?? String(err)}`);
    return 1;
  }
}

const isEntry = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntry) {
  singleThreadedGc();
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(`arcgraph: ${(err as Error).message}`);
      process.exitCode = 1;
    },
  );
}
