import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A bench's scratch folder: the core's database, the bundled children. */
export const makeWorkDir = (bench: string): string => mkdtempSync(join(tmpdir(), `tw-${bench}-bench-`));

/** Removes the scratch folder at the end of a run, unless BENCH_KEEP asks to keep it (its path is printed). */
export function removeWorkDir(work: string): void {
  if (process.env.BENCH_KEEP) console.error('kept', work);
  else rmSync(work, { recursive: true, force: true });
}
