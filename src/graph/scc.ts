/** Strongly connected components of a state graph (iterative Tarjan). */
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

/** Tarjan's algorithm with explicit stacks (no recursion: graphs have millions of nodes). */
export function stronglyConnected(graph: Pick<StateGraph, 'nodeCount' | 'edgeStart' | 'edgeTarget'>, inside?: Uint8Array): Components {
  const n = graph.nodeCount;
  const { edgeStart, edgeTarget } = graph;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callEdge = new Int32Array(n);
  const compOf = new Int32Array(n).fill(-1);
  const nodes = new Int32Array(n);
  const starts: number[] = [0];
  let counter = 0;
  let top = 0;
  let emitted = 0;

  for (let root = 0; root < n; root++) {
    if ((inside && !inside[root]) || index[root] >= 0) continue;
    let depth = 0;
    index[root] = low[root] = counter++;
    stack[top++] = root;
    onStack[root] = 1;
    callNode[depth] = root;
    callEdge[depth++] = edgeStart[root];
    while (depth > 0) {
      const v = callNode[depth - 1];
      const e = callEdge[depth - 1];
      if (e < edgeStart[v + 1]) {
        callEdge[depth - 1] = e + 1;
        const w = edgeTarget[e];
        if ((inside && !inside[w]) || w === v) continue;
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack[top++] = w;
          onStack[w] = 1;
          callNode[depth] = w;
          callEdge[depth++] = edgeStart[w];
        } else if (onStack[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      depth--;
      if (low[v] === index[v]) {
        const c = starts.length - 1;
        let w: number;
        do {
          w = stack[--top];
          onStack[w] = 0;
          compOf[w] = c;
          nodes[emitted++] = w;
        } while (w !== v);
        starts.push(emitted);
      }
      if (depth > 0) {
        const parent = callNode[depth - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
    }
  }
  return { count: starts.length - 1, compStart: Int32Array.from(starts), nodes: nodes.subarray(0, emitted), compOf };
}
