import type { SourceKey } from '../../shared/sources';
import type { Db } from './database';
import type { PollStateStore } from './poll-state-store';

/** The tables whose rows carry the data source they came from (migration 11). */
const SOURCED_TABLES = ['messages', 'transitions', 'relayer_episodes', 'relayer_fuel', 'alert_entries'] as const;
const ADOPTED = 'unlabelled-rows-adopted';

/**
 * Rows kept from before figures carried their source are taken as the source configured when the
 * upgrade first opened the database: the best that is known of them. Done once (a flag in poll_state),
 * since each table is read whole to find them.
 */
export function adoptUnlabelledRows(db: Db, kept: PollStateStore, source: SourceKey): void {
  if (kept.get<boolean>(ADOPTED)) return;
  db.transaction(() => {
    for (const table of SOURCED_TABLES) db.prepare(`UPDATE ${table} SET source = ? WHERE source = ''`).run(source);
    kept.set(ADOPTED, true);
  })();
}
