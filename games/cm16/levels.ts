/**
 * The levels of cm16 (colour mosaic) as text, and their compiled form.
 *
 * `layout` has 2h-1 rows of 2w-1 characters: at even (row, column) a cell's cycle length '2'..'4';
 * a '-' or '|' between two cells links them (a click on either cycles both); spaces elsewhere.
 * `locked` marks with '#' the cells that cannot be clicked (they change only through links).
 * `start` and `target` give each cell's colour as an index into its cycle.
 * With `mirror`, a click also acts on the cell mirrored across the vertical axis of the board.
 */
export interface MosaicLevelSpec {
  layout: readonly string[];
  locked?: readonly string[];
  start: readonly string[];
  target: readonly string[];
  mirror?: boolean;
  /** Actions (clicks and submits) before the timer runs out. */
  budget: number;
  /** Human-style action count for the level. */
  baseline: number;
}

export const LIVES = 3;

export const MOSAIC_LEVELS: readonly MosaicLevelSpec[] = [
  {
    // Tutorial: two clicks on the diagonal, then submit.
    layout: ['2 2', '   ', '2 2'],
    start: ['00', '00'],
    target: ['10', '01'],
    budget: 8,
    baseline: 3,
  },
  {
    // Three colours per cell.
    layout: ['3 3 3', '     ', '3 3 3'],
    start: ['000', '000'],
    target: ['121', '201'],
    budget: 10,
    baseline: 9,
  },
  {
    // Cycle lengths differ (the strip under each cell shows its cycle): clicking past the wanted
    // colour costs a whole turn of that cell's cycle.
    layout: ['4 2 3', '     ', '3 4 2', '     ', '2 3 4'],
    start: ['101', '020', '012'],
    target: ['312', '101', '003'],
    budget: 16,
    baseline: 13,
  },
  {
    // Linked chains: a click cycles the cell and every cell linked to it.
    layout: ['3-3-3', '    |', '3 3 3', '|    ', '3-3 3'],
    start: ['000', '000', '000'],
    target: ['121', '212', '121'],
    budget: 18,
    baseline: 15,
  },
  {
    // Locked cells (grey corners) change only through their links.
    layout: ['3-4 3-2', '|     |', '3 3-2 4', '  |    ', '4 3 3-3'],
    locked: ['.#..', '#..#', '..#.'],
    start: ['0000', '0000', '0000'],
    target: ['2201', '2212', '1000'],
    budget: 17,
    baseline: 14,
  },
  {
    // Mirror: a click also cycles the cell mirrored across the central axis.
    layout: ['4 3-3 4', '|     |', '3 4 4 3', '       ', '3-4 4-3', '  | |  ', '4 3 3 4'],
    locked: ['....', '....', '....', '.##.'],
    start: ['0000', '0000', '0000', '0000'],
    target: ['1111', '2002', '0220', '0000'],
    mirror: true,
    budget: 20,
    baseline: 17,
  },
  {
    // Everything together on a wide mirrored board.
    layout: [
      '3-4 3 3 4-3',
      '|   | |   |',
      '2 3-3 3-3 2',
      '  |     |  ',
      '4 3 2-2 3 4',
      '|         |',
      '3 4-3 3-4 3',
    ],
    locked: ['......', '#....#', '......', '..##..'],
    start: ['000000', '000000', '000000', '000000'],
    target: ['131131', '021120', '310013', '230032'],
    mirror: true,
    budget: 32,
    baseline: 28,
  },
];

/** A level ready to play: flat per-cell arrays (cell index = row * w + column). */
export interface MosaicLevel {
  readonly w: number;
  readonly h: number;
  readonly cycle: Uint8Array;
  readonly start: Uint8Array;
  readonly target: Uint8Array;
  readonly locked: Uint8Array;
  /** Linked cell pairs [a, b], a < b. */
  readonly links: readonly (readonly [number, number])[];
  readonly mirror: boolean;
  /** Per cell, the cells a click on it advances (with repeats), or null when it is locked. */
  readonly effects: readonly (readonly number[] | null)[];
  readonly budget: number;
  readonly lives: number;
  readonly baseline: number;
}

function digits(rows: readonly string[], w: number, h: number, what: string): Uint8Array {
  if (rows.length !== h || rows.some((r) => r.length !== w)) throw new Error(`${what} must be ${h} rows of ${w}`);
  return Uint8Array.from(rows.join(''), (c) => Number(c));
}

export function compileLevel(spec: MosaicLevelSpec): MosaicLevel {
  const h = (spec.layout.length + 1) / 2;
  const w = (spec.layout[0].length + 1) / 2;
  const n = w * h;
  const cycle = new Uint8Array(n);
  const links: [number, number][] = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      cycle[r * w + c] = Number(spec.layout[2 * r][2 * c]);
      if (spec.layout[2 * r][2 * c + 1] === '-') links.push([r * w + c, r * w + c + 1]);
      if (spec.layout[2 * r + 1]?.[2 * c] === '|') links.push([r * w + c, (r + 1) * w + c]);
    }
  }
  const start = digits(spec.start, w, h, 'start');
  const target = digits(spec.target, w, h, 'target');
  const locked = spec.locked ? Uint8Array.from(digits(spec.locked.map((r) => r.replace(/#/g, '1').replace(/\./g, '0')), w, h, 'locked')) : new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!(cycle[i] >= 2 && cycle[i] <= 4)) throw new Error(`cell ${i}: cycle length must be 2..4`);
    if (start[i] >= cycle[i] || target[i] >= cycle[i]) throw new Error(`cell ${i}: colour outside its cycle`);
  }
  const own = (i: number): number[] => [i, ...links.filter(([a, b]) => a === i || b === i).map(([a, b]) => (a === i ? b : a))];
  const mirrorOf = (i: number): number => Math.floor(i / w) * w + (w - 1 - (i % w));
  const effects = Array.from({ length: n }, (_, i) => {
    if (locked[i]) return null;
    const m = mirrorOf(i);
    return spec.mirror && m !== i ? [...own(i), ...own(m)] : own(i);
  });
  return { w, h, cycle, start, target, locked, links, mirror: spec.mirror ?? false, effects, budget: spec.budget, lives: LIVES, baseline: spec.baseline };
}
