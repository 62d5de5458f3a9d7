import { CELLS, GameAction } from '../engine/index.js';
import { NodeFlag, type StateGraph } from '../graph/index.js';

/**
 * The random policy a probability is computed for.
 * - `available`: uniform over the game's available actions, ACTION6 with a uniform cell.
 * - `reference`: the ARC-AGI-3-Agents random agent, uniform over ACTION1..ACTION7 whether available
 *   or not (an unavailable action leaves the state unchanged), ACTION6 with a uniform cell.
 */
export type Policy = 'available' | 'reference';
export const POLICIES: readonly Policy[] = ['available', 'reference'];

/**
 * Transition weights as integers over one common denominator, so exact arithmetic stays in
 * integers: edge e is taken with probability weight[e] / denominator. Self-loops are not edges
 * here: their weight, and the weight of unavailable actions under `reference`, is in `stay`.
 */
export interface TransitionWeights {
  readonly policy: Policy;
  readonly denominator: number;
  /** Per edge; 0 for self-loop edges (counted in `stay`). */
  readonly weight: Uint32Array;
  /** Per node: the weight of the moves that leave it unchanged. */
  readonly stay: Uint32Array;
}

function popcount8(bits: number): number {
  let n = 0;
  for (let b = bits; b !== 0; b &= b - 1) n++;
  return n;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * An action's weight is 4,096 (a keyboard action) or its cell count (a click class), over
 * 4,096 times the number of actions the policy draws from; multiplicity is kept, so two actions
 * into one successor weigh twice. The weights are then divided by their common divisor to keep
 * exact numbers small. Throws if an expanded node's moves do not add up to every action.
 */
export function transitionWeights(graph: StateGraph, policy: Policy): TransitionWeights {
  const { nodeCount, edgeStart, edgeTarget, edgeKeys, edgeCells, flags, actions } = graph;
  const drawn = policy === 'available' ? actions.length : 7;
  const unavailable = (drawn - actions.length) * CELLS;
  const cells = actions.includes(GameAction.ACTION6) ? edgeCells : undefined;
  const weight = new Uint32Array(graph.edgeCount);
  const stay = new Uint32Array(nodeCount);
  let common = drawn * CELLS;
  for (let u = 0; u < nodeCount; u++) {
    if ((flags[u] & NodeFlag.EXPANDED) === 0) continue;
    let total = 0;
    for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
      const w = popcount8(edgeKeys[e]) * CELLS + (cells ? cells[e] : 0);
      total += w;
      if (edgeTarget[e] === u) stay[u] += w;
      else weight[e] = w;
      common = gcd(common, w);
    }
    if (total !== actions.length * CELLS) {
      throw new Error(`node ${u}: its moves weigh ${total}, not ${actions.length} actions of ${CELLS} (an incomplete expansion?)`);
    }
    stay[u] += unavailable;
    common = gcd(common, stay[u]);
  }
  if (common > 1) {
    for (let e = 0; e < weight.length; e++) weight[e] /= common;
    for (let u = 0; u < nodeCount; u++) stay[u] /= common;
  }
  return { policy, denominator: (drawn * CELLS) / common, weight, stay };
}
