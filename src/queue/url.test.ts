import { describe, expect, it } from 'vitest';
import { parseRedisUrl } from './url.js';

describe('parseRedisUrl', () => {
  it('reads host, port, database and credentials, and shows the URL without the password', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6380/3')).toEqual({ host: '127.0.0.1', port: 6380, db: 3, display: 'redis://127.0.0.1:6380/3' });
    expect(parseRedisUrl('redis://queue.example')).toEqual({ host: 'queue.example', port: 6379, db: 0, display: 'redis://queue.example/0' });
    const secret = parseRedisUrl('rediss://night:s%40cret@[::1]:7000/');
    expect(secret).toEqual({ host: '::1', port: 7000, db: 0, username: 'night', password: 's@cret', tls: {}, display: 'rediss://night@[::1]:7000/0' });
    expect(secret.display).not.toContain('cret');
  });

  it('takes the password from ARCGRAPH_REDIS_PASSWORD when the URL has none; the URL\'s wins', () => {
    const env = { ARCGRAPH_REDIS_PASSWORD: 'from-env' };
    expect(parseRedisUrl('redis://127.0.0.1:6380/3', env)).toEqual({ host: '127.0.0.1', port: 6380, db: 3, password: 'from-env', display: 'redis://127.0.0.1:6380/3' });
    expect(parseRedisUrl('redis://night@h', env)).toMatchObject({ username: 'night', password: 'from-env', display: 'redis://night@h/0' });
    expect(parseRedisUrl('redis://:in-url@h', env).password).toBe('in-url');
    // set but empty is not a password
    expect(parseRedisUrl('redis://h', { ARCGRAPH_REDIS_PASSWORD: '' })).not.toHaveProperty('password');
  });

  it('refuses what is not a Redis URL, naming the problem', () => {
    const cases: [string, RegExp][] = [
      ['localhost:6379', /scheme must be redis or rediss, not localhost/],
      ['http://127.0.0.1:6379', /scheme must be redis or rediss, not http/],
      ['redis://', /no host/],
      ['redis://h:0', /bad port 0/],
      ['redis://h:x', /not a URL/],
      ['redis://h/db', /database must be a number, not 'db'/],
      ['redis://h/1?x=2', /no query or fragment/],
      ['not a url', /not a URL/],
    ];
    for (const [text, why] of cases) expect(() => parseRedisUrl(text), text).toThrow(why);
    expect(() => parseRedisUrl('nope')).toThrow(/^--queue nope: .*\(expected redis:\/\/HOST:PORT\[\/DB\]\)$/);
  });
});
