/** Strongly connected components of a state graph (Pearce's space-efficient Tarjan, iterative). */
import type { StateGraph } from './graph.js';

/**
 * Strongly connected components of the subgraph induced by the nodes with `inside[v]` set (all
 * nodes when omitted),
 * listed successors first (reverse topological order), which is the order an absorbing chain is
 * solved in. Component c is nodes[compStart[c] .. compStart[c+1]-1].
 */
export interface Components {
  readonly count: number;
  readonly compStart: Int32Array;
  readonly nodes: Int32Array;
  /** Component of each node, -1 outside the subgraph. */
  readonly compOf: Int32Array;
}

type Graph = Pick<StateGraph, 'nodeCount' | 'edgeStart' | 'edgeTarget'>;

/**
 * D. J. Pearce, "A space-efficient algorithm for finding strongly connected components" (2016):
 * one index per node (its visit number while open, its component label once closed: labels count
 * down from n while visit numbers count up, so they never meet), no lowlink or on-stack arrays,
 * and the call stack and the component stack sharing one array from either end (together they
 * never hold more than the subgraph's nodes). Explicit stacks: graphs have millions of nodes and
 * long chains. `close(v)` is called for each node as its component closes, the component's root
 * last; returns the labels (n, n-1, ... in closing order; 0 outside) and the component count.
 */
function pearce(graph: Graph, inside: Uint8Array | undefined, close: (v: number, root: boolean) => void): { rindex: Int32Array; count: number } {
  const n = graph.nodeCount;
  const { edgeStart, edgeTarget } = graph;
  const size = subgraphSize(n, inside);
  /** 0 unvisited, else the visit number (open) or component label (closed). */
  const rindex = new Int32Array(n);
  /** Call stack from the top (stack[call..size-1], innermost first), closed non-roots from the bottom (stack[0..held-1]). */
  const stack = new Int32Array(size);
  /** Per call depth: the next edge to follow, and whether the node is still its component's root. */
  const next = new Uint32Array(size);
  const root = new Uint8Array(size);
  let index = 1;
  let label = n;
  let call = size;
  let held = 0;

  for (let r = 0; r < n; r++) {
    if ((inside && !inside[r]) || rindex[r] !== 0) continue;
    rindex[r] = index++;
    stack[--call] = r;
    next[size - 1 - call] = edgeStart[r];
    root[size - 1 - call] = 1;
    while (call < size) {
      const d = size - 1 - call;
      const v = stack[call];
      const e = next[d];
      if (e < edgeStart[v + 1]) {
        next[d] = e + 1;
        const w = edgeTarget[e];
        if ((inside && !inside[w]) || w === v) continue;
        if (rindex[w] === 0) {
          rindex[w] = index++;
          stack[--call] = w;
          next[d + 1] = edgeStart[w];
          root[d + 1] = 1;
        } else if (rindex[w] < rindex[v]) {
          rindex[v] = rindex[w];
          root[d] = 0;
        }
        continue;
      }
      call++;
      if (root[d]) {
        index--;
        while (held > 0 && rindex[v] <= rindex[stack[held - 1]]) {
          const w = stack[--held];
          rindex[w] = label;
          index--;
          close(w, false);
        }
        rindex[v] = label--;
        close(v, true);
      } else {
        stack[held++] = v;
      }
      if (call < size) {
        const parent = stack[call];
        if (rindex[v] < rindex[parent]) {
          rindex[parent] = rindex[v];
          root[d - 1] = 0;
        }
      }
    }
  }
  return { rindex, count: n - label };
}

function subgraphSize(n: number, inside: Uint8Array | undefined): number {
  if (!inside) return n;
  let size = 0;
  for (let v = 0; v < n; v++) size += inside[v];
  return size;
}

/** The components, successors first (see Components). About 17 bytes a node while it runs, the output's 8 included. */
export function stronglyConnected(graph: Graph, inside?: Uint8Array): Components {
  const n = graph.nodeCount;
  const nodes = new Int32Array(subgraphSize(n, inside));
  let emitted = 0;
  const { rindex, count } = pearce(graph, inside, (v) => void (nodes[emitted++] = v));
  // Labels n, n-1, ... in closing order become components 0, 1, ...
  const compOf = rindex;
  for (let v = 0; v < n; v++) compOf[v] = compOf[v] === 0 ? -1 : n - compOf[v];
  const compStart = new Int32Array(count + 1);
  for (let i = 0, c = -1; i < emitted; i++) {
    const k = compOf[nodes[i]];
    if (k !== c) compStart[(c = k)] = i;
  }
  compStart[count] = emitted;
  return { count, compStart, nodes, compOf };
}

/** Component sizes only, for the graph's cycle measures: how many have 2+ nodes, and the largest (13 bytes a node while it runs, nothing kept). */
export function componentSizes(graph: Graph): { count: number; nonTrivial: number; largest: number } {
  let nonTrivial = 0;
  let largest = 0;
  let size = 0;
  const { count } = pearce(graph, undefined, (_v, root) => {
    size++;
    if (!root) return;
    if (size > 1) nonTrivial++;
    largest = Math.max(largest, size);
    size = 0;
  });
  return { count, nonTrivial, largest: nonTrivial > 0 ? largest : 0 };
}
