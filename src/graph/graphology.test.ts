import { DOMParser } from '@xmldom/xmldom';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import graphology from 'graphology';
import { parse as parseGexf } from 'graphology-library/gexf.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import maze from '../../test/fixtures/maze.js';
import { GEXF_VIZ_NAMESPACE, exportGraph, gexfText, toGraphology } from './graphology.js';
import { exploreGraph } from '../explorer/index.js';
import type { Game } from '../engine/index.js';

const dir = mkdtempSync(join(tmpdir(), 'arcgraph-gexf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GEXF export', () => {
  it('declares the GEXF 1.2 viz namespace that Gephi reads (graphology-gexf writes http:///...)', async () => {
    const file = join(dir, 'maze.gexf');
    await exportGraph(bruteForceGraph(maze, 1), file);
    const doc = new DOMParser().parseFromString(readFileSync(file, 'utf8'), 'text/xml');
    const root = doc.documentElement!;
    expect(root.tagName).toBe('gexf');
    expect(root.getAttribute('xmlns:viz')).toBe('http://www.gexf.net/1.2draft/viz');
    expect(root.lookupNamespaceURI('viz')).toBe(GEXF_VIZ_NAMESPACE);
    expect(root.namespaceURI).toBe('http://www.gexf.net/1.2draft');
    expect(root.getAttribute('version')).toBe('1.2');
    // a well-formed URI: scheme, two slashes, a host
    expect(new URL(GEXF_VIZ_NAMESPACE).host).toBe('www.gexf.net');
  });

  it('changes nothing else: the file reads back to the same graph', () => {
    const g = toGraphology(bruteForceGraph(maze, 2));
    const back = parseGexf(graphology.DirectedGraph, gexfText(g));
    expect(back.order).toBe(g.order);
    expect(back.size).toBe(g.size);
    g.forEachNode((key, attrs) => expect(back.getNodeAttribute(key, 'depth')).toBe(attrs.depth));
  });

  it('names the clicks of an edge a key also takes as ACTION6, with their cell count', async () => {
    // From 0, ACTION1 and a click in the bottom half (2,048 cells) both lead to 1.
    const game: Game<{ x: number }> = {
      id: 'mixd', title: 'keys and clicks on one edge', levels: 1, tutorialLevels: 0, actions: [1, 6],
      init: () => ({ x: 0 }),
      step: (s, a) => ({ x: a.id === 1 || a.y! >= 32 ? 1 : s.x }),
      status: () => 'playing',
      render: () => [new Uint8Array(4096)],
      encode: (s) => Uint8Array.of(s.x),
      decode: (b) => ({ x: b[0] }),
      clickTargets: () => [{ x: 0, y: 32, w: 64, h: 32 }],
    };
    const { graph } = await exploreGraph(game, { level: 1, workers: 1 });
    const g = toGraphology(graph);
    expect(g.getEdgeAttribute(g.edge('0', '1'), 'actions')).toBe('ACTION1 ACTION6x2048');
  });
});
