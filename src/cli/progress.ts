import type { Progress } from '../explorer/index.js';

const fmt = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(Math.round(n)));

/**
 * A one-line progress display on stderr, redrawn in place; silent unless stderr is a terminal
 * (and the caller passes `enabled` false for --json).
 */
export function progressLine(enabled: boolean, stream: NodeJS.WriteStream = process.stderr): { update(p: Progress): void; done(): void } {
  const on = enabled && stream.isTTY === true;
  let drawn = false;
  return {
    update(p) {
      if (!on) return;
      const rate = p.seconds > 0 ? p.nodes / p.seconds : 0;
      const mem = process.memoryUsage().rss / 2 ** 20;
      stream.write(`\r\x1b[K${fmt(p.nodes)} states  ${fmt(rate)}/s  depth ${p.depth}  frontier ${fmt(p.frontier)}  ${fmt(p.transitions)} steps  ${mem.toFixed(0)} MB  ${p.seconds.toFixed(1)}s`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
