/** Worker thread of a threaded game (src/parallel/threaded-game.ts): holds the game and its states, answers one call at a time. */
import { workerData } from 'node:worker_threads';
import { checkedBytes, checkedStatus } from '../src/engine/index.js';
import { loadGameModule } from '../src/suite/index.js';
import { answerSync, type SyncChannel } from '../src/parallel/sync-worker.js';
import type { HostReply, HostRequest, RemoteState } from '../src/parallel/threaded-game.js';

const channel = workerData as SyncChannel & { module: string };
const { module, port } = channel;
const states: unknown[] = [];
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const answer = (reply: HostReply): void => answerSync(channel, reply);

const loading = loadGameModule(module);
loading.catch(() => undefined);

port.on('message', async (req: HostRequest) => {
  try {
    const game = await loading;
    /** Keeps a state here and returns its handle with its status and bytes (or what computing them threw). */
    const keep = (state: unknown): RemoteState => {
      states.push(state);
      const h = states.length - 1;
      try {
        return { h, status: checkedStatus(game.status(state)), bytes: checkedBytes(game.encode(state)) };
      } catch (err) {
        return { h, error: message(err) };
      }
    };
    let value: unknown;
    if (req.op === 'hello') {
      const { id, title, levels, tutorialLevels, actions, baselineActions } = game;
      value = { id, title, levels, tutorialLevels, actions, ...(baselineActions && { baselineActions }), clickTargets: typeof game.clickTargets === 'function' };
    } else if (req.op === 'init') value = keep(game.init(req.level));
    else if (req.op === 'step') value = keep(game.step(states[req.h], req.action));
    else if (req.op === 'decode') value = keep(game.decode(req.bytes));
    else if (req.op === 'render') value = game.render(states[req.h]);
    else value = game.clickTargets!(states[req.h]);
    answer({ value });
  } catch (err) {
    answer({ error: message(err) });
  }
});
