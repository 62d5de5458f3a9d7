/**
 * Test support: a real redis-server of the test's own, on a free loopback port, with its files in a
 * temp folder (append-only file fsynced on every write, so a restart loses nothing), stopped by
 * the test. The queue's tests run against it, never against a mock.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';

const CANDIDATES = ['/usr/bin/redis-server', '/usr/sbin/redis-server', '/usr/local/bin/redis-server'];

/** The redis-server binary, or null when none is installed. */
export function redisServerBinary(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  return CANDIDATES.find((c) => existsSync(c)) ?? null;
}

/** A port nothing listens on now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function pingable(port: number, timeoutMs: number, password?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Redis({ host: '127.0.0.1', port, password, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    client.on('error', () => undefined);
    try {
      await client.connect();
      // loading the append-only file answers LOADING: wait until it is done
      if ((await client.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      client.disconnect();
    }
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export class RedisServer {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly binary: string,
    private readonly extra: readonly string[],
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts a server on a free port with its files in `dir` (and `extra` options: --requirepass P); fails (never skips) when redis-server is missing. */
  static async start(dir: string, extra: readonly string[] = []): Promise<RedisServer> {
    const binary = redisServerBinary();
    if (!binary) throw new Error('redis-server is not installed: apt-get install redis-server (npm test installs it when run as root with apt-get)');
    const server = new RedisServer(await freePort(), dir, binary, extra);
    await server.up();
    return server;
  }

  private async up(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no', '--logfile', join(this.dir, 'redis.log'), ...this.extra];
    const child = spawn(this.binary, args, { stdio: 'ignore' });
    this.child = child;
    const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} at start (see ${join(this.dir, 'redis.log')})`))));
    exited.catch(() => undefined);
    const password = this.extra.includes('--requirepass') ? this.extra[this.extra.indexOf('--requirepass') + 1] : undefined;
    await Promise.race([pingable(this.port, 10_000, password), exited]);
  }

  /** Stops the server (SIGTERM: it closes its files) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await gone;
  }

  /** Stops the server and starts it again on the same port with no data, as a restart without persistence would. */
  async restartEmpty(): Promise<void> {
    await this.stop();
    for (const file of ['appendonlydir', 'dump.rdb']) rmSync(join(this.dir, file), { recursive: true, force: true });
    await this.up();
  }

  /** Stops the server and starts it again on the same port and files, as a restart in production would. */
  async restart(downMs = 0): Promise<void> {
    await this.stop();
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.up();
  }
}
