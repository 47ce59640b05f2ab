/**
 * `POST /api/invoke/<method>` with `{ "input": ... }`: reads the body within its size limit and hands
 * the call to the core, whose `invoke` validates the input and turns every failure into a value.
 * `runCall` is the one path every call takes, over HTTP and over the page's socket alike.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { MonitorCore, Logger } from '../core';
import { isMonitorMethod, type InvokeResponse, type MonitorMethod } from '../shared/contract';
import { toErrorInfo } from '../shared/errors';
import { WEB_INVOKE_PREFIX } from '../shared/web-protocol';

export type CallRunner = (method: MonitorMethod, input: unknown) => Promise<InvokeResponse>;

/**
 * Runs one call in the core. The core never throws (failures are values); should it still, the
 * caller gets an `internal` value and the details stay in the host log.
 */
export function callRunner(core: Pick<MonitorCore, 'invoke'>, log?: Logger): CallRunner {
  return async (method, input) => {
    try {
      return await core.invoke(method, input);
    } catch (e) {
      log?.error('web host call failed', { method, error: toErrorInfo(e).message });
      return { ok: false, error: { kind: 'internal', message: 'Internal error; see the host log.' } };
    }
  };
}

type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: true };

/** Reads the whole body, giving up (without buffering more) once it passes `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ ok: false, tooLarge: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.resume();
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', reject);
  });
}

/** The method named by the path, or null when the path names none of the contract's methods. */
export function methodFromPath(pathname: string): MonitorMethod | null {
  if (!pathname.startsWith(WEB_INVOKE_PREFIX)) return null;
  const name = pathname.slice(WEB_INVOKE_PREFIX.length);
  return isMonitorMethod(name) ? name : null;
}

const InvokeBodySchema = z.object({ input: z.unknown().optional() }).strict();

/** The call's input from the body text, or an invalid_input value saying what is wrong. */
export function parseInvokeBody(text: string): { ok: true; input: unknown } | (InvokeResponse & { ok: false }) {
  if (text.trim() === '') return { ok: true, input: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: { kind: 'invalid_input', message: 'The request body must be JSON of the form {"input": ...}.' } };
  }
  const r = InvokeBodySchema.safeParse(json);
  if (!r.success) return { ok: false, error: { kind: 'invalid_input', message: 'The request body must be an object with only an "input" field.' } };
  return { ok: true, input: r.data.input };
}
