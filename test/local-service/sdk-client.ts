/**
 * The official Data API SDK (@avalabs/avacloud-sdk) as a test client of a local service: a fetcher
 * that refuses every host but 127.0.0.1 (a test can never reach the public API) and records what
 * went over the wire, so a test can check that every 200 answer passed the SDK's validation.
 */
import { AvaCloudSDK } from '@avalabs/avacloud-sdk';
import { HTTPClient } from '@avalabs/avacloud-sdk/lib/http.js';

export interface Exchange {
  url: URL;
  status: number;
  headers: Headers;
}

export interface SdkRig {
  sdk: AvaCloudSDK;
  /** Per-call options: the local server and no retries (errors surface at once). */
  opts: { serverURL: string; retries: { strategy: 'none' } };
  exchanges: Exchange[];
}

export function sdkFor(serverURL: string, apiKey?: string): SdkRig {
  const exchanges: Exchange[] = [];
  const httpClient = new HTTPClient({
    fetcher: async (input, init) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const url = new URL(req.url);
      if (url.hostname !== '127.0.0.1') throw new Error(`test client refuses ${url.host}: only 127.0.0.1 is allowed`);
      const res = await fetch(req);
      exchanges.push({ url, status: res.status, headers: req.headers });
      return res;
    },
  });
  const sdk = new AvaCloudSDK({ serverURL, httpClient, ...(apiKey ? { apiKey } : {}) });
  return { sdk, opts: { serverURL, retries: { strategy: 'none' } }, exchanges };
}
