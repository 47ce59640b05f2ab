#!/usr/bin/env node
// The `teleporter-watch` command: runs src/headless/cli.ts through tsx (the project's TypeScript runner).
require('tsx/cjs');
require('../src/headless/cli.ts');
