import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { refusedHost, refusedTargetMessage, type AllowHow } from '../../shared/alert-targets';

/** A send refused because the receiver's name resolved to a link-local or cloud metadata address. */
export class RefusedTargetError extends Error {
  readonly code = 'EREFUSEDTARGET';
}

/**
 * The resolver alert connections use (undici's `connect.lookup`): a name that resolves to a
 * link-local or cloud metadata address is refused before any byte is sent. It checks the very
 * addresses the socket then connects to, so a name that passed at save time and is later pointed
 * elsewhere (DNS rebinding) is caught too. Addresses written in the URL itself are checked by the
 * channel (no lookup happens for them).
 */
export function refusingLookup(how: AllowHow, base: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const list: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 0 }];
      for (const a of list) {
        const why = refusedHost(a.address);
        if (why) return callback(new RefusedTargetError(refusedTargetMessage(`${hostname} resolves to ${a.address}`, why, how)), address, family);
      }
      callback(null, address, family);
    });
  };
}
