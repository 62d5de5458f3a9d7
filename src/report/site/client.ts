/**
 * assets/site.js, the report site's one script of its own (plain browser JavaScript, kept here as
 * text so the build needs no bundler): draws the level page's state graph with sigma.js and its
 * trends over nights with uPlot, from the data the page loaded beside it (window.ARCGRAPH_GRAPH,
 * window.ARCGRAPH_TRENDS). Colours and names of the kinds come from graph-view's VIEW_KINDS.
 */
import { PATH_SHOWN, VIEW_KINDS } from '../graph-view.js';

/** Fill colour of each kind, in VIEW_KINDS order (the page's legend uses the same). */
export const KIND_COLOURS: Record<(typeof VIEW_KINDS)[number], string> = {
  state: '#999999',
  frontier: '#FFDC00',
  dead: '#A356D0',
  lost: '#F93C31',
  won: '#4FCC30',
  start: '#1E93FF',
};

export const KIND_LABELS: Record<(typeof VIEW_KINDS)[number], string> = {
  state: 'state',
  frontier: 'unexplored (frontier)',
  dead: 'dead end (no win reachable)',
  lost: 'game over',
  won: 'level won',
  start: 'start (reset state)',
};

export function clientScript(): string {
  const kinds = JSON.stringify(VIEW_KINDS);
  const colours = JSON.stringify(VIEW_KINDS.map((k) => KIND_COLOURS[k]));
  const labels = JSON.stringify(VIEW_KINDS.map((k) => KIND_LABELS[k]));
  return `/* arcgraph report site: state graph (sigma.js) and trends (uPlot). Generated; do not edit. */
(function () {
  'use strict';
  var KINDS = ${kinds}, COLOURS = ${colours}, LABELS = ${labels};
  var PATH_SHOWN = ${PATH_SHOWN};

  function pathText(actions, length) {
    if (length === undefined) length = actions.length;
    if (length === 0) return '(the start)';
    var shown = actions.slice(0, PATH_SHOWN).join(' ');
    return length > PATH_SHOWN ? shown + ' … (' + length + ' actions)' : shown;
  }

  function statesGraph(data) {
    var g = new graphology.DirectedGraph();
    var n = data.x.length, small = n <= 2000;
    for (var u = 0; u < n; u++) {
      var k = data.kind[u];
      var marked = KINDS[k] !== 'state' && KINDS[k] !== 'frontier';
      g.addNode(String(u), { x: data.x[u], y: -data.y[u], color: COLOURS[k], zIndex: k,
        size: (small ? 4 : 2) * (KINDS[k] === 'start' ? 2.2 : marked ? 1.5 : 1) });
    }
    for (var i = 0; i < data.edges.length; i += 2) g.addDirectedEdge(String(data.edges[i]), String(data.edges[i + 1]), { color: '#D0D0D0', size: small ? 1 : 0.5 });
    var describe = function (node) {
      var v = Number(node), path = [];
      for (var w = v; data.parent[w] >= 0; w = data.parent[w]) path.push(data.actions[data.action[w]]);
      path.reverse();
      return '<b>state ' + v + '</b>: ' + LABELS[data.kind[v]] + ', depth ' + data.depth[v] + '<br>path: ' + pathText(path);
    };
    return { graph: g, describe: describe };
  }

  function condensedGraph(data) {
    var g = new graphology.DirectedGraph();
    var biggest = 1;
    data.groups.forEach(function (grp) { biggest = Math.max(biggest, grp.count); });
    data.groups.forEach(function (grp, i) {
      g.addNode(String(i), { x: grp.x, y: -grp.y, color: COLOURS[grp.kind], zIndex: grp.kind,
        size: 3 + 12 * Math.log(1 + grp.count) / Math.log(1 + biggest) });
    });
    for (var i = 0; i < data.edges.length; i += 3) {
      g.addDirectedEdge(String(data.edges[i]), String(data.edges[i + 1]), { color: '#C8C8C8', size: 0.5 + Math.log10(1 + data.edges[i + 2]) });
    }
    var describe = function (node) {
      var grp = data.groups[Number(node)];
      return '<b>' + grp.count.toLocaleString('en-US') + ' states</b>: ' + LABELS[grp.kind] + ', depth ' + grp.depth +
        '<br>path to one: ' + pathText(grp.example, grp.depth);
    };
    return { graph: g, describe: describe };
  }

  function drawGraph() {
    var box = document.getElementById('graph');
    var data = window.ARCGRAPH_GRAPH;
    if (!box || !data) return;
    var made = data.view === 'states' ? statesGraph(data) : condensedGraph(data);
    var renderer = new Sigma(made.graph, box, { zIndex: true, renderLabels: false, labelRenderedSizeThreshold: Infinity,
      defaultEdgeType: 'line', enableEdgeEvents: false, allowInvalidContainer: true });
    var tip = document.getElementById('tooltip');
    renderer.on('enterNode', function (e) {
      var at = renderer.graphToViewport(made.graph.getNodeAttributes(e.node));
      tip.innerHTML = made.describe(e.node);
      tip.style.left = Math.min(at.x + 12, box.clientWidth - 200) + 'px';
      tip.style.top = (at.y + 12) + 'px';
      tip.style.display = 'block';
    });
    renderer.on('leaveNode', function () { tip.style.display = 'none'; });
    window.arcgraphGraph = { renderer: renderer, graph: made.graph };
  }

  /** One small uPlot chart per measure, nights on the x axis. */
  function drawTrends() {
    var box = document.getElementById('trends');
    var points = window.ARCGRAPH_TRENDS;
    if (!box || !points) return;
    var xs = points.map(function (p) { return Date.parse(p.startedAt) / 1000; });
    var positive = function (v) { return v === null || v <= 0 ? null : v; };
    var charts = [
      { title: 'States explored', y: 'states', series: [{ label: 'states', values: points.map(function (p) { return p.states; }), stroke: '#1E93FF' }] },
      { title: 'Shortest solution', y: 'actions', series: [{ label: 'shortest', values: points.map(function (p) { return p.shortest; }), stroke: '#4FCC30' }] },
      { title: 'P(random win) bounds', y: 'probability (log)', log: true, series: [
        { label: 'upper', values: points.map(function (p) { return positive(p.pUpper); }), stroke: '#F93C31' },
        { label: 'lower', values: points.map(function (p) { return positive(p.pLower); }), stroke: '#1E93FF' }] },
      { title: 'Seconds for the level', y: 'seconds', series: [{ label: 'seconds', values: points.map(function (p) { return p.seconds; }), stroke: '#A356D0' }] },
    ];
    window.arcgraphCharts = charts.map(function (c) {
      var holder = document.createElement('figure');
      holder.className = 'trend';
      holder.innerHTML = '<figcaption>' + c.title + '</figcaption>';
      box.appendChild(holder);
      var opts = {
        width: 320, height: 200,
        scales: { x: { time: true }, y: c.log ? { distr: 3 } : {} },
        axes: [{ label: 'night', labelSize: 20 }, { label: c.y, labelSize: 20, size: 56 }],
        series: [{ label: 'night' }].concat(c.series.map(function (s) { return { label: s.label, stroke: s.stroke, width: 2, points: { show: true, size: 6 } }; })),
      };
      return new uPlot(opts, [xs].concat(c.series.map(function (s) { return s.values; })), holder);
    });
  }

  drawGraph();
  drawTrends();
})();
`;
}
