/** A 64x64 frame as a PNG in the ARC palette (what the report site's filmstrips show). */
import { PNG } from 'pngjs';
import { GRID, type Frame } from '../engine/index.js';
import { PALETTE } from '../toolkit/index.js';

const RGB: readonly [number, number, number][] = PALETTE.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]);

/** The frame, one pixel a cell (pages scale it up with `image-rendering: pixelated`). */
export function framePng(frame: Frame): Buffer {
  const png = new PNG({ width: GRID, height: GRID, colorType: 2, inputHasAlpha: true });
  for (let i = 0; i < GRID * GRID; i++) {
    const [r, g, b] = RGB[frame[i]] ?? [0, 0, 0];
    png.data[4 * i] = r;
    png.data[4 * i + 1] = g;
    png.data[4 * i + 2] = b;
    png.data[4 * i + 3] = 255;
  }
  return PNG.sync.write(png, { colorType: 2 });
}
