/**
 * Why the data folder could not be opened, in words an operator can act on: a read-only folder, a
 * full disk, a file where the folder should be, or a database written by a newer version.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { MonitorError } from '../../shared/errors';

/** Thrown when the database's schema is newer than this version knows. */
export class NewerSchemaError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`The database was written by a newer version (schema ${found}, this app knows ${known}).`);
    this.name = 'NewerSchemaError';
  }
}

const ELSEWHERE = 'or start Teleporter Watch with another data folder (environment variable TELEPORTER_WATCH_DATA_DIR)';

/** SQLite's primary result codes for a full disk and an I/O error (extended codes keep them in the low byte). */
const SQLITE_FULL = 13;
const SQLITE_IOERR = 10;
const SQLITE_READONLY = 8;

export function dataFolderFault(dataDir: string, err: unknown): MonitorError {
  const e = err as NodeJS.ErrnoException & { errcode?: number };
  const detail = err instanceof Error ? err.message : String(err);
  const say = (message: string) => new MonitorError({ kind: 'internal', message });
  if (err instanceof NewerSchemaError) {
    return say(
      `The data folder ${dataDir} holds a database from a newer Teleporter Watch (schema ${err.found}; this version knows ${err.known}). ` +
        `Install that newer version again, ${ELSEWHERE}.`,
    );
  }
  const stat = statOf(dataDir);
  if (stat && !stat.isDirectory()) return say(`The data folder ${dataDir} is a file, not a folder. Move that file away, ${ELSEWHERE}.`);
  const code = (e.errcode ?? 0) & 0xff;
  if (!writable(dataDir) || code === SQLITE_READONLY || e.code === 'EROFS' || e.code === 'EACCES' || e.code === 'EPERM') {
    return say(`The data folder ${dataDir} is read-only: Teleporter Watch cannot save its database there. Give your user write access to it, ${ELSEWHERE}.`);
  }
  if (code === SQLITE_FULL || code === SQLITE_IOERR || e.code === 'ENOSPC' || e.code === 'EFBIG' || e.code === 'EDQUOT') {
    return say(
      `Teleporter Watch could not write to its data folder ${dataDir}: the disk is full or a size limit was reached (${detail}). Free some space, ${ELSEWHERE}.`,
    );
  }
  return say(`Teleporter Watch could not open its database in the data folder ${dataDir}: ${detail}`);
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function writable(dir: string): boolean {
  try {
    accessSync(statOf(dir) ? dir : parentOf(dir), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const parentOf = (path: string) => path.replace(/[/\\][^/\\]*[/\\]?$/, '') || '/';
