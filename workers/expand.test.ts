import { describe, expect, it } from 'vitest';
import { initIdentity } from '../src/engine/index.js';
import { packMessage } from '../src/explorer/wire.js';
import { PROGRESS_SLOTS, THREAD_SLOT } from '../src/parallel/index.js';
import { loadGame } from '../src/suite/index.js';
import expand from './expand.js';

describe('the expand worker', () => {
  it('sends a batch\'s result before it starts a batch it was handed with it', async () => {
    await initIdentity();
    const { game, module } = await loadGame('bx19');
    const root = game.encode(game.init(2));
    const batch = (): SharedArrayBuffer => packMessage({ module, level: 2, states: root, ends: new Uint32Array([root.length]) });
    // Progress slots as the watchdog hands them out: -1 until a thread starts the batch.
    const [first, second] = [0, 1].map(() => new Int32Array(new SharedArrayBuffer(4 * (THREAD_SLOT + 1))).fill(-1));
    // A thread's first batch loads the game's module (the pool starts each thread with an empty one).
    await expand({ buffer: batch() });
    // As Piscina runs two batches an idle thread takes at once: both handlers called before either awaits.
    let secondWhenFirstReturned: number[] = [];
    const one = expand({ buffer: batch(), progress: first.buffer as SharedArrayBuffer }).then(() => (secondWhenFirstReturned = [...second]));
    const two = expand({ buffer: batch(), progress: second.buffer as SharedArrayBuffer });
    await Promise.all([one, two]);
    expect(first[0]).toBe(0);
    // The second had not started (its progress slots untouched) when the first's result was ready to send; it ran after.
    expect(secondWhenFirstReturned.slice(0, PROGRESS_SLOTS)).toEqual(new Array(PROGRESS_SLOTS).fill(-1));
    expect(second[0]).toBe(0);
    expect(second[3]).toBeGreaterThan(0);
  });
});
