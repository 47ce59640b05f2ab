/**
 * The after-cycle list (src/core/parts/after-cycle.ts): each listed part's `afterCycle` in the given
 * order; one that throws or rejects is logged with its name and the others still run; every
 * contributor must be listed. The order names only parts that exist before the runner and contribute
 * (the `@ts-expect-error` lines are checked by `npm run typecheck`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFY, type MonitorEvent } from '../../src/shared/contract';
import { afterCycleList } from '../../src/core/parts/after-cycle';
import { EventHub } from '../../src/core/parts/events';
import { PartsBuilder } from '../../src/core/parts/part';
import { storePart } from '../../src/core/parts/store';
import { wentLivePart } from '../../src/core/parts/went-live';
import { createRedactor } from '../../src/core/secrets/redact';
import type { Logger } from '../../src/core/log/logger';
import { randomAddress, tempDir } from './helpers';

const recorder = () => {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (msg: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, msg, ...(fields ? { fields } : {}) });
    };
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, logger };
};

describe('the after-cycle list', () => {
  const tmp = tempDir();
  afterEach(() => tmp.cleanup());

  it('runs each part in the listed order (not the start order)', async () => {
    const ran: string[] = [];
    const { logger } = recorder();
    const parts = {
      economics: { name: 'economics', afterCycle: async () => void ran.push('economics') },
      alerts: { name: 'alerts', afterCycle: () => void ran.push('alerts') },
      quiet: { name: 'quiet' }, // contributes nothing
    };
    const run = afterCycleList(parts, ['alerts', 'economics'], logger);
    await run();
    await run();
    expect(ran).toEqual(['alerts', 'economics', 'alerts', 'economics']);
  });

  it('logs a contributor that fails and still runs the others (real store, watch store events, event hub)', async () => {
    const { lines, logger } = recorder();
    const events: MonitorEvent[] = [];
    const list = await PartsBuilder.begin()
      .add('store', () => storePart(tmp.dir))
      .add('events', () => new EventHub(createRedactor(), logger))
      .add('ownNodes', () => ({
        name: 'own-nodes',
        afterCycle: () => {
          throw new Error('local service gone');
        },
      }))
      .add('relayerEconomics', () => ({ name: 'relayer-economics', afterCycle: () => Promise.reject(new Error('balance read failed')) }))
      .add('wentLive', ({ store, events }) => wentLivePart(store.store, events.emit))
      .build();
    list.parts.events.onEvent((e) => events.push(e));
    const run = afterCycleList(list.parts, ['ownNodes', 'relayerEconomics', 'wentLive'], logger);
    const address = randomAddress();
    const { store } = list.parts.store;
    store.watches.addWatch({ address, label: 'a', network: 'mainnet', notify: DEFAULT_NOTIFY, createdAt: 1 });
    store.watches.finishBaseline(address, null);

    await run();
    expect(events.filter((e) => e.type === 'watchlist-changed')).toHaveLength(1);
    const failed = lines.filter((l) => l.msg === 'after-cycle work failed');
    expect(failed.map((l) => l.fields?.part)).toEqual(['own-nodes', 'relayer-economics']);
    expect(failed.map((l) => (l.fields?.error as Error).message)).toEqual(['local service gone', 'balance read failed']);

    // Said once per cycle: a cycle where nothing went live says nothing.
    await run();
    expect(events.filter((e) => e.type === 'watchlist-changed')).toHaveLength(1);
    await list.stop();
  });

  it('refuses a contributor left out of the order, and a part listed twice', () => {
    const { logger } = recorder();
    const parts = { a: { name: 'a', afterCycle: () => undefined }, b: { name: 'b', afterCycle: () => undefined } };
    expect(() => afterCycleList(parts, ['a'], logger)).toThrow('After-cycle work of b is not in the after-cycle order.');
    expect(() => afterCycleList(parts, ['a', 'b', 'a'], logger)).toThrow('lists a part twice');
  });

  it('names only earlier parts that contribute (compile-time)', async () => {
    const { logger } = recorder();
    await PartsBuilder.begin()
      .add('log', () => ({ name: 'log' }))
      .add('alerts', () => ({ name: 'alerts', afterCycle: () => undefined }))
      .add('polling', (before) => {
        afterCycleList(before, ['alerts'], logger);
        // @ts-expect-error: `log` contributes no after-cycle work
        expect(() => afterCycleList(before, ['alerts', 'log'], logger)).toThrow();
        // @ts-expect-error: `notifications` is listed after `polling`, so polling cannot run it
        expect(() => afterCycleList(before, ['alerts', 'notifications'], logger)).toThrow();
        return { name: 'polling' };
      })
      .add('notifications', () => ({ name: 'notifications', afterCycle: () => undefined }))
      .build();
  });
});
