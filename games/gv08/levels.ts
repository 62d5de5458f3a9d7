/**
 * The levels of gv08 (gravity drop) as text maps, and their compiled form.
 *
 * Map characters: '#' wall; '.' empty; 'a'..'d' a trapdoor of group 1..4, closed at the start,
 * 'A'..'D' one that starts open; '1'..'4' the lever of group 1..4 (a click flips every trapdoor
 * of its group); '<' and '>' slopes that roll a ball resting on them one cell left or right;
 * 'e'..'h' a switch slope of group 1..4 that starts rolling balls left, 'E'..'H' one that starts
 * rolling them right (a click on its lever turns it the other way);
 * 'o' and 'p' an orange and a purple ball; 'x' and 'y' a cup for an orange and a purple ball.
 * The last row must be wall: the timer bar is drawn inside it.
 */
export interface DropLevelSpec {
  map: readonly string[];
  /** Clicks before the timer runs out. */
  budget: number;
  /** Human-style action count for the level. */
  baseline: number;
}

export const DROP_LEVELS: readonly DropLevelSpec[] = [
  {
    // Tutorial: each lever opens the trapdoors of its colour.
    map: [
      '#1##2##3#',
      '#o##p##o#',
      '#a##b##c#',
      '#.##.##.#',
      '#.##c##.#',
      '#.##.##.#',
      '#.##y##.#',
      '#########',
    ],
    budget: 8,
    baseline: 2,
  },
  {
    // Slopes funnel every ball onto the gate: orange first, then the right column's purple and orange
    // (one lever drops both, the lower first), purple last; the gate opens at any point before.
    map: [
      '#1#2##4##3#',
      '#.#.#####o#',
      '#o#p#####p#',
      '#a#b#####c#',
      '#.........#',
      '#>>>>d<<<<#',
      '#####.#####',
      '#####y#####',
      '#####x#####',
      '#####y#####',
      '#####x#####',
      '###########',
    ],
    budget: 5,
    baseline: 4,
  },
  {
    // One lever flips trapdoors in several stacks, some opening while others close: one order only.
    map: [
      '#1#2#3#4#',
      '#o#p#o#p#',
      '#b#a#c#d#',
      '#.#.#.#.#',
      '#D#b#b#A#',
      '#.#.#.#.#',
      '#B#d#A#C#',
      '#.#.#.#.#',
      '#x#y#x#y#',
      '#########',
    ],
    budget: 8,
    baseline: 6,
  },
  {
    // A gate at the top of the cup shaft holds what rolls in; a lever drops balls on both sides,
    // and undoing a click (a lever flipped back) lines up the next stage.
    map: [
      '#1#2##4###3##',
      '#o#p######op#',
      '#b#b######aA#',
      '#.#.######..#',
      '#C#c######Cc#',
      '#...........#',
      '#>>>>>.<<<<<#',
      '######d######',
      '######.######',
      '######x######',
      '######y######',
      '######x######',
      '######y######',
      '#############',
    ],
    budget: 9,
    baseline: 7,
  },
  {
    // Trapdoors in stacks, flipped in opposite phases, over a funnel into two shafts.
    map: [
      '#1#2#3##4#2#1#',
      '#o#p#o##p#o#p#',
      '#B#a#c##A#c#b#',
      '#.#.#.##.#.#.#',
      '#c#B#A##B#C#B#',
      '#............#',
      '#>>>>>..<<<<<#',
      '######dd######',
      '######..######',
      '######xy######',
      '######yx######',
      '######xy######',
      '##############',
    ],
    budget: 10,
    baseline: 8,
  },
  {
    // A switch slope sends what falls on it left or right, turned back and forth between drops.
    map: [
      '##1#2#34##2#1##',
      '#.o#o#####p#p.#',
      '#.b#a#####A#A.#',
      '#..#.#####.#..#',
      '#.A#B#####B#a.#',
      '#.............#',
      '#.>>>>>.<<<<<.#',
      '#######d#######',
      '######...######',
      '######.G.######',
      '######.#.######',
      '######x#y######',
      '######y#x######',
      '###############',
    ],
    budget: 10,
    baseline: 8,
  },
  {
    // Everything: stacked mixed trapdoors, the switch slope, and the gate lever also drops balls.
    map: [
      '#1#2#4#3#2#1#4#',
      '#o#p#o###o#p#p#',
      '#b#a#d###d#d#B#',
      '#.#.#.###.#.#.#',
      '#a#A#D###A#d#b#',
      '#.............#',
      '#>>>>>>.<<<<<<#',
      '#######D#######',
      '######...######',
      '######.G.######',
      '######.#x######',
      '######y#x######',
      '######x#y######',
      '###############',
    ],
    budget: 11,
    baseline: 9,
  },
];

/** Cell kinds after parsing. */
export const Cell = { EMPTY: 0, WALL: 1, TRAPDOOR: 2, LEVER: 3, SLOPE_LEFT: 4, SLOPE_RIGHT: 5, SWITCH: 6 } as const;

export const BALL_COLOURS = ['o', 'p'] as const;
const CUPS = ['x', 'y'] as const;
export const GROUPS = 4;

/** A level ready to play (cell index = row * w + column). */
export interface DropLevel {
  readonly w: number;
  readonly h: number;
  readonly kind: Uint8Array;
  /** Per cell: the group (0-based) of a trapdoor or lever, else 255. */
  readonly group: Uint8Array;
  /** Per cell: 1 when a trapdoor starts open or a switch slope starts rolling right. */
  readonly startsOpen: Uint8Array;
  /** Per cell: 0 no cup, 1 + colour of the ball the cup wants. */
  readonly cup: Uint8Array;
  /** The balls' colours, sorted, and their start cells (sorted within a colour). */
  readonly ballColour: Uint8Array;
  readonly ballStart: Uint8Array;
  /** The cells of each lever and each group's trapdoors. */
  readonly levers: readonly { readonly cell: number; readonly group: number }[];
  readonly trapdoors: readonly (readonly number[])[];
  readonly budget: number;
  readonly baseline: number;
}

export function compileLevel(spec: DropLevelSpec): DropLevel {
  const h = spec.map.length;
  const w = spec.map[0].length;
  if (spec.map.some((r) => r.length !== w)) throw new Error('map rows must have equal length');
  if (w * h > 256) throw new Error('map too large: cells are stored in one byte');
  if (!/^#+$/.test(spec.map[h - 1])) throw new Error('the last map row must be wall');
  const n = w * h;
  const kind = new Uint8Array(n);
  const group = new Uint8Array(n).fill(255);
  const startsOpen = new Uint8Array(n);
  const cup = new Uint8Array(n);
  const balls: [number, number][] = [];
  const levers: { cell: number; group: number }[] = [];
  const trapdoors: number[][] = Array.from({ length: GROUPS }, () => []);
  for (let i = 0; i < n; i++) {
    const ch = spec.map[Math.floor(i / w)][i % w];
    if (ch === '#') kind[i] = Cell.WALL;
    else if (ch === '<') kind[i] = Cell.SLOPE_LEFT;
    else if (ch === '>') kind[i] = Cell.SLOPE_RIGHT;
    else if (/[1-4]/.test(ch)) {
      kind[i] = Cell.LEVER;
      group[i] = Number(ch) - 1;
      levers.push({ cell: i, group: group[i] });
    } else if (/[a-dA-D]/.test(ch)) {
      kind[i] = Cell.TRAPDOOR;
      group[i] = ch.toLowerCase().charCodeAt(0) - 97;
      startsOpen[i] = ch === ch.toUpperCase() ? 1 : 0;
      trapdoors[group[i]].push(i);
    } else if (/[e-hE-H]/.test(ch)) {
      kind[i] = Cell.SWITCH;
      group[i] = ch.toLowerCase().charCodeAt(0) - 101;
      startsOpen[i] = ch === ch.toUpperCase() ? 1 : 0;
    } else if (BALL_COLOURS.includes(ch as never)) balls.push([BALL_COLOURS.indexOf(ch as never), i]);
    else if (CUPS.includes(ch as never)) cup[i] = 1 + CUPS.indexOf(ch as never);
    else if (ch !== '.') throw new Error(`unknown map character '${ch}'`);
  }
  balls.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    w,
    h,
    kind,
    group,
    startsOpen,
    cup,
    ballColour: Uint8Array.from(balls, (b) => b[0]),
    ballStart: Uint8Array.from(balls, (b) => b[1]),
    levers,
    trapdoors,
    budget: spec.budget,
    baseline: spec.baseline,
  };
}
