/** Reads an answer's body up to a cap: a server that sends without end (or a gigabyte) costs at most that much memory. */
import type { Dispatcher } from 'undici';

/** The body as text, or null when it is longer than `maxBytes` (the rest is not read: the connection is dropped). */
export async function readCappedBody(body: Dispatcher.ResponseData['body'], maxBytes: number, declaredLength?: string): Promise<string | null> {
  const declared = Number(declaredLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes).toString('utf8');
}
