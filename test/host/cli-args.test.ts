import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { homedir } from 'node:os';
import { defaultDataDir } from '../../src/core/default-data-dir';
import { parseHostArgs } from '../../src/host/cli-args';

const env = { XDG_DATA_HOME: '/tmp/xdg-data' };

describe('web host command line', () => {
  it('needs no arguments (npm start falls back to it)', () => {
    expect(parseHostArgs([], env)).toEqual({ port: 0, dataDir: '/tmp/xdg-data/teleporter-watch', open: true, help: false });
  });

  it('reads every flag', () => {
    expect(parseHostArgs(['--port', '8123', '--source', 'http://127.0.0.1:9000', '--data-dir', 'rel/dir', '--no-open'], env)).toEqual({
      port: 8123,
      source: { kind: 'custom', baseUrl: 'http://127.0.0.1:9000' },
      dataDir: resolve('rel/dir'),
      open: false,
      help: false,
    });
    expect(parseHostArgs(['--source', 'local'], env).source).toEqual({ kind: 'local' });
    expect(parseHostArgs(['--source', 'avalanche'], env).source).toEqual({ kind: 'avalanche' });
  });

  it('explains bad flags', () => {
    expect(() => parseHostArgs(['--port', 'abc'], env)).toThrow(/--port must be a whole number/);
    expect(() => parseHostArgs(['--port', '70000'], env)).toThrow(/--port/);
    expect(() => parseHostArgs(['--port', ''], env)).toThrow(/--port/);
    expect(() => parseHostArgs(['--source', 'ftp://x'], env)).toThrow(/--source must be/);
    expect(() => parseHostArgs(['--bogus'], env)).toThrow(/Usage: npm run start:web/);
  });

  it('defaults the data folder per XDG', () => {
    expect(defaultDataDir({})).toBe(resolve(homedir(), '.local/share/teleporter-watch'));
    expect(defaultDataDir({ XDG_DATA_HOME: 'relative' })).toBe(resolve(homedir(), '.local/share/teleporter-watch'));
  });
});
