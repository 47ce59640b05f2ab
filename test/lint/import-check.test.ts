/**
 * The import check (.dependency-cruiser.cjs, run by `npm run lint` and `npm test`) on a copy of src/
 * with probe modules added: a production module that reaches the simulator through the service's entry
 * (a chain of imports, the last one dynamic), a module that imports it directly, and a circle of
 * type-only imports. The check must name exactly those, and nothing else: the tree itself passes.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'tw-import-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs the project's check on the copy; depcruise exits non-zero when it finds a violation. */
async function check(): Promise<Violation[]> {
  const args = ['src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  const run = await promisify(execFile)(join(root, 'node_modules', '.bin', 'depcruise'), args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
    (e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }),
  );
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('the import check', () => {
  it('fails on a production path into the simulator and on a circle, and passes the tree as it is', async () => {
    cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
    for (const f of ['tsconfig.base.json', 'tsconfig.node.json']) cpSync(join(root, f), join(dir, f));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    // The core starting the service in-process: the service's entry loads the simulator when asked for.
    writeFileSync(join(dir, 'src/core/probe-service.ts'), "export { startLocalService } from '../local-service/index';\n");
    // A server module reaching past compose-world.ts straight into the simulator (a type is enough).
    writeFileSync(join(dir, 'src/local-service/probe-direct.ts'), "export type { TrafficSimulator } from '../simulator/simulator';\n");
    // Two modules that need each other's types.
    writeFileSync(join(dir, 'src/shared/probe-a.ts'), "import type { B } from './probe-b';\nexport type A = { b?: B };\n");
    writeFileSync(join(dir, 'src/shared/probe-b.ts'), "import type { A } from './probe-a';\nexport type B = { a?: A };\n");

    // A circle is reported once, from whichever of its modules the tool meets first.
    const found = (await check()).map((v) => `${v.rule.name}: ${v.rule.name === 'no-circular' ? [v.from, v.to].sort().join(' ↔ ') : v.from}`);
    expect([...new Set(found)].sort()).toEqual([
      'no-circular: src/shared/probe-a.ts ↔ src/shared/probe-b.ts',
      'production-reaches-simulator: src/core/probe-service.ts',
      'production-reaches-simulator: src/local-service/probe-direct.ts',
      'server-knows-no-world: src/local-service/probe-direct.ts',
      'simulator-only-through-compose-world: src/local-service/probe-direct.ts',
    ]);
  }, 60_000);
});
