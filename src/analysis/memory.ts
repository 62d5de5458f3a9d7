/**
 * The memory budget as the solvers see it: whether `bytes` more (of them `heapBytes` in this
 * thread's JavaScript heap, which has V8's own limit) fit now. The solvers' arrays depend on the
 * graph's cycles rather than its size, so the explorer cannot leave room for them in advance: they
 * ask before they allocate, and the exact solver while it works, and give up, saying why, rather
 * than run the process out of memory.
 */
export type MemoryCheck = (bytes: number, heapBytes?: number) => boolean;

/** Bytes in GB, as messages print them. */
export const gb = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(bytes < 2 ** 30 ? 2 : 1)} GB`;
