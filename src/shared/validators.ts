import { base58, hex } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { fail, ok, type Parsed } from './result';

export const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

export const PAGE_SIZE_MIN = 1;
export const PAGE_SIZE_MAX = 100;
const PAGE_SIZE_DEFAULT = 10;

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const MESSAGE_ID_RE = /^(0x)?[0-9a-fA-F]{64}$/;
const CHAIN_ID_RE = /^[1-9][0-9]{0,77}$/;

/** EIP-55 mixed-case checksum of a 40-hex-digit address. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = hex.encode(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    out += parseInt(hash[i] as string, 16) >= 8 ? (lower[i] as string).toUpperCase() : lower[i];
  }
  return out;
}

/** Accepts all-lower or all-upper hex as is; mixed case must match its EIP-55 checksum. */
export function parseEvmAddress(input: unknown, what = 'Address'): Parsed<string> {
  if (typeof input !== 'string' || input.trim() === '') return fail(`${what} is required.`);
  const s = input.trim();
  if (!s.startsWith('0x') && !s.startsWith('0X')) return fail(`${what} must start with 0x.`);
  if (!ADDRESS_RE.test(s.replace(/^0X/, '0x'))) {
    return fail(`${what} must be 0x followed by 40 hex digits (got ${s.length - 2}).`);
  }
  const body = s.slice(2);
  const checksummed = toChecksumAddress('0x' + body);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && checksummed.slice(2) !== body) {
    return fail(`${what} has an invalid EIP-55 checksum (letter case is wrong; did you mean ${checksummed}?).`);
  }
  return ok(checksummed);
}

/** cb58: base58 of payload followed by the last 4 bytes of sha256(payload). Blockchain IDs carry 32 bytes. */
export function decodeCb58(input: string): Uint8Array | null {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(input);
  } catch {
    return null;
  }
  if (bytes.length < 5) return null;
  const payload = bytes.slice(0, -4);
  const checksum = bytes.slice(-4);
  const digest = sha256(payload).slice(-4);
  for (let i = 0; i < 4; i++) if (digest[i] !== checksum[i]) return null;
  return payload;
}

/** cb58 encoding, the inverse of decodeCb58: own nodes report blockchain IDs as 32 bytes. */
export function encodeCb58(payload: Uint8Array): string {
  const out = new Uint8Array(payload.length + 4);
  out.set(payload);
  out.set(sha256(payload).slice(-4), payload.length);
  return base58.encode(out);
}

export function parseBlockchainId(input: unknown, what = 'Blockchain ID'): Parsed<string> {
  if (typeof input !== 'string' || input.trim() === '') return fail(`${what} is required.`);
  const s = input.trim();
  if (!/^[1-9A-HJ-NP-Za-km-z]+$/.test(s)) {
    return fail(`${what} must be a cb58 (base58) string; "${s}" has characters outside the base58 alphabet.`);
  }
  const payload = decodeCb58(s);
  if (!payload) return fail(`${what} "${s}" fails its cb58 checksum (a character is wrong or missing).`);
  if (payload.length !== 32) return fail(`${what} must encode 32 bytes; "${s}" encodes ${payload.length}.`);
  return ok(s);
}

export function parseEvmChainId(input: unknown, what = 'EVM chain ID'): Parsed<string> {
  const s = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : '';
  if (s === '') return fail(`${what} is required.`);
  if (!CHAIN_ID_RE.test(s)) return fail(`${what} must be a positive whole number in decimal, like 43114.`);
  return ok(s);
}

export type ChainRef = { kind: 'blockchainId'; value: string } | { kind: 'evmChainId'; value: string };

/** A source/destination filter: a cb58 blockchain ID or an EVM chain ID. */
export function parseChainRef(input: unknown, what = 'Chain'): Parsed<ChainRef> {
  const s = typeof input === 'string' ? input.trim() : typeof input === 'number' ? String(input) : '';
  if (s === '') return fail(`${what} is required.`);
  if (/^[0-9]+$/.test(s)) {
    const id = parseEvmChainId(s, `${what} (EVM chain ID)`);
    return id.ok ? ok({ kind: 'evmChainId', value: id.value }) : id;
  }
  const id = parseBlockchainId(s, `${what} (blockchain ID)`);
  return id.ok ? ok({ kind: 'blockchainId', value: id.value }) : fail(`${id.error} Use a cb58 blockchain ID or a decimal EVM chain ID.`);
}

export function parsePageSize(input: unknown): Parsed<number> {
  if (input === undefined || input === null || input === '') return ok(PAGE_SIZE_DEFAULT);
  const n = typeof input === 'number' ? input : typeof input === 'string' && /^-?\d+$/.test(input.trim()) ? Number(input) : NaN;
  if (!Number.isInteger(n)) return fail('pageSize must be a whole number.');
  if (n < PAGE_SIZE_MIN) return fail(`pageSize must not be less than ${PAGE_SIZE_MIN}.`);
  if (n > PAGE_SIZE_MAX) return fail(`pageSize must not be greater than ${PAGE_SIZE_MAX}.`);
  return ok(n);
}

export function parseNetwork(input: unknown): Parsed<Network> {
  if (typeof input === 'string' && (NETWORKS as readonly string[]).includes(input)) return ok(input as Network);
  return fail(`network must be one of ${NETWORKS.join(', ')}.`);
}

/** `testnet` and `fuji` name the same network. */
export const canonicalNetwork = (n: Network): 'mainnet' | 'fuji' => (n === 'mainnet' ? 'mainnet' : 'fuji');

export function parseMessageId(input: unknown): Parsed<string> {
  if (typeof input !== 'string' || input.trim() === '') return fail('Message ID is required.');
  const s = input.trim();
  if (!MESSAGE_ID_RE.test(s)) {
    const digits = s.replace(/^0x/i, '');
    const why = /^[0-9a-fA-F]*$/.test(digits) ? `got ${digits.length}` : 'it has characters other than 0-9 and a-f';
    return fail(`Message ID must be 64 hex digits, with or without 0x (${why}).`);
  }
  return ok(input.trim().replace(/^0x/, '').toLowerCase());
}
