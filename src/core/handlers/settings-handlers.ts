/** The contract's calls that read and change the settings. */
import type { MonitorEvent, MonitorHandlers, Settings } from '../../shared/contract';
import { MonitorError } from '../../shared/errors';
import type { OwnNodes } from '../../shared/own-nodes';
import type { Logger } from '../log/logger';
import type { Poller } from '../poller/poller';
import type { Store } from '../store';

/** What the settings handlers use, and all they can reach. */
export interface SettingsNeeds {
  settings(): Settings;
  store: Pick<Store, 'settings'>;
  emit(e: MonitorEvent): void;
  /** A cycle at once after a change, so the new settings show without waiting an interval. */
  poller: Pick<Poller, 'runCycle'>;
  logger: Pick<Logger, 'warn'>;
  /** Own nodes that fail their check when saved: refused, or reported and kept (MonitorCoreOptions.ownNodesCheck). */
  ownNodesCheck: 'refuse' | 'report';
}

export function createSettingsHandlers(ctx: SettingsNeeds): Pick<MonitorHandlers, 'getSettings' | 'updateSettings'> {
  return {
    getSettings: () => ctx.settings(),
    updateSettings: async (input) => {
      const checkOwnNodesAsConfigured = async (o: OwnNodes) =>
        (await checkChains()).checkOwnNodes(o, {
          mode: ctx.ownNodesCheck,
          onProblem: (m) => ctx.logger.warn(`own nodes: ${m} The other chains are read; this one shows its state.`),
        });
      // Own nodes are checked before they are saved (eth_chainId, code at each messenger); the saved chains carry their EVM chain IDs.
      const patch =
        input.dataSource?.kind === 'ownNodes'
          ? { ...input, dataSource: { kind: 'ownNodes' as const, ownNodes: await checkOwnNodesAsConfigured(input.dataSource.ownNodes) } }
          : input;
      let next: Settings;
      try {
        next = ctx.store.settings.update(patch);
      } catch (e) {
        const issue = (e as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
        throw new MonitorError({
          kind: 'invalid_input',
          message: issue?.message ?? 'Invalid settings.',
          ...(issue?.path.length ? { field: issue.path.join('.') } : {}),
        });
      }
      ctx.emit({ type: 'settings-changed', settings: next });
      void ctx.poller.runCycle();
      return next;
    },
  };
}

/** The chain checks bring viem: loaded when own nodes are first saved, not in every core's memory from the start. */
const checkChains = () => import('../own-nodes/check-chains');
