/** The state graph as a graphology graph, and its export to GEXF / JSON files. */
import { writeFileAtomic } from '../files.js';
import graphology from 'graphology';
import { write as writeGexf } from 'graphology-library/gexf.js';
import { CELLS, CLICK_BASE, GameAction, codeName } from '../engine/index.js';
import { fingerprintHex } from '../engine/index.js';
import { InputError } from '../errors.js';
import { edgeAction, NodeFlag, TERMINAL, type StateGraph } from './graph.js';

type DirectedGraph = InstanceType<typeof graphology.DirectedGraph>;

/**
 * Graphology holds about 1M nodes + 3M edges in 1.2 GB and no more than 16.7M of either (V8 Map
 * limit): past these we say so and keep the compact graph instead.
 */
export const GRAPHOLOGY_LIMITS = { nodes: 1_000_000, edges: 4_000_000 } as const;

export function fitsGraphology(g: StateGraph): boolean {
  return g.nodeCount <= GRAPHOLOGY_LIMITS.nodes && g.edgeCount <= GRAPHOLOGY_LIMITS.edges;
}

export type NodeKind = 'start' | 'won' | 'complete' | 'lost' | 'frontier' | 'state';

export function nodeKind(g: StateGraph, u: number): NodeKind {
  const f = g.flags[u];
  if (f & NodeFlag.COMPLETE) return 'complete';
  if (f & NodeFlag.WON) return 'won';
  if (f & NodeFlag.LOST) return 'lost';
  if (u === 0) return 'start';
  return f & NodeFlag.EXPANDED ? 'state' : 'frontier';
}

/** The action names that take edge `e`: keyboard actions from its bits, then its click cells. */
export function edgeActions(g: StateGraph, e: number): string[] {
  const names: string[] = [];
  for (let id = 1; id <= 7; id++) if (g.edgeKeys[e] & (1 << id)) names.push(codeName(id));
  const cells = g.edgeCells?.[e] ?? 0;
  if (cells > 0) {
    // The edge keeps one action: its click cell only when no key reached the edge first.
    const code = edgeAction(g, e);
    const click = code >= CLICK_BASE ? codeName(code) : 'ACTION6';
    names.push(cells === 1 ? click : `${click}x${cells}`);
  }
  return names;
}

/** Probability of edge `e` under the uniform policy over the available actions. */
export function edgeWeight(g: StateGraph, e: number): number {
  let keys = 0;
  for (let id = 1; id <= 7; id++) if (g.edgeKeys[e] & (1 << id)) keys++;
  const clicks = g.actions.includes(GameAction.ACTION6) ? (g.edgeCells?.[e] ?? 0) / CELLS : 0;
  return (keys + clicks) / g.actions.length;
}

/**
 * The Graphology directed graph users get: node keys are BFS numbers ("0" is the reset state),
 * attributes depth, kind (start, state, won, complete, lost or frontier), frontier, fingerprint; edge attributes actions and weight.
 */
export function toGraphology(g: StateGraph): DirectedGraph {
  if (!fitsGraphology(g)) {
    throw new InputError(`graph of ${g.nodeCount} nodes and ${g.edgeCount} edges is above Graphology's practical limits (${GRAPHOLOGY_LIMITS.nodes} nodes, ${GRAPHOLOGY_LIMITS.edges} edges)`);
  }
  const graph = new graphology.DirectedGraph();
  for (let u = 0, d = 0; u < g.nodeCount; u++) {
    const kind = nodeKind(g, u);
    while (g.layerStart && u >= g.layerStart[d + 1]) d++;
    graph.addNode(String(u), {
      ...(g.layerStart ? { depth: d } : {}),
      kind,
      frontier: !(g.flags[u] & (TERMINAL | NodeFlag.EXPANDED)),
      ...(g.fingerprintLo && g.fingerprintHi ? { fingerprint: fingerprintHex(g.fingerprintLo[u], g.fingerprintHi[u]) } : {}),
    });
  }
  for (let u = 0; u < g.nodeCount; u++) {
    for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) {
      graph.addDirectedEdgeWithKey(String(e), String(u), String(g.edgeTarget[e]), { actions: edgeActions(g, e).join(' '), weight: edgeWeight(g, e) });
    }
  }
  return graph;
}

/** GEXF 1.2's viz namespace (https://gexf.net/1.2/viz.xsd): what Gephi expects on `xmlns:viz`. */
export const GEXF_VIZ_NAMESPACE = 'http://www.gexf.net/1.2draft/viz';

/**
 * graphology-gexf writes GEXF 1.2 with `xmlns:viz="http:///www.gexf.net/1.1draft/viz"` (three
 * slashes, and the 1.1 draft): not a URI, and Gephi refuses the file. Only the root element
 * carries it, so the attribute is rewritten there.
 */
export function gexfText(graph: DirectedGraph): string {
  const text = writeGexf(graph);
  const fixed = text.replace(/(<gexf\b[^>]*?\sxmlns:viz=")[^"]*(")/, `$1${GEXF_VIZ_NAMESPACE}$2`);
  if (!fixed.includes(`xmlns:viz="${GEXF_VIZ_NAMESPACE}"`)) throw new Error('internal error: the GEXF writer no longer declares the viz namespace on <gexf>');
  return fixed;
}

/** Writes the graph as GEXF (.gexf) or Graphology JSON (.json), atomically (temp file, then rename). */
export async function exportGraph(g: StateGraph, file: string): Promise<void> {
  const format = file.endsWith('.gexf') ? 'gexf' : file.endsWith('.json') ? 'json' : undefined;
  if (!format) throw new InputError(`--export ${file}: the file must end in .gexf (Gephi) or .json (Graphology)`);
  const graph = toGraphology(g);
  const text = format === 'gexf' ? gexfText(graph) : JSON.stringify(graph.export());
  writeFileAtomic(file, text);
}
