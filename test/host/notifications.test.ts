/**
 * In the web host a notification is delivered only when a page can show it: with no page open the
 * outbox keeps it (nothing is marked delivered, no notification event), and the first page to
 * connect gets what waited, coalesced when there are many.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { MonitorEvent } from '../../src/shared/contract';
import { DATABASE_FILE } from '../../src/core/store/database';
import { invoke } from './http-client';
import { stackForFile } from './stack';
import { waitFor } from '../support/wait-for';
import { Database } from '../../src/sqlite';
import { frameText } from '../support/ws-frame';

const coreEvents: MonitorEvent[] = [];
const web = stackForFile((s) => s.app.core.onEvent((e) => coreEvents.push(e)));

// No `stuck`: a preloaded pending message of the address may cross the threshold while the test runs (real clock).
const ALL = { new: true, left_pending: true, receipt_delivered: true, stuck: false };

function outbox(): { waiting: number; delivered: number } {
  const db = new Database(join(web.stack.base, 'data', DATABASE_FILE), { readOnly: true });
  try {
    return db.prepare('SELECT SUM(delivered_at IS NULL) AS waiting, SUM(delivered_at IS NOT NULL) AS delivered FROM outbox').get() as {
      waiting: number;
      delivered: number;
    };
  } finally {
    db.close();
  }
}

async function openPage(): Promise<{ ws: WebSocket; events: MonitorEvent[] }> {
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api/events?token=${web.token}`);
  const events: MonitorEvent[] = [];
  ws.on('message', (data) => events.push(JSON.parse(frameText(data)) as MonitorEvent));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, events };
}

/** Sends `n` messages from the watched address and polls until the core has logged their transitions. */
async function newMessages(address: string, n: number): Promise<void> {
  const ids = Array.from({ length: n }, () =>
    web.stack.service.simulator.send({ network: 'mainnet', from: address, outcome: 'normal', deliveryDelayMs: 3_600_000 }),
  );
  await invoke(web.port, web.token, 'pollNow');
  await waitFor(() =>
    ids.every((id) => coreEvents.some((e) => e.type === 'transitions' && e.transitions.some((t) => t.messageId === id))) ? true : undefined,
  );
}

describe('web host: notifications reach a page', () => {
  it('keeps notifications while no page is open and shows them, coalesced, when one connects', async () => {
    const address = web.stack.service.simulator.addresses[5] as string;
    expect(JSON.parse((await invoke(web.port, web.token, 'addWatch', { address, label: 'mine', notify: ALL })).body).ok).toBe(true);
    await invoke(web.port, web.token, 'pollNow'); // baseline of the address's history

    await newMessages(address, 5);
    await invoke(web.port, web.token, 'pollNow'); // another cycle, another drain: still nobody to show it to
    expect(coreEvents.filter((e) => e.type === 'notification')).toEqual([]);
    expect(outbox()).toEqual({ waiting: 5, delivered: 0 });

    const page = await openPage();
    try {
      const shown = await waitFor(() => page.events.find((e) => e.type === 'notification'));
      expect(shown).toMatchObject({ type: 'notification', notification: { title: '5 message updates' } });
      expect(shown.type === 'notification' && shown.notification.transitionIds).toHaveLength(5);
      await waitFor(() => (outbox().waiting === 0 ? true : undefined));
      expect(outbox()).toEqual({ waiting: 0, delivered: 5 });
    } finally {
      page.ws.close();
    }
  });
});
