/**
 * The data behind a level page's interactive state graph (drawn by sigma.js in the browser):
 * every state with its position, kind, depth and BFS parent (so hovering a state shows the action
 * path to it) for levels up to GRAPH_VIEW_LIMIT states; above that a condensed view, the states
 * grouped by depth and kind, so a big level is a readable picture instead of a hairball.
 * Positions are computed here, at sweep time: ForceAtlas2 for small levels, depth layers otherwise.
 */
import { deadEndNodes } from '../analysis/index.js';
import { codeName } from '../engine/index.js';
import { bfsTree, treePath, type BfsTree, type StateGraph } from '../graph/index.js';
import { kindOf, layoutGraph, PICTURE_LIMIT, type PictureKind } from './graph-picture.js';

/** Levels with at most this many states get every state drawn; bigger ones the condensed view. */
export const GRAPH_VIEW_LIMIT = 50_000;
/** Actions of a path the site shows (the rest it counts). */
export const PATH_SHOWN = 40;

/** Kinds in drawing order (the page's legend and colours index this list). */
export const VIEW_KINDS: readonly PictureKind[] = ['state', 'frontier', 'dead', 'lost', 'won', 'start'];

/** Every state: parallel arrays in node order (node 0 is the start). */
export interface StatesView {
  view: 'states';
  layout: 'forceatlas2' | 'depth-layers';
  x: number[];
  y: number[];
  /** Index into VIEW_KINDS. */
  kind: number[];
  depth: number[];
  /** BFS parent (-1 for the start) and the index into `actions` of the move from it (-1 for the start). */
  parent: number[];
  action: number[];
  actions: string[];
  /** Distinct moves between different states, as flat [from, to, from, to, ...]. */
  edges: number[];
}

/** States grouped by (depth, kind); edges between groups with the number of moves they stand for. */
export interface CondensedView {
  view: 'condensed';
  states: number;
  /** `example`: the first PATH_SHOWN actions of the path to one of the group's states (the path has `depth` actions). */
  groups: { depth: number; kind: number; count: number; x: number; y: number; example: string[] }[];
  /** [from group, to group, moves] triples, flat; moves inside a group are left out. */
  edges: number[];
}

export type GraphView = StatesView | CondensedView;

const round = (v: number): number => Math.round(v * 10_000) / 10_000;

/**
 * Depth layers: x is the depth, and each layer is spread over the height in the order of its
 * states' parents' places in the layer before (children stay near their parents), then node order.
 */
function depthLayers(g: StateGraph, t: BfsTree): { x: number[]; y: number[] } {
  const maxDepth = Math.max(1, ...t.depth);
  const layers: number[][] = [];
  for (let u = 0; u < g.nodeCount; u++) (layers[t.depth[u]] ??= []).push(u);
  const rank = new Float64Array(g.nodeCount);
  const x = new Array<number>(g.nodeCount);
  const y = new Array<number>(g.nodeCount);
  for (const layer of layers) {
    if (!layer) continue;
    layer.sort((a, b) => (t.parent[a] < 0 || t.parent[b] < 0 ? a - b : rank[t.parent[a]] - rank[t.parent[b]] || a - b));
    layer.forEach((u, i) => {
      rank[u] = layer.length === 1 ? 0.5 : i / (layer.length - 1);
      x[u] = round(t.depth[u] / maxDepth);
      y[u] = round(rank[u]);
    });
  }
  return { x, y };
}

function statesView(g: StateGraph, dead: Uint8Array, seed: number, forceAtlasLimit: number): StatesView {
  const forceAtlas = g.nodeCount <= forceAtlasLimit;
  const t = bfsTree(g);
  const { x, y } = forceAtlas ? (({ nodes }) => ({ x: nodes.map((p) => round(p.x)), y: nodes.map((p) => round(p.y)) }))(layoutGraph(g, seed)) : depthLayers(g, t);
  const actions: string[] = [];
  const actionIndex = new Map<number, number>();
  const action = new Array<number>(g.nodeCount);
  for (let u = 0; u < g.nodeCount; u++) {
    if (t.parent[u] < 0) {
      action[u] = -1;
      continue;
    }
    const code = t.parentAction[u];
    let i = actionIndex.get(code);
    if (i === undefined) {
      i = actions.push(codeName(code)) - 1;
      actionIndex.set(code, i);
    }
    action[u] = i;
  }
  const edges: number[] = [];
  for (let u = 0; u < g.nodeCount; u++) for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) if (g.edgeTarget[e] !== u) edges.push(u, g.edgeTarget[e]);
  return {
    view: 'states',
    layout: forceAtlas ? 'forceatlas2' : 'depth-layers',
    x,
    y,
    kind: Array.from({ length: g.nodeCount }, (_, u) => VIEW_KINDS.indexOf(kindOf(g, u, dead))),
    depth: Array.from(t.depth),
    parent: Array.from(t.parent),
    action,
    actions,
    edges,
  };
}

/**
 * The first PATH_SHOWN actions of the tree path to `u` (the site shows no more; the path is as
 * long as the depth). The walk up to the ancestor they end at is remembered in `top` by every
 * state it passes, so all the groups' examples take one pass over the tree: a corridor 60,000
 * states deep has 60,000 groups, whose whole paths made 1.8 billion actions (the sweep ran out of
 * memory).
 */
function examplePath(t: BfsTree, u: number, top: Int32Array): string[] {
  let anchor = u;
  while (t.depth[anchor] > PATH_SHOWN && top[anchor] < 0) anchor = t.parent[anchor];
  if (t.depth[anchor] > PATH_SHOWN) anchor = top[anchor];
  for (let v = u; t.depth[v] > PATH_SHOWN && top[v] < 0; v = t.parent[v]) top[v] = anchor;
  return Array.from(treePath(t, anchor), codeName);
}

function condensedView(g: StateGraph, dead: Uint8Array): CondensedView {
  const K = VIEW_KINDS.length;
  const t = bfsTree(g);
  const groupOf = new Int32Array(g.nodeCount);
  const top = new Int32Array(g.nodeCount).fill(-1);
  const ids = new Map<number, number>();
  const groups: CondensedView['groups'] = [];
  let maxDepth = 1;
  for (let u = 0; u < g.nodeCount; u++) {
    const kind = VIEW_KINDS.indexOf(kindOf(g, u, dead));
    const key = t.depth[u] * K + kind;
    let id = ids.get(key);
    if (id === undefined) {
      id = groups.push({ depth: t.depth[u], kind, count: 0, x: 0, y: 0, example: examplePath(t, u, top) }) - 1;
      ids.set(key, id);
    }
    groups[id].count++;
    groupOf[u] = id;
    maxDepth = Math.max(maxDepth, t.depth[u]);
  }
  for (const grp of groups) {
    grp.x = round(grp.depth / maxDepth);
    grp.y = round(grp.kind / (K - 1));
  }
  const moves = new Map<number, number>();
  for (let u = 0; u < g.nodeCount; u++) {
    for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) {
      const a = groupOf[u];
      const b = groupOf[g.edgeTarget[e]];
      if (a !== b) moves.set(a * groups.length + b, (moves.get(a * groups.length + b) ?? 0) + 1);
    }
  }
  const edges: number[] = [];
  for (const [key, count] of [...moves].sort((p, q) => p[0] - q[0])) edges.push(Math.floor(key / groups.length), key % groups.length, count);
  return { view: 'condensed', states: g.nodeCount, groups, edges };
}

/**
 * The level's graph view: every state up to `limit` states (laid out by ForceAtlas2 up to
 * `forceAtlasLimit`, in depth layers above), else the condensed view. Deterministic for a seed.
 */
export function graphView(g: StateGraph, seed = 1, limit = GRAPH_VIEW_LIMIT, forceAtlasLimit = PICTURE_LIMIT): GraphView {
  const dead = deadEndNodes(g);
  return g.nodeCount <= limit ? statesView(g, dead, seed, forceAtlasLimit) : condensedView(g, dead);
}
