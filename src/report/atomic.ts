/** Writes a file under a temporary name and renames it: a reader never sees it half-written. */
import { rename, writeFile } from 'node:fs/promises';

export async function writeAtomically(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}
