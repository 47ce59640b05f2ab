#!/usr/bin/env node
// The `teleporter-watch` command: the bundled watcher (npm run build:headless) when built, else the
// TypeScript sources through tsx (a checkout with dev dependencies).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '..', 'out', 'headless', 'cli.js');
if (existsSync(bundle)) {
  require(bundle);
} else {
  require('tsx/cjs');
  require('../src/headless/cli.ts');
}
