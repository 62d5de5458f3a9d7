/** The two random-play regimes: no level may be won by luck (a tutorial level only warns). */
import { parseAction } from '../../engine/index.js';
import { GameCrash } from '../../explorer/index.js';
import { playEpisode } from '../../player/index.js';
import { faultKindOf, WalkCrash } from '../../python/index.js';
import { randomPlay } from '../../random/index.js';
import type { Regime, RegimeOutcome } from '../types.js';
import { elapsed, type RegimeContext } from './context.js';

/** Random play from the level's reset state: a win fails the level (warns on a tutorial level). */
export async function randomRegime(ctx: RegimeContext, regime: Regime, level: number, budget: number, seed: number, tutorial: boolean): Promise<RegimeOutcome> {
  const { game, policy, options } = ctx;
  const started = performance.now();
  try {
    const r = await randomPlay(ctx.loaded, {
      level,
      steps: budget,
      workers: ctx.workers,
      seed,
      policy,
      signal: options.signal,
      stepSeconds: options.hangSeconds,
      maxMemory: options.maxMemory,
      onProgress: (p) => options.onProgress?.({ regime, level, steps: p.steps, total: budget, seconds: p.seconds }),
    });
    // Stopped by the signal before its budget was played: not a pass.
    const cut = options.signal?.aborted === true && r.steps < budget && !r.starts;
    if (r.wins === 0) return { status: cut ? 'interrupted' : 'pass', steps: r.steps, wins: 0, findings: 0, seconds: elapsed(started) };
    const episode = playEpisode(game, level, policy, seed, r.firstWin!, budget);
    const severity = tutorial ? 'warn' : 'fail';
    const rate = `${r.wins} of ${r.episodes} random attempts won level ${level} in ${r.steps} steps`;
    ctx.raw.push({ regime, check: 'random-win', level, severity, message: tutorial ? `${rate} (a tutorial level: exempt)` : rate, actions: episode.actions });
    return { status: severity, steps: r.steps, wins: r.wins, findings: 1, seconds: elapsed(started) };
  } catch (err) {
    if (err instanceof WalkCrash) {
      // A Python walk names the episode that threw: play just that one again (through the game's own process).
      const episode = playEpisode(game, level, policy, seed, err.episode, budget);
      const kind = faultKindOf(err.kind);
      const check = kind === 'hang' ? 'slow-step' : kind === 'out-of-memory' ? 'out-of-memory' : 'exception';
      ctx.raw.push({ regime, check, level, severity: 'fail', message: check === 'exception' ? `the game threw: ${err.reason}` : err.reason, actions: episode.actions });
      return { status: 'fail', steps: 0, findings: 1, seconds: elapsed(started) };
    }
    if (err instanceof GameCrash) {
      // A worker's game threw, hung or ran out of memory: the episode's moves up to it came back.
      const check = err.kind === 'hang' ? 'slow-step' : err.kind === 'out-of-memory' ? 'out-of-memory' : 'exception';
      ctx.raw.push({ regime, check, level, severity: 'fail', message: err.kind === 'crash' ? `the game threw: ${err.reason}` : err.reason, actions: err.actions.map(parseAction) });
      return { status: 'fail', steps: 0, findings: 1, seconds: elapsed(started) };
    }
    // A game object's step threw on this thread: play the episodes again to find the first that throws.
    let used = 0;
    for (let index = 0; used < budget; index++) {
      const episode = playEpisode(game, level, policy, seed, index, budget - used);
      used += episode.steps;
      if (episode.end === 'threw') {
        ctx.raw.push({ regime, check: 'exception', level, severity: 'fail', message: `the game threw: ${episode.error}`, actions: episode.actions });
        return { status: 'fail', steps: used, findings: 1, seconds: elapsed(started) };
      }
    }
    throw err;
  }
}
