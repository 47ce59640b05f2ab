/** Name, symbol and decimals of fee tokens, read once from the chain (ERC-20) and kept in the store's meta. */
import { erc20Abi, type Address, type PublicClient } from 'viem';
import type { TokenInfo } from './record-builder';

const ZERO = '0x0000000000000000000000000000000000000000';
/** A message without a fee names the zero address as its token. */
const NO_FEE: TokenInfo = { name: 'No fee', symbol: '', decimals: 18 };
const UNKNOWN: TokenInfo = { name: 'Unknown token', symbol: '?', decimals: 18 };
/** A token's name or symbol longer than this is not a name (it would ride in every record of the token). */
const MAX_NAME_CHARS = 100;

/** What the token answered, if it is one: a short text, decimals 0–255. Anything else is the fallback. */
const shortText = (v: unknown, fallback: string): string => (typeof v === 'string' && v.length <= MAX_NAME_CHARS ? v : fallback);
const decimalsOf = (v: unknown): number => {
  const n = typeof v === 'bigint' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 255 ? n : UNKNOWN.decimals;
};

interface MetaStore {
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
}

export class TokenInfos {
  private readonly known = new Map<string, TokenInfo>();

  constructor(private readonly meta: MetaStore) {}

  private key = (chain: string, token: string) => `token:${chain}:${token.toLowerCase()}`;

  get(chain: string, token: string): TokenInfo {
    if (token.toLowerCase() === ZERO) return NO_FEE;
    const k = this.key(chain, token);
    let t = this.known.get(k);
    if (!t) {
      const raw = this.meta.getMeta(k);
      t = raw ? (JSON.parse(raw) as TokenInfo) : UNKNOWN;
      if (raw) this.known.set(k, t);
    }
    return t;
  }

  /** Reads a token's metadata once; a token that does not answer as an ERC-20 is remembered as unknown. */
  async learn(chain: string, token: string, client: PublicClient): Promise<void> {
    if (token.toLowerCase() === ZERO) return;
    const k = this.key(chain, token);
    if (this.known.has(k) || this.meta.getMeta(k)) return;
    const address = token as Address;
    const read = async (functionName: 'name' | 'symbol' | 'decimals'): Promise<unknown> => {
      try {
        return await client.readContract({ address, abi: erc20Abi, functionName });
      } catch {
        return undefined;
      }
    };
    const info: TokenInfo = {
      name: shortText(await read('name'), UNKNOWN.name),
      symbol: shortText(await read('symbol'), UNKNOWN.symbol),
      decimals: decimalsOf(await read('decimals')),
    };
    this.known.set(k, info);
    this.meta.setMeta(k, JSON.stringify(info));
  }
}
