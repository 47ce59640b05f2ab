/**
 * The core's part list (src/core/parts/part.ts): start order, reverse stop, each factory given only the
 * parts before it (a forward use does not compile: the `@ts-expect-error` lines below are checked by
 * `npm run typecheck`), and a failed creation or start releasing what was opened, checked on a real
 * SQLite file, a real log file and a real HTTP server.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { PartsBuilder, type Part } from '../../src/core/parts/part';
import { logPart } from '../../src/core/parts/log';
import { storePart, type StorePart } from '../../src/core/parts/store';
import { createRedactor } from '../../src/core/secrets/redact';
import { tempDir } from './helpers';

const rig = () => {
  const log: string[] = [];
  const part = (name: string, o: { failStart?: boolean; failStop?: boolean } = {}): Part => ({
    name,
    start: async () => {
      await Promise.resolve();
      if (o.failStart) throw new Error(`${name} would not start`);
      log.push(`start ${name}`);
    },
    stop: () => {
      log.push(`stop ${name}`);
      if (o.failStop) throw new Error(`${name} would not stop`);
    },
  });
  return { log, part };
};

/** How many of this process's open file descriptors point at `file`. */
const openHandles = (file: string): number =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(join('/proc/self/fd', fd)) === file;
    } catch {
      return false; // closed while listing (the directory's own descriptor)
    }
  }).length;

/** Whether something accepts connections on 127.0.0.1:port. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/** A part owning a real HTTP server on 127.0.0.1: listening once started, closed when stopped. */
function httpPart(): Part & { port(): number } {
  let server: Server | null = null;
  let port = 0;
  return {
    name: 'http',
    /** The port it listened on (kept after it stopped). */
    port: () => port,
    start: () =>
      new Promise<void>((resolve) => {
        const s = createServer((_, res) => res.end('ok'));
        server = s;
        s.listen(0, '127.0.0.1', () => {
          port = (s.address() as AddressInfo).port;
          resolve();
        });
      }),
    stop: () => new Promise<void>((resolve, reject) => (server ? server.close((e) => (e ? reject(e) : resolve())) : resolve())),
  };
}

describe('the part list', () => {
  const tmp = tempDir();
  afterEach(() => tmp.cleanup());

  it('starts parts in list order and stops them in reverse, once', async () => {
    const { log, part } = rig();
    const list = await PartsBuilder.begin()
      .add('store', () => part('store'))
      .add('plain', () => ({ name: 'plain' })) // nothing to start or stop
      .add('poller', () => part('poller'))
      .build();
    expect(list.names).toEqual(['store', 'plain', 'poller']);
    await list.start();
    await Promise.all([list.stop(), list.stop()]);
    await list.stop();
    expect(log).toEqual(['start store', 'start poller', 'stop poller', 'stop store']);
  });

  it('a close while the parts start wins: the parts not started yet are never started (a quit during the start leaves no timer)', async () => {
    const { log, part } = rig();
    let release!: () => void;
    const slow: Part = {
      name: 'local-service',
      start: () => new Promise<void>((r) => (release = () => (log.push('start local-service'), r()))),
      stop: () => void log.push('stop local-service'),
    };
    const list = await PartsBuilder.begin()
      .add('store', () => part('store'))
      .add('localService', () => slow)
      .add('poller', () => part('poller'))
      .build();
    const started = list.start();
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    const stopped = list.stop();
    release();
    await Promise.all([started, stopped]);
    expect(log).not.toContain('start poller');
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start store', 'start local-service']);
  });

  it('stops every part when one fails to stop, then reports the first failure', async () => {
    const { log, part } = rig();
    const list = await PartsBuilder.begin()
      .add('log', () => part('log'))
      .add('store', () => part('store', { failStop: true }))
      .add('dataSources', () => part('data-sources', { failStop: true }))
      .build();
    await expect(list.stop()).rejects.toThrow('data-sources would not stop');
    expect(log).toEqual(['stop data-sources', 'stop store', 'stop log']);
  });

  it('gives each factory the parts listed before it, typed, and nothing else', async () => {
    const seen: string[][] = [];
    const list = await PartsBuilder.begin()
      .add('first', (before) => {
        seen.push(Object.keys(before));
        return { name: 'first', value: 1 };
      })
      .add('second', (before) => {
        seen.push(Object.keys(before));
        expectTypeOf(before.first.value).toEqualTypeOf<number>();
        return { name: 'second', doubled: before.first.value * 2 };
      })
      .add('third', (before) => {
        seen.push(Object.keys(before));
        return { name: 'third', sum: before.first.value + before.second.doubled };
      })
      .build();
    expect(seen).toEqual([[], ['first'], ['first', 'second']]);
    expect(list.parts.third.sum).toBe(3);
    expect(Object.keys(list.parts)).toEqual(['first', 'second', 'third']);
  });

  it('does not compile a use of a part listed later, and holds nothing of it at run time either', async () => {
    let later: unknown = 'not read';
    await PartsBuilder.begin()
      .add('store', (before) => {
        // @ts-expect-error: `polling` is listed after `store`, so a store cannot use it
        later = before.polling;
        return { name: 'store' };
      })
      .add('polling', ({ store }) => ({ name: 'polling', store }))
      .build();
    expect(later).toBeUndefined();
    // A part's type says what it is: a misspelt or later key is a compile error where the list is used.
    const list = await PartsBuilder.begin()
      .add('log', () => ({ name: 'log' }))
      .build();
    // @ts-expect-error: there is no `store` in this list
    expect(list.parts.store).toBeUndefined();
  });

  it('refuses a part whose name is not its key, and a key listed twice', async () => {
    await expect(
      PartsBuilder.begin()
        .add('dataSources', () => ({ name: 'sources' }))
        .build(),
    ).rejects.toThrow('The part listed as "dataSources" is named "sources" (expected "data-sources").');
    expect(() =>
      PartsBuilder.begin()
        .add('log', () => ({ name: 'log' }))
        .add('log', () => ({ name: 'log' })),
    ).toThrow('The part "log" is listed twice.');
  });

  it('a failed start stops what had started (a real HTTP server, a real SQLite file, a real log) and rethrows', async () => {
    const { log, part } = rig();
    const dbFile = join(tmp.dir, 'monitor.sqlite');
    const logFile = join(tmp.dir, 'logs', 'core.log');
    const list = await PartsBuilder.begin()
      .add('log', () => logPart(tmp.dir, undefined, new ManualClock(), createRedactor()))
      .add('store', () => storePart(tmp.dir))
      .add('http', () => httpPart())
      .add('broken', () => part('broken', { failStart: true }))
      .add('polling', () => part('polling'))
      .build();
    list.parts.log.logger.info('written before the failed start');
    expect(openHandles(dbFile)).toBeGreaterThan(0);
    // The log file is opened as its first line is written.
    await vi.waitFor(() => expect(openHandles(logFile)).toBeGreaterThan(0));
    await expect(list.start()).rejects.toThrow('broken would not start');
    const port = list.parts.http.port();
    expect(port, 'the server had started').toBeGreaterThan(0);
    expect(await listening(port)).toBe(false);
    expect(openHandles(dbFile)).toBe(0);
    expect(openHandles(logFile)).toBe(0);
    expect(() => list.parts.store.store.settings.get(), 'the database is closed').toThrow();
    // Every part was stopped, last first (the never-started one too: created means owned), and only once.
    expect(log).toEqual(['stop polling', 'stop broken']);
    await list.stop();
    expect(log).toEqual(['stop polling', 'stop broken']);
  });

  it('the HTTP server of the failed-start test does listen when nothing fails', async () => {
    const list = await PartsBuilder.begin()
      .add('http', () => httpPart())
      .build();
    await list.start();
    expect(await listening(list.parts.http.port())).toBe(true);
    await list.stop();
    expect(await listening(list.parts.http.port())).toBe(false);
  });

  it('a factory that throws closes what the parts before it opened (a real SQLite file) and rethrows', async () => {
    const dbFile = join(tmp.dir, 'monitor.sqlite');
    let store: StorePart | null = null;
    await expect(
      PartsBuilder.begin()
        .add('store', () => (store = storePart(tmp.dir)))
        .add('keys', (): Part => {
          expect(openHandles(dbFile)).toBeGreaterThan(0);
          throw new Error('no keychain');
        })
        .build(),
    ).rejects.toThrow('no keychain');
    expect(store).not.toBeNull();
    expect(openHandles(dbFile)).toBe(0);
  });
});
