/**
 * No request of any shape stops the local service: it runs as its own process (the CLI, as the core
 * spawns it), gets known killers and fast-check's hostile requests over a raw socket, answers each
 * refusal with the Data API's JSON error body, and is still serving (and alive) afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';
import { rawGet, sendRaw } from '../support/raw-http';
import { expectKnownKillersRefused, fuzzServer } from '../support/hostile-requests';

let child: ChildProcess;
let port: number;

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, SERVICE_CLI, '--port', '0', '--rate', '0', '--preload', '20', '--rate-limit', '100000000,100000000', '--no-warm'],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
});
afterAll(() => {
  child?.kill('SIGTERM');
});

const isServiceError = (body: unknown, status: number) => {
  const b = body as { message?: unknown; statusCode?: unknown; error?: unknown };
  return b.statusCode === status && typeof b.error === 'string' && (typeof b.message === 'string' || Array.isArray(b.message));
};
const healthy = async () => (await sendRaw(port, rawGet('/_local/info', port))).status === 200;

describe('local service: hostile requests', () => {
  it('answers each known killer with a JSON error (or a page) and keeps serving', async () => {
    await expectKnownKillersRefused(port, isServiceError, healthy);
    expect(child.exitCode).toBeNull();
  });

  it('a 100 KB URL gets 431 and a raw non-ASCII byte 400, both with the JSON error body', async () => {
    const long = await sendRaw(port, rawGet('/' + 'a'.repeat(100_000), port));
    expect(long.status).toBe(431);
    expect(JSON.parse(long.body)).toMatchObject({ statusCode: 431, error: 'Request Header Fields Too Large' });
    const byte = await sendRaw(port, rawGet(Buffer.from([0x2f, 0xff]), port));
    expect(byte.status).toBe(400);
    expect(JSON.parse(byte.body).message).toMatch(/not allowed in a URL/);
  });

  it('survives fast-check hostile targets, query strings and headers', async () => {
    await fuzzServer(port, isServiceError, healthy);
    expect(child.exitCode).toBeNull();
  });
});
