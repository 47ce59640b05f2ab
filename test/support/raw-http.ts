/**
 * Raw HTTP over node:net for hostile-request tests: the bytes go out exactly as given (clients such as
 * fetch or node:http normalise paths and refuse bad bytes before they reach the server).
 */
import { connect } from 'node:net';

export interface RawReply {
  /** 0 when the server closed without answering. */
  status: number;
  head: string;
  body: string;
}

/**
 * Sends `bytes` and reads until the server closes (the requests say `Connection: close`) or `ms` pass.
 * No half-close: Node's HTTP server drops a request whose client has ended its side.
 */
export function sendRaw(port: number, bytes: Buffer | string, ms = 5_000): Promise<RawReply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      const rest = split < 0 ? '' : text.slice(split + 4);
      resolve({
        status: status ? Number(status) : 0,
        head,
        body: length !== undefined ? Buffer.from(rest).subarray(0, Number(length)).toString('utf8') : rest,
      });
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', done);
    socket.on('error', () => undefined); // a reset still ends in 'close'
  });
}

/** A GET with the target and extra header lines exactly as given. */
export function rawGet(target: Buffer | string, port: number, headerLines: (Buffer | string)[] = []): Buffer {
  const parts: Buffer[] = [Buffer.from('GET '), Buffer.from(target), Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)];
  for (const line of headerLines) parts.push(Buffer.from(line), Buffer.from('\r\n'));
  parts.push(Buffer.from('Connection: close\r\n\r\n'));
  return Buffer.concat(parts);
}

/** The hostile targets the probe of issue 11 found (each once killed the service or got a bare 400/431). */
export const KNOWN_HOSTILE_TARGETS: (string | Buffer)[] = [
  '//',
  '///',
  '//a:b@',
  '/\\',
  '//evil.example/x',
  '/%',
  '/%zz?%zz=%zz',
  Buffer.from([0x2f, 0xff, 0x80]),
  Buffer.from('/é'),
  '/' + 'a'.repeat(100_000),
  '*',
  'http://127.0.0.1/',
];
