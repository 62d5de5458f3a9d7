/**
 * Test support: a brute-force, single-threaded breadth-first builder of a StateGraph straight from
 * a game, independent of the explorer (states keyed by their full canonical bytes, no hashing), so
 * analysis tests check against a graph built another way.
 */
import { GameAction, actionCode, type Action } from '../../src/engine/index.js';
import { clickClasses, type Game } from '../../src/engine/index.js';
import { NodeFlag, type StateGraph } from '../../src/graph/index.js';

/**
 * The graph of `level`, expanding at most `maxExpanded` states in breadth-first order (the rest
 * of the discovered states form the frontier).
 */
export function bruteForceGraph(game: Game, level: number, maxExpanded = Infinity): StateGraph {
  const states: unknown[] = [];
  const ids = new Map<string, number>();
  const flags: number[] = [];
  const depth: number[] = [];
  const edgeStart: number[] = [0];
  const edgeTarget: number[] = [];
  const edgeKeys: number[] = [];
  const edgeCells: number[] = [];
  const edgeAction: number[] = [];

  const nodeOf = (state: unknown, from: number): number => {
    const key = Buffer.from(game.encode(state)).toString('latin1');
    const known = ids.get(key);
    if (known !== undefined) return known;
    const id = states.length;
    ids.set(key, id);
    states.push(state);
    const status = game.status(state);
    flags.push(status === 'won' ? NodeFlag.WON | (level === game.levels ? NodeFlag.COMPLETE : 0) : status === 'lost' ? NodeFlag.LOST : 0);
    depth.push(from < 0 ? 0 : depth[from] + 1);
    return id;
  };

  nodeOf(game.init(level), -1);
  let expanded = 0;
  for (let u = 0; u < states.length; u++) {
    if (flags[u] === 0 && expanded < maxExpanded) {
      expanded++;
      flags[u] |= NodeFlag.EXPANDED;
      const edgeOf = new Map<number, number>();
      const move = (action: Action, cells: number): void => {
        const code = actionCode(action);
        const v = nodeOf(game.step(states[u], action), u);
        let e = edgeOf.get(v);
        if (e === undefined) {
          e = edgeTarget.length;
          edgeOf.set(v, e);
          edgeTarget.push(v);
          edgeKeys.push(0);
          edgeCells.push(0);
          edgeAction.push(code);
        }
        if (action.id === GameAction.ACTION6) edgeCells[e] += cells;
        else edgeKeys[e] |= 1 << action.id;
      };
      for (const id of game.actions) {
        if (id === GameAction.ACTION6) for (const c of clickClasses(game, states[u])) move({ id, x: c.x, y: c.y }, c.cells);
        else move({ id }, 0);
      }
    }
    edgeStart.push(edgeTarget.length);
  }

  return {
    nodeCount: states.length,
    edgeCount: edgeTarget.length,
    edgeStart: Uint32Array.from(edgeStart),
    edgeTarget: Int32Array.from(edgeTarget),
    edgeKeys: Uint8Array.from(edgeKeys),
    edgeCells: Uint16Array.from(edgeCells),
    edgeAction: Uint16Array.from(edgeAction),
    flags: Uint8Array.from(flags),
    layerStart: layersOf(depth),
    actions: game.actions,
  };
}

/** Breadth-first layer starts from each node's depth (nodes numbered breadth-first, so depths never fall). */
function layersOf(depth: number[]): Uint32Array {
  const starts = [0];
  for (let v = 1; v < depth.length; v++) if (depth[v] !== depth[v - 1]) starts.push(v);
  starts.push(depth.length);
  return Uint32Array.from(starts);
}

/** One node of a hand-made graph: its flags and its moves (keyboard bits and/or click cells). */
export interface NodeSpec {
  flags: number;
  edges: { to: number; keys?: number; cells?: number }[];
}

/** A StateGraph from hand-made nodes (node 0 is the root), without BFS layers. */
export function graphOf(actions: StateGraph['actions'], nodes: readonly NodeSpec[]): StateGraph {
  const n = nodes.length;
  const edgeStart = new Uint32Array(n + 1);
  nodes.forEach((node, u) => (edgeStart[u + 1] = edgeStart[u] + node.edges.length));
  const m = edgeStart[n];
  const edgeTarget = new Int32Array(m);
  const edgeKeys = new Uint8Array(m);
  const edgeCells = new Uint16Array(m);
  const edgeAction = new Uint16Array(m);
  nodes.forEach((node, u) =>
    node.edges.forEach((edge, i) => {
      const e = edgeStart[u] + i;
      edgeTarget[e] = edge.to;
      edgeKeys[e] = edge.keys ?? 0;
      edgeCells[e] = edge.cells ?? 0;
      // the first key in action order, else a click
      const key = [1, 2, 3, 4, 5, 7].find((k) => (edgeKeys[e] >> k) & 1);
      edgeAction[e] = key ?? actionCode({ id: GameAction.ACTION6, x: 0, y: 0 });
    }),
  );
  return {
    nodeCount: n,
    edgeCount: m,
    edgeStart,
    edgeTarget,
    edgeKeys,
    edgeCells,
    edgeAction,
    flags: Uint8Array.from(nodes, (node) => node.flags),
    actions,
  };
}
