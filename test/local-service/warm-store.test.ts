import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { warmFile } from '../../src/local-service/store/warm-file';
import { parseCliArgs } from '../../src/local-service/cli-args';
import { get, serve } from './helpers';

describe('reading the store file into the OS cache at start', () => {
  it('reads the whole file, and stops early when aborted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-warm-'));
    const path = join(dir, 'blob');
    writeFileSync(path, randomBytes(9 * 1024 * 1024 + 123));
    expect((await warmFile(path)).bytes).toBe(statSync(path).size);
    const stop = new AbortController();
    stop.abort();
    expect((await warmFile(path, stop.signal)).bytes).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the service says when its store is cached, and can be told not to read it', async () => {
    const warm = await serve({ clock: new ManualClock(), preload: 2000 });
    expect(await warm.storeCached).toBe(true);
    expect(((await get(`${warm.url}/_local/info`)).json as { storeCached: boolean }).storeCached).toBe(true);
    const cold = await serve({ clock: new ManualClock(), preload: 10, warmStore: false });
    expect(await cold.storeCached).toBe(false);
    expect(((await get(`${cold.url}/_local/info`)).json as { storeCached: boolean }).storeCached).toBe(false);
  });

  it('--no-warm on the command line turns it off', () => {
    expect(parseCliArgs(['--no-warm'])).toEqual({ ok: true, value: { help: false, options: { warmStore: false } } });
    expect(parseCliArgs([])).toEqual({ ok: true, value: { help: false, options: {} } });
  });
});
