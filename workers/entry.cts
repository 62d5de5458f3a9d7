/**
 * The file Piscina loads in each worker thread. It is CommonJS on purpose: Piscina first tries
 * require() on its worker file, and on Node 20 a require() of an ES module graph racing with
 * import() of the same modules trips an internal assertion (ERR_INTERNAL_ASSERTION, "imported
 * again after being required"). Here require() loads only this shim; the handlers and the games
 * are loaded by import() alone.
 */
type Handler = (task: unknown) => Promise<unknown>;

const loaded = new Map<string, Promise<Handler>>();

function handler(file: string): Promise<Handler> {
  let h = loaded.get(file);
  if (!h) {
    h = import(file).then((m: { default: Handler }) => m.default);
    loaded.set(file, h);
  }
  return h;
}

export async function expand(task: unknown): Promise<unknown> {
  return (await handler('./expand.js'))(task);
}

export async function walk(task: unknown): Promise<unknown> {
  return (await handler('./walk.js'))(task);
}

export async function fuzz(task: unknown): Promise<unknown> {
  return (await handler('./fuzz.js'))(task);
}
