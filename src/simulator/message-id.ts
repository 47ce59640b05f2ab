/**
 * Message IDs as TeleporterMessenger computes them: keccak256(abi.encode(messenger address, source
 * blockchain ID, destination blockchain ID, nonce)). Two messenger versions on one route with the same
 * nonce therefore get different IDs.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeCb58 } from '../shared/validators';

const word = (bytes: Uint8Array): Uint8Array => {
  const out = new Uint8Array(32);
  out.set(bytes.subarray(Math.max(0, bytes.length - 32)), 32 - Math.min(32, bytes.length));
  return out;
};

const hexBytes = (hex: string): Uint8Array => {
  const h = hex.replace(/^0x/, '');
  return Uint8Array.from(Buffer.from(h.length % 2 ? '0' + h : h, 'hex'));
};

function blockchainWord(cb58: string): Uint8Array {
  const payload = decodeCb58(cb58);
  if (!payload || payload.length !== 32) throw new Error(`Not a 32-byte cb58 blockchain ID: ${cb58}`);
  return payload;
}

export function teleporterMessageId(messenger: string, sourceBlockchainId: string, destinationBlockchainId: string, nonce: string): string {
  const encoded = new Uint8Array(128);
  encoded.set(word(hexBytes(messenger.toLowerCase())), 0);
  encoded.set(blockchainWord(sourceBlockchainId), 32);
  encoded.set(blockchainWord(destinationBlockchainId), 64);
  encoded.set(word(hexBytes('0x' + BigInt(nonce).toString(16))), 96);
  return Buffer.from(keccak_256(encoded)).toString('hex');
}
