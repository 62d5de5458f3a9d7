/**
 * Copies the stage results into the report's documented shapes, field by field, so report.json
 * keeps its schema when a stage adds fields of its own (absent optional fields become null).
 */
import type { Analysis } from '../analysis/index.js';
import type { ExploreResult } from '../explorer/index.js';
import type { RandomResult } from '../random/index.js';
import type { AnalysisNumbers, ExploreNumbers, MonteCarloNumbers, QualificationReport, RegimeReport } from '../report/index.js';
import type { QualifyResult, RegimeOutcome } from './qualification.js';

/** JSON has no Infinity: a probability of 0 is "1 in null". */
const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

export function exploreNumbers(r: ExploreResult): ExploreNumbers {
  return {
    nodes: r.nodes,
    edges: r.edges,
    transitions: r.transitions,
    mergeDensity: r.mergeDensity,
    maxDepth: r.maxDepth,
    depthHistogram: [...r.depthHistogram],
    cycles: { nonTrivial: r.cycles.nonTrivial, largest: r.cycles.largest, selfLoops: r.cycles.selfLoops },
    terminals: { won: r.terminals.won, lost: r.terminals.lost, complete: r.terminals.complete },
    frontier: r.frontier,
    fullyExplored: r.fullyExplored,
    stopReason: r.stopReason,
    collisionProbability: r.collisionProbability,
    workers: r.workers,
    seconds: r.seconds,
    transitionsPerSecond: r.transitionsPerSecond,
    storeBytes: r.storeBytes,
    bytesPerState: r.bytesPerState,
    identityWarning: r.identityWarning,
    ...(r.stuckStep && { stuckStep: { actions: [...r.stuckStep.actions], seconds: r.stuckStep.seconds, message: r.stuckStep.message } }),
    ...(r.python && {
      python: {
        levelStart: r.python.levelStart,
        startNote: r.python.startNote ?? null,
        identity: r.python.identity,
        graphBuilder: r.python.graphBuilder,
        snapshots: r.python.snapshots,
        clicks: r.python.clicks && { ...r.python.clicks },
        unoffered: r.python.unoffered,
        unofferedActs: [...(r.python.unofferedActs ?? [])],
        ...(r.python.otherWins && r.python.otherWins.length > 0 && { otherWins: r.python.otherWins.map((w) => [...w]) }),
        ...(r.python.attemptsWarning && { attemptsWarning: r.python.attemptsWarning }),
        ...(r.python.attemptsActions && { attemptsActions: [...r.python.attemptsActions] }),
        ...(r.python.listsReset && { listsReset: r.python.listsReset }),
      },
    }),
  };
}

export function monteCarloNumbers(r: RandomResult): MonteCarloNumbers {
  return {
    policy: r.policy,
    seed: r.seed,
    steps: r.steps,
    episodes: r.episodes,
    wins: r.wins,
    cutOff: r.cutOff,
    lower: r.lower,
    upper: r.upper,
    verdict: r.verdict,
    seconds: r.seconds,
  };
}

export function analysisNumbers(a: Analysis): AnalysisNumbers {
  const { pWin } = a;
  return {
    winReachable: a.winReachable,
    shortestWin: a.shortestWin && { length: a.shortestWin.length, actions: [...a.shortestWin.actions], optimal: a.shortestWin.optimal },
    baseline: a.baseline ? { declared: a.baseline.declared, shortest: a.baseline.shortest, difference: a.baseline.difference } : null,
    deadEnds: { count: a.deadEnds.count, example: a.deadEnds.example ? { length: a.deadEnds.example.length, actions: [...a.deadEnds.example.actions] } : null },
    canWin: a.canWin,
    pWin: {
      policy: pWin.policy,
      method: pWin.method,
      lower: pWin.lower,
      upper: pWin.upper,
      exact: pWin.exact ? { p: pWin.exact.p, q: pWin.exact.q, oneIn: finiteOrNull(pWin.exact.oneIn) } : null,
      converged: pWin.converged,
      width: pWin.width,
      relativeWidth: pWin.relativeWidth,
      exactGaveUp: pWin.exactGaveUp ?? null,
      intervalGaveUp: pWin.intervalGaveUp ?? null,
    },
    verdict: a.verdict,
    hint: a.hint ?? null,
    threshold: a.threshold,
    exempt: a.exempt,
  };
}

const regimeReport = (r: RegimeOutcome): RegimeReport => ({
  status: r.status,
  steps: r.steps,
  wins: r.wins ?? null,
  findings: r.findings,
  seconds: r.seconds,
  ...(r.profile && { profile: { ...r.profile, slowest: r.profile.slowest.map((s) => ({ ms: s.ms, actions: [...s.actions] })) } }),
});

export function qualificationReport(q: QualifyResult): QualificationReport {
  return {
    passed: q.passed,
    seed: q.seed,
    stepsScale: q.stepsScale,
    policy: q.policy,
    workers: q.workers,
    speed: { random2: q.speed.random2, fuzz: q.speed.fuzz },
    out: q.out ?? null,
    seconds: q.seconds,
    levels: q.levels.map((l) => ({
      level: l.level,
      tutorial: l.tutorial,
      regimes: {
        random1: regimeReport(l.regimes.random1),
        random2: l.regimes.random2 && regimeReport(l.regimes.random2),
        fuzz: regimeReport(l.regimes.fuzz),
        playback: regimeReport(l.regimes.playback),
      },
    })),
    findings: q.findings.map((f) => ({ regime: f.regime, check: f.check, level: f.level, severity: f.severity, message: f.message, actions: [...f.actions], reproduction: f.reproduction ?? null })),
    ranOn: null,
  };
}
