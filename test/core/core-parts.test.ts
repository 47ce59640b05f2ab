/**
 * The real core names its parts in the order it starts them, and its after-cycle order (the `core
 * starting` log line), and docs/architecture.md lists the same parts in the same orders: the tables
 * cannot drift from the code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { tempDir } from './helpers';

const DOCS = join(__dirname, '..', '..', 'docs', 'architecture.md');

/** The part names of a docs table (the section under `heading`), in its order. */
function documented(heading: string): string[] {
  const doc = readFileSync(DOCS, 'utf8');
  const start = doc.indexOf(heading);
  expect(start, `docs/architecture.md has "${heading}"`).toBeGreaterThan(-1);
  const section = doc.slice(start, doc.indexOf('\n### ', start + 1));
  return [...section.matchAll(/^\| (\d+) \| `([a-z-]+)` \|/gm)].map((m) => m[2]!);
}
const documentedParts = () => documented("### The core's parts, in the order they start");
const documentedAfterCycle = () => documented('### What runs after each poll cycle, in order');

describe("the core's parts", () => {
  const tmp = tempDir();
  let core: MonitorCore | null = null;
  afterEach(async () => {
    await core?.close();
    core = null;
    tmp.cleanup();
  });

  it('starts the parts docs/architecture.md lists, in that order, and runs its after-cycle list in that order', async () => {
    const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
    const record = (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, ...(fields ? { fields } : {}) });
    core = await createMonitorCore({
      dataDir: tmp.dir,
      shell: 'web',
      version: 'parts-test',
      autoPoll: false,
      keychainService: `tw-parts-${randomBytes(4).toString('hex')}`,
      logger: { debug: record, info: record, warn: record, error: record },
    });
    await core.start();
    const starting = lines.find((l) => l.msg === 'core starting');
    expect(starting?.fields?.parts).toEqual(documentedParts());
    expect(documentedParts()).toContain('polling');
    expect(starting?.fields?.afterCycle).toEqual(documentedAfterCycle());
    expect(documentedAfterCycle()).toContain('notifications');
  });
});
