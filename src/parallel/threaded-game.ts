/**
 * A JavaScript game behind the synchronous Game contract whose code runs on a worker thread, so
 * a step that never returns cannot freeze the caller's thread (replay and play step one state at a
 * time). The caller blocks in Atomics.wait for each answer, at most the step limit; past it the
 * thread is terminated and the call throws a StepTimeout. The pattern of the Python sync host
 * (src/python/sync.ts). States stay on the thread; the caller holds handles with their status and
 * canonical bytes, fetched with the step (a render is asked for when wanted).
 */
import { join } from 'node:path';
import type { Action, ClickTarget, Frame, Game, Status } from '../engine/index.js';
import { PACKAGE_ROOT } from '../suite/index.js';
import { SyncWorker } from './sync-worker.js';
import { DEFAULT_STEP_SECONDS } from './watchdog.js';

const WORKER = join(PACKAGE_ROOT, 'dist', 'workers', 'game-host.js');

/** A state on the game's thread: its handle there, and what the caller reads without asking. */
export interface RemoteState {
  readonly h: number;
  readonly status?: Status;
  readonly bytes?: Uint8Array;
  /** What status or encode threw for this state (thrown when the caller asks for them). */
  readonly error?: string;
}

/** The request shapes the game's thread answers (workers/game-host.ts). */
export type HostRequest =
  | { op: 'hello' }
  | { op: 'init'; level: number }
  | { op: 'step'; h: number; action: Action }
  | { op: 'decode'; bytes: Uint8Array }
  | { op: 'render'; h: number }
  | { op: 'clickTargets'; h: number };

export type HostReply = { value: unknown } | { error: string };

/** A call that did not return within the step limit: the game's thread was terminated. */
export class StepTimeout extends Error {}

class GameThread {
  private readonly thread: SyncWorker<HostRequest, HostReply>;
  private dead: string | undefined;

  constructor(
    module: string,
    private readonly limitMs: number,
  ) {
    this.thread = new SyncWorker(WORKER, { module });
  }

  call(request: HostRequest, what: string): unknown {
    if (this.dead) throw new StepTimeout(this.dead);
    const reply = this.thread.request(request, this.limitMs);
    if (!reply) {
      this.dead = `${what} did not return within ${this.limitMs / 1000} s: its thread was stopped`;
      this.thread.terminate();
      throw new StepTimeout(this.dead);
    }
    if ('error' in reply) throw new Error(reply.error);
    return reply.value;
  }

  close(): void {
    this.thread.terminate();
  }
}

/**
 * The game of `module`, run on its own thread; every call returns within `stepSeconds` or throws
 * StepTimeout. `close()` ends the thread (it does not keep the process alive meanwhile).
 */
export function threadedGame(module: string, stepSeconds = DEFAULT_STEP_SECONDS): Game<RemoteState> & { close(): void } {
  const thread = new GameThread(module, stepSeconds * 1000);
  const meta = thread.call({ op: 'hello' }, 'loading the game') as Record<string, unknown> & { clickTargets: boolean };
  const held = (s: RemoteState): RemoteState => {
    if (s.error !== undefined) throw new Error(s.error);
    return s;
  };
  const game: Game<RemoteState> & { close(): void } = {
    ...(meta as unknown as Pick<Game, 'id' | 'title' | 'levels' | 'tutorialLevels' | 'actions'>),
    init: (level) => thread.call({ op: 'init', level }, `init(${level})`) as RemoteState,
    step: (s, action) => thread.call({ op: 'step', h: s.h, action }, 'a step') as RemoteState,
    status: (s) => held(s).status!,
    render: (s) => thread.call({ op: 'render', h: s.h }, 'a render') as Frame[],
    encode: (s) => held(s).bytes!,
    decode: (bytes) => thread.call({ op: 'decode', bytes }, 'decode') as RemoteState,
    close: () => thread.close(),
  };
  if (meta.clickTargets) game.clickTargets = (s) => thread.call({ op: 'clickTargets', h: s.h }, 'clickTargets') as ClickTarget[];
  return game;
}
