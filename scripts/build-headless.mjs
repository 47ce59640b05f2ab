// `npm run build:headless`: bundles the headless watcher into out/headless/cli.js and the local service
// it starts for `dataSource: local` into out/headless/local-service.js (plain Node, no TypeScript
// loader at run time: less memory, and no dev dependency on a server). Native modules stay external.
// Each file is written under a temporary name and renamed, so a watcher starting meanwhile never
// loads half a bundle. bin/teleporter-watch.cjs (and `npm run watch`) run this bundle.
import { build } from 'esbuild';
import { renameSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'out', 'headless');
const entries = { cli: join(root, 'src', 'headless', 'cli.ts'), 'local-service': join(root, 'src', 'local-service', 'cli.ts') };
const result = await build({
  entryPoints: entries,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  external: ['@napi-rs/keyring', 'electron'],
  logLevel: 'warning',
  write: false,
});
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
}
console.log(
  `built ${Object.keys(entries)
    .map((n) => `out/headless/${n}.js`)
    .join(' and ')}`,
);
