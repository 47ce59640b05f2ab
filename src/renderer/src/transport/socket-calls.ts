import type { InvokeResponse, MonitorMethod } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { WEB_CALL_TIMEOUT_MS, WEB_MAX_BODY_BYTES } from '../../../shared/web-protocol';
import { toInvokeResponse } from './http-invoke';

export type SetTimer = (fn: () => void, ms: number) => () => void;

/**
 * Calls over the page's socket (src/shared/web-protocol.ts): numbers each call, pairs the host's
 * replies (which may come out of order) with their callers, and settles every call exactly once:
 * by its reply, by `failAll` when the socket closes, or by the timeout.
 */
interface SocketCalls {
  /**
   * Sends the call and resolves with its reply. Null when nothing was sent (the frame is over the
   * host's limit, or `send` threw), so the caller may use HTTP instead without repeating a call.
   */
  call(send: (frame: string) => void, method: MonitorMethod, input: unknown): Promise<InvokeResponse> | null;
  /** Settles the call a reply frame answers; false when the frame is no reply (an event). */
  handleFrame(frame: object): boolean;
  /** Settles every pending call with this error (the socket closed: no reply can come any more). */
  failAll(error: ErrorInfo): void;
  readonly pending: number;
}

const fitsFrame = (text: string): boolean => text.length * 3 <= WEB_MAX_BODY_BYTES || new TextEncoder().encode(text).length <= WEB_MAX_BODY_BYTES;

export function createSocketCalls(setTimer: SetTimer, timeoutMs = WEB_CALL_TIMEOUT_MS): SocketCalls {
  const pending = new Map<number, { resolve: (r: InvokeResponse) => void; cancelTimer: () => void }>();
  let nextId = 1;

  const settle = (id: number, response: InvokeResponse) => {
    const p = pending.get(id);
    if (!p) return; // Already settled (timed out, or the socket closed): a late reply is dropped.
    pending.delete(id);
    p.cancelTimer();
    p.resolve(response);
  };

  return {
    call(send, method, input) {
      const id = nextId++;
      let frame: string;
      try {
        frame = JSON.stringify({ call: id, method, input: input ?? null });
      } catch {
        return null;
      }
      if (!fitsFrame(frame)) return null;
      // Pending before sending, so even a reply delivered at once finds its caller.
      let resolve!: (r: InvokeResponse) => void;
      const reply = new Promise<InvokeResponse>((r) => (resolve = r));
      const timeout: InvokeResponse = {
        ok: false,
        error: {
          kind: 'timeout',
          message: `The web host did not answer within ${Math.round(timeoutMs / 1000)} s. The call may still have taken effect; check before repeating it.`,
        },
      };
      pending.set(id, { resolve, cancelTimer: setTimer(() => settle(id, timeout), timeoutMs) });
      try {
        send(frame);
      } catch {
        pending.get(id)?.cancelTimer();
        pending.delete(id);
        return null;
      }
      return reply;
    },
    handleFrame(frame) {
      if (!('reply' in frame)) return false;
      const { reply, response } = frame as { reply: unknown; response?: unknown };
      if (typeof reply === 'number') settle(reply, toInvokeResponse(response));
      return true;
    },
    failAll(error) {
      for (const id of [...pending.keys()]) settle(id, { ok: false, error });
    },
    get pending() {
      return pending.size;
    },
  };
}
