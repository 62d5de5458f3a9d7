/**
 * Module resolution hooks (node:module register) for a game folder imported afresh: Node keeps the
 * first import of a URL for good, so a game folder's index.js imported under a new `?hash=` would
 * still get its siblings as first imported. An import made from a module whose URL carries
 * `folder=DIR` gets the same query when it resolves to a file under DIR (the game's own files,
 * those its digest covers), so the whole folder is imported as it is on disk now; anything outside
 * it (arcgraph, node_modules) stays shared. ES modules only: require() does not pass here.
 */
import type { ResolveHook } from 'node:module';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  const parent = context.parentURL?.startsWith('file:') ? new URL(context.parentURL) : null;
  const folder = parent?.searchParams.get('folder');
  if (!parent || !folder || !resolved.url.startsWith('file:')) return resolved;
  const url = new URL(resolved.url);
  if (url.search !== '' || !fileURLToPath(url).startsWith(folder + sep)) return resolved;
  url.search = parent.search;
  return { ...resolved, url: url.href };
};
