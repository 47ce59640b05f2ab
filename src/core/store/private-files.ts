/**
 * The data folder holds the message cache, settings, logs and the local service's database: private
 * to the user whoever creates them (the folder 0700, its files 0600). Files are created with the mode
 * and narrowed when they already exist (an older version, or another creator, left them 0644);
 * SQLite gives its -wal and -shm files the mode of the database file.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';

export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Creates `file` empty if missing (an empty file is a valid new SQLite database), then 0600 with its SQLite companions. */
export function privateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  for (const companion of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(companion, 0o600);
    } catch {
      // not there: SQLite creates it later with the database file's mode
    }
  }
}
