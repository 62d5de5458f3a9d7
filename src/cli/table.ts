/** A plain-text table for the terminal: columns padded to their widest cell, the last one left ragged. */
export function textTable(rows: readonly (readonly string[])[], rightAligned: ReadonlySet<number> = new Set()): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 && !rightAligned.has(c) ? cell : rightAligned.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ')).join('\n');
}
