/**
 * The address of a delivery wallet from the key a relayer config holds for it. The key goes in and
 * only the address comes out: nothing here keeps, logs or returns the key, and an invalid key's
 * error never repeats it.
 */
import { privateKeyToAddress } from 'viem/accounts';

const KEY_RE = /^(0x)?[0-9a-fA-F]{64}$/;

/** The EIP-55 address of a secp256k1 private key (64 hex digits, 0x optional, as the relayer takes it); null when it is not one. */
export function walletAddressOf(key: unknown): string | null {
  if (typeof key !== 'string' || !KEY_RE.test(key.trim())) return null;
  const hex = key.trim().replace(/^0x/, '');
  try {
    return privateKeyToAddress(`0x${hex}`);
  } catch {
    return null; // zero or above the curve order
  }
}
