/** cb58 encoding, the inverse of src/shared/validators.ts decodeCb58: tests make IDs with it (the app only reads them). */
import { base58 } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';

export function encodeCb58(payload: Uint8Array): string {
  const out = new Uint8Array(payload.length + 4);
  out.set(payload);
  out.set(sha256(payload).slice(-4), payload.length);
  return base58.encode(out);
}
