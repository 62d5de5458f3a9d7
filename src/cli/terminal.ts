/**
 * Terminal helpers for `arcgraph play`: a 64x64 frame drawn as 64 columns x 32 rows of truecolour
 * half blocks (top pixel in the foreground, bottom pixel in the background), and a decoder for the
 * keys and SGR mouse reports a raw-mode terminal sends.
 */
import { GRID } from '../engine/index.js';
import type { Frame } from '../engine/index.js';
import { rgb } from '../toolkit/index.js';

const ESC = '\x1b[';
export const TERM = {
  enter: `${ESC}?1049h${ESC}?25l${ESC}?1000h${ESC}?1006h`,
  leave: `${ESC}?1006l${ESC}?1000l${ESC}?25h${ESC}?1049l`,
  home: `${ESC}H`,
  clearBelow: `${ESC}J`,
  clearLine: `${ESC}K`,
  reset: `${ESC}0m`,
} as const;

const HALF_BLOCK = '\u2580';

const colourOf = (index: number): [number, number, number] => rgb(index);
/** A colour that stands out on `c`: its RGB complement, so the cursor shows on any background. */
const complement = ([r, g, b]: [number, number, number]): [number, number, number] => [255 - r, 255 - g, 255 - b];

/**
 * The frame as 32 lines of 64 half-block characters; `cursor` (a frame cell) is drawn in the
 * complement of its colour. Escapes are only emitted when a colour changes.
 */
export function renderFrame(frame: Frame, cursor?: { x: number; y: number }): string[] {
  const pixel = (x: number, y: number): [number, number, number] => {
    const c = colourOf(frame[y * GRID + x]);
    return cursor && cursor.x === x && cursor.y === y ? complement(c) : c;
  };
  const lines: string[] = [];
  for (let y = 0; y < GRID; y += 2) {
    let line = '';
    let fg = '';
    let bg = '';
    for (let x = 0; x < GRID; x++) {
      const top = pixel(x, y).join(';');
      const bottom = pixel(x, y + 1).join(';');
      if (top !== fg) line += `${ESC}38;2;${(fg = top)}m`;
      if (bottom !== bg) line += `${ESC}48;2;${(bg = bottom)}m`;
      line += HALF_BLOCK;
    }
    lines.push(line + TERM.reset);
  }
  return lines;
}

/** A decoded input event: a named key, a printable character, or a mouse button press. */
export type KeyEvent =
  | { kind: 'key'; name: 'up' | 'down' | 'left' | 'right' | 'enter' | 'escape' | 'ctrl-c' }
  | { kind: 'char'; char: string }
  | { kind: 'click'; col: number; row: number };

const ARROWS: Record<string, KeyEvent> = {
  A: { kind: 'key', name: 'up' },
  B: { kind: 'key', name: 'down' },
  C: { kind: 'key', name: 'right' },
  D: { kind: 'key', name: 'left' },
};

/**
 * Decodes what a raw-mode terminal sent: arrows (CSI or SS3), enter, escape, ctrl-c, characters,
 * and SGR mouse reports `ESC [ < b ; col ; row M` (presses of the left button only; 1-based
 * columns and rows). Unknown escape sequences are dropped.
 */
export function parseKeys(input: string): KeyEvent[] {
  const events: KeyEvent[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (ch === '\x1b') {
      const mouse = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])/.exec(input.slice(i));
      if (mouse) {
        if (mouse[1] === '0' && mouse[4] === 'M') events.push({ kind: 'click', col: Number(mouse[2]), row: Number(mouse[3]) });
        i += mouse[0].length;
        continue;
      }
      const arrow = /^\x1b[[O]([ABCD])/.exec(input.slice(i));
      if (arrow) {
        events.push(ARROWS[arrow[1]]);
        i += arrow[0].length;
        continue;
      }
      const other = /^\x1b\[[0-9;?]*[A-Za-z~]/.exec(input.slice(i));
      if (other) {
        i += other[0].length;
        continue;
      }
      events.push({ kind: 'key', name: 'escape' });
      i++;
      continue;
    }
    if (ch === '\r' || ch === '\n') events.push({ kind: 'key', name: 'enter' });
    else if (ch === '\x03') events.push({ kind: 'key', name: 'ctrl-c' });
    else if (ch >= ' ') events.push({ kind: 'char', char: ch });
    i++;
  }
  return events;
}

/** The frame cell under a mouse click on the frame drawn from the top-left corner (top pixel of the half block). */
export function clickCell(col: number, row: number): { x: number; y: number } | undefined {
  const x = col - 1;
  const y = (row - 1) * 2;
  return x >= 0 && x < GRID && y >= 0 && y < GRID ? { x, y } : undefined;
}
