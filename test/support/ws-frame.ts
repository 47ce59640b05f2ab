import type { RawData } from 'ws';

/** A WebSocket frame as text: ws hands a text frame over as a Buffer, a fragmented one as Buffer[]. */
export function frameText(d: RawData): string {
  if (Array.isArray(d)) return Buffer.concat(d).toString('utf8');
  return (Buffer.isBuffer(d) ? d : Buffer.from(d)).toString('utf8');
}
