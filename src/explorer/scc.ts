/**
 * Strongly connected components of a CSR graph by an iterative Tarjan (explicit stacks, no
 * recursion: state graphs have chains of millions). Components are numbered in the order Tarjan
 * completes them, which is a reverse topological order of the condensation: every edge goes from
 * a component to one with a smaller or equal number.
 */
export interface Components {
  count: number;
  /** Component number of each node. */
  of: Int32Array;
}

export function stronglyConnected(nodeCount: number, edgeStart: Int32Array, edgeTarget: Int32Array): Components {
  const index = new Int32Array(nodeCount).fill(-1);
  const low = new Int32Array(nodeCount);
  const of = new Int32Array(nodeCount).fill(-1);
  const stack = new Int32Array(nodeCount);
  const callNode = new Int32Array(nodeCount);
  const callEdge = new Int32Array(nodeCount);
  let sp = 0;
  let next = 0;
  let count = 0;
  for (let root = 0; root < nodeCount; root++) {
    if (index[root] >= 0) continue;
    let depth = 0;
    callNode[0] = root;
    callEdge[0] = edgeStart[root];
    index[root] = low[root] = next++;
    stack[sp++] = root;
    while (depth >= 0) {
      const u = callNode[depth];
      const e = callEdge[depth];
      if (e < edgeStart[u + 1]) {
        callEdge[depth] = e + 1;
        const v = edgeTarget[e];
        if (index[v] < 0) {
          index[v] = low[v] = next++;
          stack[sp++] = v;
          depth++;
          callNode[depth] = v;
          callEdge[depth] = edgeStart[v];
        } else if (of[v] < 0 && index[v] < low[u]) {
          low[u] = index[v];
        }
        continue;
      }
      if (low[u] === index[u]) {
        let w: number;
        do {
          w = stack[--sp];
          of[w] = count;
        } while (w !== u);
        count++;
      }
      depth--;
      if (depth >= 0) {
        const p = callNode[depth];
        if (low[u] < low[p]) low[p] = low[u];
      }
    }
  }
  return { count, of };
}
