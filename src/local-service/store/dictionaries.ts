/**
 * The dictionary tables (chains, routes, addresses) and their in-memory copies: records store small
 * integer IDs, and filters become sets of those IDs without a query.
 */
import type { Database } from '../../sqlite';
import { chainByBlockchainId, chainByEvmChainId } from '../../shared/chains';
import type { ChainRef } from '../../shared/validators';
import { NET_CODES } from './schema';

/** A row of `routes`: a source chain + destination chain pair, with its network code. */
export interface Route {
  id: number;
  src: number;
  dst: number;
  net: number;
}

/** A row of `chains`. */
interface ChainRow {
  id: number;
  blockchainId: string;
  evmChainId: string;
}

interface ChainKey {
  blockchainId: string;
  evmChainId: string;
}

type ChainNetworks = ReadonlyMap<string, 'mainnet' | 'fuji'>;

function networkOf(blockchainId: string, evmChainId: string, own: ChainNetworks): number | undefined {
  const ownNet = own.get(blockchainId);
  if (ownNet) return NET_CODES[ownNet];
  const c = chainByBlockchainId(blockchainId) ?? chainByEvmChainId(evmChainId);
  return c ? NET_CODES[c.network] : undefined;
}

export class Dictionaries {
  private readonly chains: ChainRow[] = [];
  private readonly chainIds = new Map<string, number>();
  readonly routes: Route[] = [];
  /** Route ID -> position in `routes`. */
  private readonly routeIndex = new Map<number, number>();
  private readonly routeIds = new Map<string, number>();
  private readonly addressIds = new Map<string, number>();
  private readonly stmts;

  constructor(
    db: Database,
    private readonly chainNetworks: ChainNetworks = new Map(),
  ) {
    this.stmts = {
      chains: db.prepare<[], ChainRow>('SELECT id, blockchain_id AS blockchainId, evm_chain_id AS evmChainId FROM chains'),
      routes: db.prepare<[], Route>('SELECT id, src, dst, net FROM routes'),
      insertChain: db.prepare('INSERT INTO chains (blockchain_id, evm_chain_id) VALUES (?, ?)'),
      insertRoute: db.prepare('INSERT INTO routes (src, dst, net) VALUES (?, ?, ?)'),
      findAddress: db.prepare<[string], number>('SELECT id FROM addresses WHERE address = ?').pluck(),
      insertAddress: db.prepare('INSERT INTO addresses (address) VALUES (?)'),
    };
    this.reload();
  }

  /** (Re)reads the in-memory copies, e.g. after a rolled-back transaction undid rows they knew. */
  reload(): void {
    this.chains.length = 0;
    this.chainIds.clear();
    this.routes.length = 0;
    this.routeIds.clear();
    this.routeIndex.clear();
    this.addressIds.clear();
    for (const c of this.stmts.chains.all()) this.addChain(c);
    for (const r of this.stmts.routes.all()) this.addRoute(r);
  }

  /** The route of this chain pair, added when new. */
  routeId(src: ChainKey, dst: ChainKey): number {
    const s = this.chainId(src);
    const d = this.chainId(dst);
    let id = this.routeIds.get(`${s}|${d}`);
    if (id === undefined) {
      // A message belongs to the network of its chains: the source's, else the destination's.
      const net =
        networkOf(src.blockchainId, src.evmChainId, this.chainNetworks) ?? networkOf(dst.blockchainId, dst.evmChainId, this.chainNetworks) ?? NET_CODES.unknown;
      id = Number(this.stmts.insertRoute.run(s, d, net).lastInsertRowid);
      this.addRoute({ id, src: s, dst: d, net });
    }
    return id;
  }

  netOf(routeId: number): number {
    return this.routes[this.routeIndex.get(routeId)!]!.net;
  }

  /** Chain IDs matching a blockchain ID or EVM chain ID. */
  chainsMatching(ref: ChainRef): Set<number> {
    return new Set(this.chains.filter((c) => (ref.kind === 'blockchainId' ? c.blockchainId === ref.value : c.evmChainId === ref.value)).map((c) => c.id));
  }

  /** The ID of an address already stored, else undefined (a filter on it matches nothing). */
  knownAddress(address: string): number | undefined {
    const lower = address.toLowerCase();
    const cached = this.addressIds.get(lower);
    if (cached !== undefined) return cached;
    const id = this.stmts.findAddress.get(lower);
    if (id !== undefined) this.addressIds.set(lower, id);
    return id;
  }

  /** The ID of an address (lower-cased by the caller), added when new. */
  addressId(address: string): number {
    const known = this.knownAddress(address);
    if (known !== undefined) return known;
    const id = Number(this.stmts.insertAddress.run(address).lastInsertRowid);
    this.addressIds.set(address, id);
    return id;
  }

  private chainId(c: ChainKey): number {
    const key = `${c.blockchainId}|${c.evmChainId}`;
    let id = this.chainIds.get(key);
    if (id === undefined) {
      id = Number(this.stmts.insertChain.run(c.blockchainId, c.evmChainId).lastInsertRowid);
      this.addChain({ id, ...c });
    }
    return id;
  }

  private addChain(c: ChainRow): void {
    this.chains.push(c);
    this.chainIds.set(`${c.blockchainId}|${c.evmChainId}`, c.id);
  }

  private addRoute(r: Route): void {
    this.routeIndex.set(r.id, this.routes.length);
    this.routes.push(r);
    this.routeIds.set(`${r.src}|${r.dst}`, r.id);
  }
}
