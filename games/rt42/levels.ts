/**
 * The levels of rt42 as text grids, one character per cell:
 *   #  wall                 .  floor              S  start             E  exit (opens when the key matches)
 *   R  turns the key clockwise when entered       L  turns it counter-clockwise
 *   C  cycles the key colour when entered          T  toggles every door when entered
 *   D  door, closed at first   d  door, open at first
 *   +  refill: the first entry refills the timer (once per attempt)
 *   > < ^ v  one-way tile: enterable only moving that way
 */
export interface Rt42Level {
  readonly rows: readonly string[];
  /** Moves per attempt (the timer bar); an attempt that runs out costs a life. */
  readonly timer: number;
  /** The key's shape: bit (y*3 + x) of a 3x3 picture, asymmetric so its four turns differ. */
  readonly key: number;
  readonly startTurn: number;
  readonly startColour: number;
  readonly targetTurn: number;
  readonly targetColour: number;
  /** Actions a person who understands the level needs. */
  readonly baseline: number;
}

/** A 3x3 picture ('#' set) as a 9-bit mask, bit (y*3 + x). */
function shape(...rows: string[]): number {
  let mask = 0;
  rows.forEach((row, y) => [...row].forEach((c, x) => (mask |= c === '#' ? 1 << (y * 3 + x) : 0)));
  return mask;
}

/** An L and an F: neither has rotational symmetry, so all four turns look different. */
const HOOK = shape('##.', '#..', '#..');
const SKEW = shape('.#.', '.##', '##.');

export const RT42_LEVELS: readonly Rt42Level[] = [
  {
    // Tutorial: walk over the turn switch once, then to the exit.
    rows: [
      '#######',
      '#S..R.#',
      '#.###.#',
      '#...#E#',
      '#######',
    ],
    timer: 12, key: HOOK, startTurn: 0, startColour: 0, targetTurn: 1, targetColour: 0, baseline: 8,
  },
  {
    // Two turns and two colour steps: switches must be entered again, not just crossed.
    rows: [
      '#########',
      '#S.R...C#',
      '#.#####.#',
      '#.#E..#.#',
      '#.###.#.#',
      '#...C...#',
      '#########',
    ],
    timer: 24, key: SKEW, startTurn: 0, startColour: 0, targetTurn: 2, targetColour: 2, baseline: 24,
  },
  {
    // Doors: the toggle opens the way to the exit but shuts the way to the turn switch.
    rows: [
      '###########',
      '#S...d...R#',
      '#.#C#####.#',
      '#.#########',
      '#T....D..E#',
      '###########',
    ],
    timer: 34, key: HOOK, startTurn: 1, startColour: 0, targetTurn: 3, targetColour: 1, baseline: 36,
  },
  {
    // Refills and one-way tiles: the long way round needs the pickups in the right order.
    rows: [
      '###########',
      '#S.>..+..R#',
      '#.#####.#.#',
      '#.#+..<.#.#',
      '#.#.#####v#',
      '#C#...L...#',
      '#.#####.#.#',
      '#...v...#E#',
      '###########',
    ],
    timer: 16, key: SKEW, startTurn: 0, startColour: 0, targetTurn: 3, targetColour: 1, baseline: 32,
  },
  {
    // Both turn directions, colours, doors and one-way tiles together.
    rows: [
      '#############',
      '#S....D...C.#',
      '#.###.#.###.#',
      '#.#R#.#.#L#.#',
      '#.#.#...#.#.#',
      '#...#>#<#...#',
      '###.#.#.#.###',
      '#T..d.+.d..E#',
      '#############',
    ],
    timer: 26, key: HOOK, startTurn: 2, startColour: 1, targetTurn: 1, targetColour: 0, baseline: 52,
  },
  {
    // Everything, on a large map with several refills.
    rows: [
      '###############',
      '#S..+..#...d.R#',
      '#.###.##.#.#..#',
      '#...#....#.#..#',
      '###.#.####.####',
      '#C..#.>...T...#',
      '#.###.###.###.#',
      '#...#...#.#L..#',
      '###.###.#.#.#.#',
      '#+....<.#...#.#',
      '#.#####.###.#D#',
      '#.......+..#.E#',
      '###############',
    ],
    timer: 30, key: SKEW, startTurn: 0, startColour: 2, targetTurn: 2, targetColour: 1, baseline: 56,
  },
];
