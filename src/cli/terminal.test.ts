import { describe, expect, it } from 'vitest';
import lights from '../../test/fixtures/lights.js';
import ruin from '../../test/fixtures/ruin.js';
import { GRID, GameAction } from '../engine/actions.js';
import { PALETTE } from '../toolkit/palette.js';
import { gamesTable, summarize } from './commands/games.js';
import { interpretKey, parseScriptLine } from './commands/play.js';
import { clickCell, parseKeys, renderFrame } from './terminal.js';

/** Decodes the truecolour half blocks back into the two pixels each character shows. */
function decode(lines: string[]): string[][] {
  const rgbHex = (s: string) => '#' + s.split(';').map((n) => Number(n).toString(16).padStart(2, '0').toUpperCase()).join('');
  const pixels: string[][] = [];
  for (const line of lines) {
    const top: string[] = [];
    const bottom: string[] = [];
    let fg = '';
    let bg = '';
    for (const m of line.matchAll(/\x1b\[38;2;([\d;]+)m|\x1b\[48;2;([\d;]+)m|\u2580/g)) {
      if (m[1]) fg = rgbHex(m[1]);
      else if (m[2]) bg = rgbHex(m[2]);
      else {
        top.push(fg);
        bottom.push(bg);
      }
    }
    pixels.push(top, bottom);
  }
  return pixels;
}

describe('renderFrame', () => {
  it('draws 64x64 cells as 32 rows of 64 half blocks in the ARC palette', () => {
    const frame = new Uint8Array(GRID * GRID).map((_, i) => (i * 7 + (i >> 6)) % 16);
    const lines = renderFrame(frame);
    expect(lines).toHaveLength(32);
    const pixels = decode(lines);
    for (let y = 0; y < GRID; y++) for (let x = 0; x < GRID; x++) expect(pixels[y][x]).toBe(PALETTE[frame[y * GRID + x]]);
  });

  it('shows the cursor cell in the complement of its colour, and only that cell changes', () => {
    const frame = lights.render(lights.init(1))[0];
    const plain = decode(renderFrame(frame));
    const marked = decode(renderFrame(frame, { x: 10, y: 21 }));
    let changed = 0;
    for (let y = 0; y < GRID; y++) for (let x = 0; x < GRID; x++) if (plain[y][x] !== marked[y][x]) changed++;
    expect(changed).toBe(1);
    const c = parseInt(plain[21][10].slice(1), 16);
    expect(parseInt(marked[21][10].slice(1), 16)).toBe(0xffffff - c);
  });
});

describe('parseKeys', () => {
  it('decodes arrows, enter, escape, ctrl-c, characters and left-button mouse presses', () => {
    expect(parseKeys('\x1b[A\x1bOB\x1b[C\x1b[Dw \r\x03\x1b')).toEqual([
      { kind: 'key', name: 'up' },
      { kind: 'key', name: 'down' },
      { kind: 'key', name: 'right' },
      { kind: 'key', name: 'left' },
      { kind: 'char', char: 'w' },
      { kind: 'char', char: ' ' },
      { kind: 'key', name: 'enter' },
      { kind: 'key', name: 'ctrl-c' },
      { kind: 'key', name: 'escape' },
    ]);
    // press then release of the left button, a right-button press, an unknown sequence (F5)
    expect(parseKeys('\x1b[<0;12;7M\x1b[<0;12;7m\x1b[<2;3;3M\x1b[15~q')).toEqual([{ kind: 'click', col: 12, row: 7 }, { kind: 'char', char: 'q' }]);
  });
});

describe('clickCell', () => {
  it('maps a character cell to the top pixel it shows, and nothing outside the frame', () => {
    expect(clickCell(1, 1)).toEqual({ x: 0, y: 0 });
    expect(clickCell(64, 32)).toEqual({ x: 63, y: 62 });
    expect(clickCell(65, 1)).toBeUndefined();
    expect(clickCell(1, 33)).toBeUndefined();
  });
});

describe('interpretKey', () => {
  const act = (id: number) => ({ kind: 'act', action: { id } });
  it('maps arrows and WASD to ACTION1..4, space and enter to ACTION5, u/z to undo, r to RESET, q to quit', () => {
    const keys = (s: string) => parseKeys(s).map((k) => interpretKey(k, false));
    expect(keys('\x1b[A\x1b[B\x1b[D\x1b[Cwsad')).toEqual([1, 2, 3, 4, 1, 2, 3, 4].map(act));
    expect(keys(' \ruzr')).toEqual([act(5), act(5), act(7), act(7), act(GameAction.RESET)]);
    expect(keys('q\x03')).toEqual([{ kind: 'quit' }, { kind: 'quit' }]);
    expect(keys('x')).toEqual([{ kind: 'none' }]);
    expect(keys('\x1b[<0;11;6M')).toEqual([{ kind: 'act', action: { id: 6, x: 10, y: 10 } }]);
  });

  it('moves the cursor in cursor mode (shift by 8) and clicks with space or enter', () => {
    const keys = (s: string) => parseKeys(s).map((k) => interpretKey(k, true));
    expect(keys('\x1b[Ad')).toEqual([{ kind: 'cursor', dx: 0, dy: -1 }, { kind: 'cursor', dx: 1, dy: 0 }]);
    expect(keys('AS')).toEqual([{ kind: 'cursor', dx: -8, dy: 0 }, { kind: 'cursor', dx: 0, dy: 8 }]);
    expect(keys(' \r')).toEqual([{ kind: 'click-cursor' }, { kind: 'click-cursor' }]);
    expect(keys('c\x1b')).toEqual([{ kind: 'toggle-cursor' }, { kind: 'toggle-cursor' }]);
  });
});

describe('parseScriptLine', () => {
  it('reads the script commands', () => {
    expect(parseScriptLine('ACTION6 10 20')).toEqual({ id: 6, x: 10, y: 20 });
    expect(parseScriptLine('action2')).toEqual({ id: 2 });
    expect(parseScriptLine(' RESET ')).toEqual({ id: 0 });
    expect(parseScriptLine('quit')).toBeUndefined();
    expect(() => parseScriptLine('ACTION6 10 64')).toThrow('click outside the grid');
  });
});

describe('gamesTable', () => {
  it('lists fixture games in aligned columns', () => {
    const table = gamesTable([summarize(ruin), summarize(lights)]).split('\n');
    expect(table).toHaveLength(3);
    expect(table[0]).toMatch(/^ID\s+TITLE\s+LEVELS\s+TUTORIAL\s+ACTIONS$/);
    expect(table[1]).toMatch(/^ruin\s+Gambler's ruin corridor\s+6\s+0\s+ACTION3 ACTION4$/);
    expect(table[2]).toMatch(/^lite\s+Lights out\s+2\s+0\s+ACTION6$/);
    expect(table[1].indexOf('6 ')).toBe(table[0].indexOf('LEVELS'));
  });

  it('says so when the suite is empty', () => {
    expect(gamesTable([])).toContain('No games');
  });
});
