/**
 * Vitest global setup: the queue's tests need a real redis-server. When it is missing and this
 * process may install it (root, with apt-get, as on CI and fresh development machines), it is
 * installed from Debian's packages once; otherwise the tests that need it fail saying so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { redisServerBinary } from './redis.js';

export default function setup(): void {
  if (redisServerBinary()) return;
  const root = process.getuid?.() === 0;
  if (!root || !existsSync('/usr/bin/apt-get')) {
    console.error('redis-server is not installed and this process cannot install it (it needs root and apt-get): the queue tests will fail. Install the Debian package redis-server.');
    return;
  }
  console.error('redis-server is missing: installing the Debian package (apt-get) for the queue tests...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = (): number | null => spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], { stdio: ['ignore', 'ignore', 'inherit'], env }).status;
  // the package lists may be missing or stale: update them and try again
  if (install() !== 0) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    install();
  }
  if (!redisServerBinary()) console.error('installing redis-server failed: the queue tests will fail');
}
