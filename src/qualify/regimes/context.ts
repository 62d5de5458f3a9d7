/** What every regime shares while qualification runs: the game, the run's settings, and the faults found so far. */
import type { Policy } from '../../analysis/index.js';
import type { Action, Check, Game } from '../../engine/index.js';
import type { LoadedGame } from '../../suite/index.js';
import type { QualifyOptions, Regime } from '../types.js';

export /** A fault before shrinking: its level, check, message and the sequence (possibly a pair, see `earlier`). */
interface RawFault {
  regime: Regime;
  check: Check;
  level: number;
  severity: 'fail' | 'warn';
  message: string;
  actions: Action[];
  /** For equal bytes rendering differently: the sequence to the first state. */
  earlier?: Action[];
  /** A playback fault's recording. */
  file?: string;
}

export const elapsed = (since: number): number => (performance.now() - since) / 1000;

export interface RegimeContext {
  game: Game;
  loaded: LoadedGame | Game;
  workers: number;
  seed: number;
  policy: Policy;
  options: QualifyOptions;
  raw: RawFault[];
}
