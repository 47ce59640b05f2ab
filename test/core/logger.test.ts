import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from '../../src/core/log/logger';
import { tempDir } from './helpers';

describe('core logger', () => {
  const tmp = tempDir();
  afterEach(() => undefined);

  it('redacts a registered secret everywhere: message, fields, nested errors, forwarded lines', async () => {
    const file = join(tmp.dir, 'logs', 'core.log');
    const forwarded: string[] = [];
    const fwd = (m: string, f?: Record<string, unknown>) => forwarded.push(m + JSON.stringify(f ?? {}));
    const log = createLogger({ file, forward: { debug: fwd, info: fwd, warn: fwd, error: fwd } });
    const key = 'sk_live_5b2f0c9e7d1a';
    log.addSecret(key);
    log.info(`header x-service-api-key: ${key}`, { headers: { 'x-service-api-key': key }, list: [key, 'ok'] });
    log.error('failed', { error: new Error(`bad key ${key}`) });
    await log.close();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain(REDACTED);
    expect(text.split('\n').filter(Boolean)).toHaveLength(2);
    expect(forwarded.join('\n')).not.toContain(key);
    expect(forwarded.join('\n')).toContain(REDACTED);
    tmp.cleanup();
  });

  it('shows hidden characters of labels and upstream reasons: no CR LF forges a line, no bidi override or C1 control reaches core.log or the forwarded line', async () => {
    const file = join(tmp.dir, 'hidden', 'logs', 'core.log');
    const forwarded: string[] = [];
    const fwd = (m: string, f?: Record<string, unknown>) => forwarded.push(m + JSON.stringify(f ?? {}));
    const log = createLogger({ file, forward: { debug: fwd, info: fwd, warn: fwd, error: fwd } });
    const label = 'treasury\u202E\r\n{"level":"error","msg":"forged"}';
    const reason = 'bad gateway\u009B2J\u2028\u2066hidden\u2069\u001b[31m';
    log.warn(`live: ${label}`, { label, error: new Error(reason), nested: { list: [reason] } });
    await log.close();
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(text).not.toMatch(/[\r\u202E\u009B\u2028\u2066\u2069\u001b]/);
    const line = JSON.parse(lines[0]!) as { msg: string; label: string; error: { message: string }; nested: { list: string[] } };
    expect(line.msg).toBe('live: treasury<U+202E><U+000D><U+000A>{"level":"error","msg":"forged"}');
    expect(line.label).toBe('treasury<U+202E>\r\n{"level":"error","msg":"forged"}');
    expect(line.error.message).toBe('bad gateway<U+009B>2J<U+2028><U+2066>hidden<U+2069>\u001b[31m');
    expect(line.nested.list[0]).toBe(line.error.message);
    expect(forwarded.join('\n')).not.toMatch(/[\r\u202E\u009B\u2028\u2066\u2069\u001b]/);
    expect(forwarded).toHaveLength(1);
    tmp.cleanup();
  });

  it('drops lines below its level', () => {
    const lines: string[] = [];
    const sink = (m: string) => lines.push(m);
    const log = createLogger({ level: 'warn', forward: { debug: sink, info: sink, warn: sink, error: sink } });
    log.debug('a');
    log.info('b');
    log.warn('c');
    expect(lines).toEqual(['c']);
  });

  it('writes JSON lines with time, level and message, and keeps the file private', async () => {
    const file = join(tmp.dir, 'logs', 'core.log');
    const log = createLogger({ file, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
    log.warn('upstream slow', { ms: 1500 });
    await log.close();
    const line = JSON.parse(readFileSync(file, 'utf8').trim()) as Record<string, unknown>;
    expect(line).toEqual({ t: '2026-01-02T03:04:05.000Z', level: 'warn', msg: 'upstream slow', ms: 1500 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    tmp.cleanup();
  });

  it('rotates by size and keeps at most maxFiles old files, so a month-long run stays bounded', async () => {
    const file = join(tmp.dir, 'logs', 'core.log');
    const log = createLogger({ file, rotation: { size: '1K', maxFiles: 2 } });
    const filler = 'x'.repeat(200);
    for (let i = 0; i < 60; i++) {
      log.info(`line ${i} ${filler}`);
      // Let the stream rotate between writes, as it does in a running app.
      if (i % 5 === 4) await new Promise((r) => setImmediate(r));
    }
    await log.close();
    const files = readdirSync(join(tmp.dir, 'logs')).sort();
    expect(files).toEqual(['core.log', 'core.log.1', 'core.log.2']);
    for (const f of files) expect(statSync(join(tmp.dir, 'logs', f)).size).toBeLessThan(4096);
    // Oldest file first: the newest lines survive, in order, and the oldest were deleted.
    const all = ['core.log.2', 'core.log.1', 'core.log'].map((f) => readFileSync(join(tmp.dir, 'logs', f), 'utf8')).join('');
    const numbers = [...all.matchAll(/"msg":"line (\d+) /g)].map((m) => Number(m[1]));
    expect(numbers.at(-1)).toBe(59);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers).not.toContain(0);
    tmp.cleanup();
  });
});
