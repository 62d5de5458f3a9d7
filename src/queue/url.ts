/** `--queue redis://[user:password@]HOST[:PORT][/DB]` (or rediss:// for TLS) to ioredis connection options. */
import { InputError } from '../errors.js';

/**
 * The Redis password when the URL has none: a URL's password shows in `ps` and shell history, an
 * environment variable does not (ioredis and BullMQ read none of their own).
 */
export const PASSWORD_ENV = 'ARCGRAPH_REDIS_PASSWORD';

export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  /** The URL without its password, for reports and messages. */
  display: string;
}

/**
 * Parses a Redis URL; anything else is bad input naming what is wrong. Without a password in the
 * URL, `env`'s ARCGRAPH_REDIS_PASSWORD is the password; one in the URL wins (it was given for this
 * command, the variable may be left over in the shell).
 */
export function parseRedisUrl(text: string, env: Readonly<Record<string, string | undefined>> = {}): RedisTarget {
  const bad = (why: string): InputError => new InputError(`--queue ${text}: ${why} (expected redis://HOST:PORT[/DB])`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad('not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw bad(`the scheme must be redis or rediss, not ${url.protocol.replace(/:$/, '')}`);
  // a bracketed IPv6 literal comes back with its brackets
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw bad('no host');
  const port = url.port === '' ? 6379 : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw bad(`bad port ${url.port}`);
  const path = url.pathname.replace(/^\//, '');
  if (!/^\d*$/.test(path)) throw bad(`the database must be a number, not '${path}'`);
  const db = path === '' ? 0 : Number(path);
  if (!Number.isSafeInteger(db)) throw bad(`database ${path} is out of range`);
  if (url.search !== '' || url.hash !== '') throw bad('no query or fragment is understood');
  const target: RedisTarget = { host, port, db, display: `${url.protocol}//${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}/${db}` };
  if (url.username) target.username = decodeURIComponent(url.username);
  if (url.password) target.password = decodeURIComponent(url.password);
  else if (env[PASSWORD_ENV]) target.password = env[PASSWORD_ENV];
  if (url.protocol === 'rediss:') target.tls = {};
  return target;
}
