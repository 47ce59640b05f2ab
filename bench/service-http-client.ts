/**
 * A minimal keep-alive HTTP/1.1 GET client for timing the service (bench only). It reads every
 * response into ONE reused buffer and keeps only the bytes it needs (the body's last KiB, for the page
 * token), so it makes almost no garbage: a general client's per-chunk buffers and body strings gave the
 * timing process full GCs of up to 16 ms in the middle of timed requests.
 * It expects what the service sends: a Content-Length on every response, no chunked encoding.
 */
import { connect, type Socket } from 'node:net';

export interface LightResponse {
  status: number;
  /** Request written to last body byte received, ms. */
  ms: number;
  bodyBytes: number;
  /** The body's last bytes (at most TAIL_BYTES). */
  tail: Buffer;
  /** The whole body, only when asked for (it is copied). */
  body?: Buffer;
}

const READ_BYTES = 256 * 1024;
const HEADER_MAX = 16 * 1024;
export const TAIL_BYTES = 1024;

interface Pending {
  t0: number;
  keepBody: boolean;
  resolve: (r: LightResponse) => void;
  reject: (e: Error) => void;
}

export class LightHttpClient {
  private socket: Socket | null = null;
  private readonly readBuf = Buffer.allocUnsafe(READ_BYTES);
  private readonly header = Buffer.allocUnsafe(HEADER_MAX);
  private readonly tail = Buffer.allocUnsafe(TAIL_BYTES);
  private headerLen = 0;
  private status = 0;
  private remaining = -1; // -1: still reading the header
  private bodyBytes = 0;
  private tailLen = 0;
  private bodyParts: Buffer[] = [];
  private pending: Pending | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  static forUrl(url: string): LightHttpClient {
    const u = new URL(url);
    return new LightHttpClient(u.hostname, Number(u.port));
  }

  async get(path: string, keepBody = false): Promise<LightResponse> {
    if (this.pending) throw new Error('one request at a time');
    const socket = await this.connected();
    return new Promise<LightResponse>((resolve, reject) => {
      this.headerLen = 0;
      this.remaining = -1;
      this.bodyBytes = 0;
      this.tailLen = 0;
      this.bodyParts = [];
      this.pending = { t0: performance.now(), keepBody, resolve, reject };
      socket.write(`GET ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n\r\n`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private connected(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    return new Promise((resolve, reject) => {
      const socket = connect({
        host: this.host,
        port: this.port,
        noDelay: true,
        onread: { buffer: this.readBuf, callback: (n: number, buf: Uint8Array) => this.onRead(buf as Buffer, n) },
      });
      socket.once('connect', () => {
        this.socket = socket;
        resolve(socket);
      });
      socket.once('error', reject);
      socket.on('close', () => {
        if (this.socket === socket) this.socket = null;
        this.fail(new Error('the service closed the connection'));
      });
    });
  }

  private onRead(buf: Buffer, n: number): boolean {
    let start = 0;
    if (this.remaining < 0) {
      const take = Math.min(n, HEADER_MAX - this.headerLen);
      buf.copy(this.header, this.headerLen, 0, take);
      const searchFrom = Math.max(0, this.headerLen - 3);
      this.headerLen += take;
      const end = this.header.subarray(0, this.headerLen).indexOf('\r\n\r\n', searchFrom, 'latin1');
      if (end < 0) {
        if (this.headerLen >= HEADER_MAX) this.fail(new Error('response header too large'));
        return true;
      }
      const text = this.header.toString('latin1', 0, end);
      this.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const length = /\r\ncontent-length: *(\d+)/i.exec(text);
      if (!length) return (this.fail(new Error(`response without content-length: ${text.slice(0, 200)}`)), true);
      this.remaining = Number(length[1]);
      start = end + 4 - (this.headerLen - take); // where the body starts in this read
    }
    const body = buf.subarray(start, n);
    if (body.length > 0) this.onBody(body);
    if (this.remaining === 0) this.finish();
    return true;
  }

  private onBody(chunk: Buffer): void {
    if (chunk.length > this.remaining) return this.fail(new Error('response longer than its content-length'));
    this.remaining -= chunk.length;
    this.bodyBytes += chunk.length;
    if (this.pending?.keepBody) this.bodyParts.push(Buffer.from(chunk));
    if (chunk.length >= TAIL_BYTES) {
      chunk.copy(this.tail, 0, chunk.length - TAIL_BYTES);
      this.tailLen = TAIL_BYTES;
    } else {
      const keep = Math.min(this.tailLen, TAIL_BYTES - chunk.length);
      this.tail.copy(this.tail, 0, this.tailLen - keep, this.tailLen);
      chunk.copy(this.tail, keep);
      this.tailLen = keep + chunk.length;
    }
  }

  private finish(): void {
    const p = this.pending;
    if (!p) return;
    const ms = performance.now() - p.t0;
    this.pending = null;
    const r: LightResponse = { status: this.status, ms, bodyBytes: this.bodyBytes, tail: Buffer.from(this.tail.subarray(0, this.tailLen)) };
    if (p.keepBody) r.body = Buffer.concat(this.bodyParts);
    p.resolve(r);
  }

  private fail(e: Error): void {
    const p = this.pending;
    this.pending = null;
    p?.reject(e);
  }
}
