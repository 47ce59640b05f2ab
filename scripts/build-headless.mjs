// `npm run build:headless`: bundles the headless watcher into out/headless/cli.js (plain Node, no
// TypeScript loader at run time: less memory, and no dev dependency on a server). Native modules stay
// external. bin/teleporter-watch.cjs runs this bundle when it exists, else the sources through tsx.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  entryPoints: [join(root, 'src', 'headless', 'cli.ts')],
  outfile: join(root, 'out', 'headless', 'cli.js'),
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  external: ['@napi-rs/keyring', 'electron'],
  logLevel: 'warning',
});
console.log('built out/headless/cli.js');
