/**
 * The timing client of `npm run bench:service`, in a process of its own (forked by
 * bench/service.bench.ts): the parent's work (reading the service's request log, printing progress)
 * never runs in the event loop that times requests. One IPC message per measurement:
 *   { type: 'measure', id, path, params, n }  ->  { type: 'measured', id, times, firstPage, deepestPage }
 */
import { LightHttpClient } from './service-http-client';

export interface MeasureRequest {
  type: 'measure';
  id: number;
  path: string;
  params: Record<string, string>;
  n: number;
}

export interface MeasureReply {
  type: 'measured';
  id: number;
  /** Round trip of each request, ms, in request order. */
  times: number[];
  /** Messages on the first page (0 = the combination matches nothing). */
  firstPage: number;
  deepestPage: number;
}

const TOKEN_RE = /"nextPageToken":"([^"]+)"\}$/;

/** Walks pages (restarting at the end) and times each request until `n` requests are done. */
async function measure(client: LightHttpClient, m: MeasureRequest): Promise<MeasureReply> {
  const times: number[] = [];
  let token: string | undefined;
  let firstPage = -1;
  let page = 0;
  let deepestPage = 0;
  while (times.length < m.n) {
    const q = new URLSearchParams({ ...m.params, ...(token ? { pageToken: token } : {}) });
    const target = `${m.path}?${q.toString()}`;
    const r = await client.get(target, firstPage < 0);
    times.push(r.ms);
    if (r.status !== 200) throw new Error(`${target} answered ${r.status}: ${r.tail.toString().slice(-300)}`);
    if (firstPage < 0) firstPage = (r.body!.toString().match(/"messageId"/g) ?? []).length;
    token = TOKEN_RE.exec(r.tail.toString())?.[1];
    page = token ? page + 1 : 0;
    deepestPage = Math.max(deepestPage, page);
  }
  return { type: 'measured', id: m.id, times, firstPage, deepestPage };
}

const url = process.argv[2];
if (!url || !process.send) throw new Error('usage: forked by bench/service.bench.ts with the service URL');
const client = LightHttpClient.forUrl(url);
let queue = Promise.resolve();
process.on('message', (m: MeasureRequest | { type: 'stop' }) => {
  if (m.type === 'stop') {
    client.close();
    process.disconnect();
    return;
  }
  queue = queue.then(() =>
    measure(client, m).then(
      (reply) => void process.send!(reply),
      (e: unknown) => void process.send!({ type: 'error', id: m.id, message: e instanceof Error ? e.message : String(e) }),
    ),
  );
});
process.on('disconnect', () => process.exit()); // the parent is gone: never linger
process.send({ type: 'ready' });
