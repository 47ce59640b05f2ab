import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// The layer rule of docs/architecture.md must make a wrong-way import fail lint (and so `npm test`).
// These snippets are not files of a TypeScript project, so they are linted without type information.
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath: file });
  return (res?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('layer import rule', () => {
  it('keeps the simulator out of production code: only the server that composes the demo imports it (issue 30)', async () => {
    for (const layer of ['core', 'main', 'web-server', 'host', 'headless', 'chain-index', 'devnet', 'shared', 'sqlite'])
      expect(await ruleIds(`src/${layer}/x.ts`, "import '../simulator/simulator';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/renderer/src/x.ts', "import '../../simulator/simulator';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/local-service/x.ts', "import '../simulator/simulator';\nimport '../chain-index/chain-indexer';\n")).toEqual([]);
    // Both worlds write into the server's store; the chain indexer never reaches the core.
    expect(await ruleIds('src/chain-index/x.ts', "import '../local-service/store/record-store';\n")).toEqual([]);
    expect(await ruleIds('src/simulator/x.ts', "import '../local-service/store/record-store';\n")).toEqual([]);
    expect(await ruleIds('src/chain-index/x.ts', "import '../core/monitor-core';\n")).toContain('import-x/no-restricted-paths');
  });
  it('refuses core importing main, renderer importing core, service importing core', async () => {
    expect(await ruleIds('src/core/x.ts', "import '../main/index';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/renderer/src/x.ts', "import '../../shared/result';\nimport '../../main/index';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/local-service/x.ts', "import '../main/index';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/shared/x.ts', "import '../preload/index';\n")).toContain('import-x/no-restricted-paths');
    // The SQLite door is plain Node below core and service: it imports nothing of ours, and only they use it.
    expect(await ruleIds('src/sqlite/x.ts', "import '../shared/result';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/host/x.ts', "import '../sqlite/index';\n")).toContain('import-x/no-restricted-paths');
  });
  it('refuses electron outside main and preload, and Node built-ins in shared and renderer', async () => {
    expect(await ruleIds('src/core/x.ts', "import { app } from 'electron';\nexport { app };\n")).toContain('no-restricted-imports');
    expect(await ruleIds('src/shared/x.ts', "import { readFileSync } from 'node:fs';\nexport { readFileSync };\n")).toContain('no-restricted-imports');
  });
  it('allows the arrows of the design', async () => {
    expect(await ruleIds('src/core/x.ts', "import { ok } from '../shared/result';\nexport { ok };\n")).toEqual([]);
    expect(await ruleIds('src/main/x.ts', "import { app } from 'electron';\nimport '../shared/result';\nexport { app };\n")).toEqual([]);
    expect(await ruleIds('src/core/x.ts', "import { Database } from '../sqlite/index';\nexport { Database };\n")).toEqual([]);
    expect(await ruleIds('src/local-service/x.ts', "import { Database } from '../sqlite/index';\nexport { Database };\n")).toEqual([]);
    expect(await ruleIds('src/headless/x.ts', "import '../web-server/server';\nimport '../core';\nimport '../shared/result';\n")).toEqual([]);
    expect(await ruleIds('src/host/x.ts', "import '../web-server/server';\nimport '../core';\n")).toEqual([]);
    expect(await ruleIds('src/web-server/x.ts', "import '../core';\nimport '../shared/result';\n")).toEqual([]);
  });
  it('lets a shell import the core only through its public entry, src/core/index.ts', async () => {
    for (const shell of ['main', 'preload', 'web-server', 'host', 'headless']) {
      expect(await ruleIds(`src/${shell}/x.ts`, "import '../core/monitor-core';\n"), shell).toContain('no-restricted-imports');
      expect(await ruleIds(`src/${shell}/deeper/x.ts`, "import '../../core/log/logger';\n"), shell).toContain('no-restricted-imports');
    }
    expect(await ruleIds('src/main/x.ts', "import { app } from 'electron';\nimport '../core';\nexport { app };\n")).toEqual([]);
    // The core itself reaches its own folders freely.
    expect(await ruleIds('src/core/parts/x.ts', "import '../metrics/core-metrics';\n")).toEqual([]);
  });
  it("keeps the renderer's logic/ below its stores, components and views", async () => {
    for (const above of ['stores/activity', 'components/Toaster.vue', 'views/ActivityView.vue'])
      expect(await ruleIds('src/renderer/src/logic/x.ts', `import '../${above}';\n`), above).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/renderer/src/stores/x.ts', "import '../logic/toast-plan';\n")).toEqual([]);
  });
  it('keeps the headless watcher off the Electron shell and the web host, and host, web server and core off headless', async () => {
    expect(await ruleIds('src/headless/x.ts', "import '../main/index';\n")).toContain('import-x/no-restricted-paths');
    // Issue 21: the watcher shares the web server, not the host's CLI, paths or build step.
    expect(await ruleIds('src/headless/x.ts', "import '../host/renderer-build';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/web-server/x.ts', "import '../host/paths';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/host/x.ts', "import '../headless/watcher';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('src/core/x.ts', "import '../headless/watcher';\n")).toContain('import-x/no-restricted-paths');
  });
});

// Type-aware rules need a file the TypeScript project holds: a fixture on disk, which `eslint .` leaves out.
describe('type-checked rules', () => {
  it('refuse a floating promise and an async callback where a void one is expected, and nothing else', async () => {
    const [res] = await new ESLint({ cwd: process.cwd(), ignore: false }).lintFiles(['test/lint/fixtures/floating-promises.ts']);
    expect((res?.messages ?? []).map((m) => `${m.line}: ${m.ruleId ?? m.message}`)).toEqual([
      '8: @typescript-eslint/no-floating-promises',
      '13: @typescript-eslint/no-misused-promises',
    ]);
  });
});

describe('Vue template rules', () => {
  it('refuses a v-for without a key in a renderer component', async () => {
    const sfc =
      '<script setup lang="ts">\nconst items = [1, 2];\n</script>\n\n<template>\n  <ul>\n    <li v-for="i in items">{{ i }}</li>\n  </ul>\n</template>\n';
    expect(await ruleIds('src/renderer/src/components/ItemList.vue', sfc)).toContain('vue/require-v-for-key');
  });
});
