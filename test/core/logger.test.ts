import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from '../../src/core/log/logger';
import { tempDir } from './helpers';

describe('core logger', () => {
  const tmp = tempDir();
  afterEach(() => undefined);

  it('redacts a registered secret everywhere: message, fields, nested errors, forwarded lines', () => {
    const file = join(tmp.dir, 'logs', 'core.log');
    const forwarded: string[] = [];
    const fwd = (m: string, f?: Record<string, unknown>) => forwarded.push(m + JSON.stringify(f ?? {}));
    const log = createLogger({ file, forward: { debug: fwd, info: fwd, warn: fwd, error: fwd } });
    const key = 'sk_live_5b2f0c9e7d1a';
    log.addSecret(key);
    log.info(`header x-service-api-key: ${key}`, { headers: { 'x-service-api-key': key }, list: [key, 'ok'] });
    log.error('failed', { error: new Error(`bad key ${key}`) });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain(REDACTED);
    expect(text.split('\n').filter(Boolean)).toHaveLength(2);
    expect(forwarded.join('\n')).not.toContain(key);
    expect(forwarded.join('\n')).toContain(REDACTED);
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
});
