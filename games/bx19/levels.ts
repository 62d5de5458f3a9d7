/**
 * The levels of bx19 as text grids, one character per cell:
 *   #  wall      .  floor      @  player      o  hole (a pushed block falls in and fills it)
 *   ~  ice: a block pushed onto ice slides on until something stops it or it leaves the ice
 *   a b  blocks of the first and second colour      x y  targets of the first and second colour
 *   A B  a block already on a target of its colour
 */
export interface Bx19Level {
  readonly rows: readonly string[];
  /** Actions per attempt (every action spends one, undo included). */
  readonly budget: number;
  /** Actions a person who understands the level needs. */
  readonly baseline: number;
}

export const BX19_LEVELS: readonly Bx19Level[] = [
  {
    // Tutorial: one block, one target, a straight push.
    rows: [
      '#######',
      '#@.a.x#',
      '#.....#',
      '#######',
    ],
    budget: 8, baseline: 4,
  },
  {
    // Two blocks: each goes down, then sideways onto its target.
    rows: [
      '########',
      '#..#...#',
      '#.a..a.#',
      '#..##..#',
      '#x.@..x#',
      '########',
    ],
    budget: 30, baseline: 26,
  },
  {
    // Ice: pushed blocks slide until something stops them.
    rows: [
      '##########',
      '#@.......#',
      '#.~~~~~~.#',
      '#.~~x~~~.#',
      '#.~~~~~x.#',
      '#.a....a.#',
      '#.....a..#',
      '#...x....#',
      '##########',
    ],
    budget: 26, baseline: 22,
  },
  {
    // Colours: each block belongs on the target of its colour.
    rows: [
      '#########',
      '#@......#',
      '#.#.#.#.#',
      '#..ab...#',
      '#.#.#.#.#',
      '#.......#',
      '#..y.x..#',
      '#########',
    ],
    budget: 32, baseline: 30,
  },
  {
    // Holes: one block must fill the gap before the others can cross.
    rows: [
      '##########',
      '#@...#...#',
      '#.a..o.x.#',
      '#..a.#...#',
      '#.a..#.x.#',
      '#....#...#',
      '##########',
    ],
    budget: 48, baseline: 44,
  },
  {
    // Everything: a hole to fill, an ice field, two colours.
    rows: [
      '############',
      '#@...#.....#',
      '#.a..o..~~.#',
      '#..b.#..~~.#',
      '#.a..#.....#',
      '#....#.x.y.#',
      '############',
    ],
    budget: 64, baseline: 60,
  },
];
