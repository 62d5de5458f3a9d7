import { availableParallelism } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { POLICIES, type Policy } from '../analysis/index.js';
import { InputError } from '../errors.js';
import { workerHeapMb } from '../explorer/index.js';
import { workerCount } from '../parallel/index.js';
import { PythonGame, type PythonGameOptions, type UnofferedMode } from '../python/index.js';
import { parseAction } from '../engine/index.js';
import { checkOutputFile, prepareOutputDir } from '../files.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** True when --help was given: the caller prints `usage` and exits 0. */
  help: boolean;
}

/** Parses a command's arguments strictly; unknown flags and missing values are InputErrors. */
export function parse(argv: string[], options: Options, command: string): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: negativeValues(argv, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed['values'], positionals, help: values.help === true };
  } catch (err) {
    // The caller names the command; parseArgs's later lines say how to pass a value starting with a dash.
    throw new InputError(`${(err as Error).message.replace(/\n/g, ' ')} (see arcgraph ${command} --help)`);
  }
}

/**
 * `--level -1` as `--level=-1`: parseArgs takes a value that starts with a dash for an option (and
 * says the argument is ambiguous), so a negative number after a value option is joined to it, and
 * the option's own check says what the value must be.
 */
function negativeValues(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && i + 1 < argv.length && /^-(\d|\.\d)/.test(argv[i + 1])) {
      out.push(`${argv[i]}=${argv[++i]}`);
    } else out.push(argv[i]);
  }
  return out;
}

/** A numeric option: integer unless `real`, within [min, max]; undefined when absent. */
export function numberOption(values: Parsed['values'], name: string, opts: { min?: number; max?: number; real?: boolean } = {}): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  const ok = typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(n) && (opts.real || Number.isInteger(n));
  const range = opts.min !== undefined && opts.max !== undefined ? ` in ${opts.min}..${opts.max}` : opts.min !== undefined ? ` of at least ${opts.min}` : opts.max !== undefined ? ` of at most ${opts.max}` : '';
  if (!ok || (opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
    throw new InputError(`--${name} must be ${opts.real ? 'a number' : 'an integer'}${range}, got '${String(raw)}'`);
  }
  // an integer past 2^53 is not the one given (99999999999999999999 reads 100000000000000000000)
  if (!opts.real && !Number.isSafeInteger(n)) throw new InputError(`--${name} ${String(raw)} is too large (at most ${Number.MAX_SAFE_INTEGER})`);
  return n;
}

/** Exactly one positional argument, named `what` in the error. */
export function onePositional(p: Parsed, what: string, command: string): string {
  if (p.positionals.length !== 1) {
    throw new InputError(`expected one ${what}, got ${p.positionals.length ? p.positionals.join(' ') : 'none'} (see arcgraph ${command} --help)`);
  }
  return p.positionals[0];
}

/** `--policy`: available (default) or reference. */
export function policyOption(values: Parsed['values']): Policy {
  const policy = (values.policy ?? 'available') as Policy;
  if (!POLICIES.includes(policy)) throw new InputError(`--policy must be one of ${POLICIES.join(', ')}, got '${String(values.policy)}'`);
  return policy;
}

/** The options of commands that take a real ARC game (a Python game on arcengine). */
export const PYTHON_OPTIONS = {
  python: { type: 'string' },
  'graph-builder': { type: 'boolean' },
  'arc-games': { type: 'string' },
} as const;

/** Their help lines. */
export const PYTHON_USAGE = `Real ARC-AGI-3 games (<game> an ARC game folder <id>/<version>/, its <id>.py, or the id of a game
in the --arc-games folder):
  --python PATH      the Python interpreter (default python3, or ARCGRAPH_PYTHON); the engine comes from
                     its packages, or from ARCGRAPH_ARC_ENGINE (a folder holding arcengine/)
  --graph-builder    set the game module's GRAPH_BUILDER flag (undo history and animations off)
  --arc-games DIR    an environment_files tree of ARC games (default ARCGRAPH_ARC_GAMES)`;

/** `--step-timeout S`: a game step (or render) that does not return within S seconds is stopped as a hang (default 10). */
export const STEP_OPTION = { 'step-timeout': { type: 'string' } } as const;
export const STEP_USAGE = `  --step-timeout S   a game step or render that does not return within S seconds is a hang: the
                     work stops with the actions that reproduce it (default 10)`;

/** The step limit of a command line, in seconds (undefined: the default). */
export function stepTimeoutOption(values: Parsed['values']): number | undefined {
  return numberOption(values, 'step-timeout', { min: 0.01, max: 86_400, real: true });
}

/**
 * The Python settings of a command line (a real ARC game's step alarm is the step limit too; each of
 * its processes, one a worker and one for the sequential requests, gets a worker thread's share of
 * the memory budget, so a game that eats memory is out of memory there, not a hang or the machine's).
 */
export function pythonOptions(values: Parsed['values']): PythonGameOptions & { arcGames?: string } {
  const stepSeconds = stepTimeoutOption(values);
  const workers = workerCount(numberOption(values, 'workers', { min: 1, max: 256 }));
  return {
    ...(stepSeconds !== undefined && { stepSeconds }),
    memoryMb: workerHeapMb(workers, numberOption(values, 'max-memory', { min: 0.001, real: true })),
    ...(typeof values.python === 'string' && { python: values.python }),
    ...(values['graph-builder'] === true && { graphBuilder: true }),
    ...(typeof values['arc-games'] === 'string' && { arcGames: values['arc-games'] }),
  };
}

/** `--unoffered stay|step`: its help line (explore, random). */
export const UNOFFERED_USAGE = `  --unoffered U      what an action the game does not offer does under --policy reference (the agent
                     sends all seven): stay (ARC's convention: nothing, default) or step (a real ARC
                     game is stepped with it, as its engine does; for the reference policy only)`;

/** The `--unoffered` mode of a command line (undefined: the default, stay). */
export function unofferedOption(values: Parsed['values']): UnofferedMode | undefined {
  const mode = values.unoffered;
  if (mode === undefined) return undefined;
  if (mode !== 'stay' && mode !== 'step') throw new InputError(`--unoffered must be stay or step, got '${String(mode)}'`);
  return mode;
}

/** `--start-actions A`: its help line (explore, random). */
export const START_USAGE = `  --start-actions A  the actions from the game's RESET to the level's start, e.g. "ACTION1 ACTION6(3,4)"
                     (it must end exactly at that start, else exit 2; default: the shortest wins
                     found for the earlier levels in this run, else the engine's set_level; the
                     result says which start was used). A path ending with RESET may play into
                     the level and lose: where a later attempt starts (ATTEMPTS WARNING's actions)`;

/** Gives a real ARC game the user's `--start-actions` path to `level` (bad input for a JavaScript game, or an unreadable action). */
export function startActionsOption(values: Parsed['values'], game: PythonGame, level: number): void {
  const text = values['start-actions'];
  if (typeof text !== 'string') return;
  try {
    game.setStart(level, text.split(/[\s,]+(?![^(]*\))/).filter((t) => t !== '').map(parseAction), true);
  } catch (err) {
    throw new InputError(`--start-actions: ${(err as Error).message}`);
  }
}

/**
 * Whether `game` is a real ARC game (Python); a JavaScript one given any of `names` (options only a
 * Python game takes) is bad input, one line naming those given.
 */
export function isPythonGame(values: Parsed['values'], game: unknown, names: readonly string[]): game is PythonGame {
  if (game instanceof PythonGame) return true;
  const given = names.filter((n) => values[n] !== undefined).map((n) => `--${n}`);
  if (given.length > 0) throw new InputError(`${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} for real ARC games (Python); this game is a JavaScript module`);
  return false;
}

/** `--workers K` (1..256); more than the machine's cores is allowed, with a one-line warning. */
export function workersOption(values: Parsed['values'], command: string): number | undefined {
  const workers = numberOption(values, 'workers', { min: 1, max: 256 });
  const cores = availableParallelism();
  if (workers !== undefined && workers > cores) {
    console.error(`arcgraph ${command}: warning: --workers ${workers} is more than the ${cores} cores this machine offers; workers will share cores and each holds its own memory`);
  }
  return workers;
}

/** An output folder option, created and checked for writing before any work; undefined when absent. */
export function outputDirOption(values: Parsed['values'], name: string): string | undefined {
  const raw = values[name];
  if (typeof raw !== 'string') return undefined;
  try {
    return prepareOutputDir(raw);
  } catch (err) {
    throw new InputError(`--${name} ${raw}: ${(err as Error).message}`);
  }
}

/** An output file option, checked for writing before any work; undefined when absent. */
export function outputFileOption(values: Parsed['values'], name: string): string | undefined {
  const raw = values[name];
  if (typeof raw !== 'string') return undefined;
  try {
    checkOutputFile(raw);
    return raw;
  } catch (err) {
    throw new InputError(`--${name} ${raw}: ${(err as Error).message}`);
  }
}
