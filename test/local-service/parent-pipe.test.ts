/**
 * `--exit-with-stdin`: the service stops cleanly (exit 0, database closed) when its stdin pipe closes,
 * which is what happens when the parent that spawned it dies by any signal (see test/core/orphan.test.ts
 * for a real SIGKILL of a real parent). Without the flag, stdin is ignored.
 */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/local-service/cli-args';
import { startServiceProcess } from '../support/service-process';

const start = (extra: string[]) => startServiceProcess(['--rate', '0', '--no-warm', ...extra]);

describe('service --exit-with-stdin', () => {
  it('parses the flag', () => {
    expect(parseCliArgs(['--exit-with-stdin'])).toEqual({ ok: true, value: { help: false, options: {}, exitWithStdin: true } });
    expect(parseCliArgs([])).toEqual({ ok: true, value: { help: false, options: {} } });
  });

  it('stops cleanly when its stdin closes', async () => {
    const s = start(['--exit-with-stdin']);
    const url = await s.listening;
    expect((await fetch(`${url}/_local/info`)).status).toBe(200);
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(s.out()).toContain('stdin closed: stopping');
  });

  it('without the flag, a closed stdin changes nothing', async () => {
    const s = start([]);
    const url = await s.listening;
    s.child.stdin.end();
    try {
      // The service keeps answering after the pipe has closed (several requests, awaited in turn).
      for (let i = 0; i < 5; i++) expect((await fetch(`${url}/_local/info`)).status).toBe(200);
      expect(s.child.exitCode).toBeNull();
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});
