/**
 * A level's artefacts for the report site, made at sweep time while the game and its graph are at
 * hand and written beside its page: the start frame, the filmstrips (shortest win, the path into a
 * dead end, the path into a crash) as PNG frames, and the graph view's data as a script. The site
 * is built later from report.json and these files alone (artefacts.json lists them).
 */
import { join } from 'node:path';
import { framesAlong, parseAction, PathError, type Game } from '../engine/index.js';
import type { StateGraph } from '../graph/index.js';
import { graphView, GRAPH_VIEW_LIMIT } from './graph-view.js';
import { ARTEFACTS_FILE, SITE } from './paths.js';
import { framePng } from './png.js';
import { writeFileAtomic, makeDir } from '../files.js';

/** Filmstrips longer than this show their first frames only (a Python game's path may be long). */
export const FILMSTRIP_LIMIT = 400;

export interface Filmstrip {
  /** Frame files in the level's folder, the start first; `action` led to the frame (null for the start). */
  frames: { file: string; action: string | null; status: string }[];
  /** Actions of the whole path (the frames may stop at FILMSTRIP_LIMIT). */
  length: number;
  /** Why the path could not be played to its end (a game that throws), if it could not. */
  error: string | null;
}

/** artefacts.json: what the level's folder holds. File names are relative to that folder. */
export interface LevelArtefacts {
  start: string | null;
  win: Filmstrip | null;
  deadEnd: Filmstrip | null;
  crash: Filmstrip | null;
  graph: { file: string; view: 'states' | 'condensed'; states: number; nodes: number; edges: number } | null;
  /** What went wrong making them (the page says so). */
  errors: string[];
}

export interface ArtefactInputs {
  game: Game;
  level: number;
  /** The explored graph; absent when the level crashed before the exploration finished. */
  graph?: StateGraph;
  win?: readonly string[] | null;
  deadEnd?: readonly string[] | null;
  crash?: readonly string[] | null;
  seed: number;
  graphLimit?: number;
}


/** Writes the frames of `actions` as `<prefix>-NNN.png`; a game that throws ends the strip where it threw. */
async function filmstrip(dir: string, prefix: string, inputs: ArtefactInputs, names: readonly string[]): Promise<Filmstrip> {
  const shown = names.slice(0, FILMSTRIP_LIMIT);
  let frames;
  let error: string | null = null;
  try {
    frames = framesAlong(inputs.game, inputs.level, shown.map(parseAction));
  } catch (err) {
    if (!(err instanceof PathError)) throw err;
    error = err.message;
    // the frames up to the step that threw
    frames = err.step === 0 ? [] : framesAlong(inputs.game, inputs.level, shown.slice(0, err.step - 1).map(parseAction));
  }
  const strip: Filmstrip = { frames: [], length: names.length, error };
  for (const [i, f] of frames.entries()) {
    const file = `${prefix}-${String(i).padStart(3, '0')}.png`;
    writeFileAtomic(join(dir, file), framePng(f.frame));
    strip.frames.push({ file, action: f.action, status: f.status });
  }
  return strip;
}

/** Makes and writes a level's artefacts under `out` (the report folder); returns what artefacts.json says. */
export async function writeLevelArtefacts(out: string, gameId: string, inputs: ArtefactInputs): Promise<LevelArtefacts> {
  const dir = join(out, SITE.levelDir(gameId, inputs.level));
  makeDir(dir);
  const a: LevelArtefacts = { start: null, win: null, deadEnd: null, crash: null, graph: null, errors: [] };
  const strip = async (prefix: string, names: readonly string[] | null | undefined): Promise<Filmstrip | null> => {
    if (!names) return null;
    try {
      return await filmstrip(dir, prefix, inputs, names);
    } catch (err) {
      a.errors.push(`${prefix} filmstrip: ${(err as Error).message}`);
      return null;
    }
  };
  const start = await strip('start', []);
  a.start = start?.frames[0]?.file ?? null;
  if (start?.error) a.errors.push(start.error);
  a.win = await strip('win', inputs.win);
  a.deadEnd = await strip('dead', inputs.deadEnd);
  a.crash = await strip('crash', inputs.crash);
  if (inputs.graph) {
    const view = graphView(inputs.graph, inputs.seed, inputs.graphLimit ?? GRAPH_VIEW_LIMIT);
    const file = 'graph.js';
    // a script, not JSON: a page opened from disk may load scripts beside it but not fetch files
    writeFileAtomic(join(dir, file), `window.ARCGRAPH_GRAPH = ${JSON.stringify(view)};\n`);
    const nodes = view.view === 'states' ? view.x.length : view.groups.length;
    const edges = view.edges.length / (view.view === 'states' ? 2 : 3);
    a.graph = { file, view: view.view, states: inputs.graph.nodeCount, nodes, edges };
  }
  writeFileAtomic(join(dir, ARTEFACTS_FILE), `${JSON.stringify(a, null, 2)}\n`);
  return a;
}
