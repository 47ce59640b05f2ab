// The local service in own-nodes mode for `bench:own-node`, alone in its process as in the app: it
// reads both chains and stamps each record it writes (wall clock, shared with the parent). The public
// API's CU limits are on (src/shared/plans.ts: no key, the unauthenticated plan's); it
// counts what it charged and refused per caller, and at close judges the keyless caller's spend (the
// core's, and any call made as it) against the published plan (bench/judge.ts), for the parent.
import { REALISTIC_CU_LIMITS, startLocalService, type RunningService } from '../src/local-service/index';
import { systemClock } from '../src/shared/clock';
import type { OwnNodesInput } from '../src/shared/own-nodes';
import { judgeSpend } from './judge';
import { serveRole } from './own-node-role';
import { ServiceCount } from './service-count';

let service: RunningService | null = null;
const count = new ServiceCount(systemClock);
let startedAt = 0;

serveRole({
  name: 'service',
  async start(m) {
    startedAt = Date.now();
    service = await startLocalService({
      rate: 0,
      warmStore: false,
      dbPath: m.dbPath as string,
      computeUnits: REALISTIC_CU_LIMITS,
      onCharge: count.onCharge,
      onRefused: count.onRefused,
      ownNodes: m.ownNodes as OwnNodesInput,
    });
    service.onRecordChange((changes) => {
      const t = Date.now();
      process.send?.({ type: 'changes', t, items: changes.map(({ record }) => [record.messageId, record.status, record.receiptDelivered === true]) });
    });
    return { url: service.url };
  },
  async close() {
    const spend = judgeSpend(count, 'anonymous', 'unauthenticated', startedAt, Date.now(), count.refused('anonymous'));
    const report = { statuses: service?.ownNodes() ?? [], stored: service?.store.count() ?? 0, spend };
    await service?.close();
    return report;
  },
});
