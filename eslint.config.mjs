// Layers: a folder under src/ imports only from layers to its right (see docs/architecture.md):
// renderer → shared · preload → shared · main → core → shared · host, headless → web-server → core → shared
// · local-service (the Data API server: HTTP, store, page tokens; compose-world.ts picks one world) → simulator, chain-index, shared
// · simulator (demo, tests, benchmarks only), chain-index (your own nodes, production): the two worlds → local-service's world and store, shared
// · core, local-service, chain-index → sqlite (the one SQLite door, plain Node, imports nothing of ours)
// · devnet → chain-index, local-service, shared (`npm run devnet` and the own-node tests' chains; nothing imports it)
// No production layer but the server that composes the demo imports the simulator. This rule sees one import at a time;
// .dependency-cruiser.cjs (also in `npm run lint`) checks every chain: only compose-world.ts reaches the simulator, no circles.
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import vueParser from 'vue-eslint-parser';
import pluginVue from 'eslint-plugin-vue';
import prettierOff from 'eslint-config-prettier/flat';

const layers = [
  'shared',
  'core',
  'main',
  'preload',
  'renderer',
  'web-server',
  'host',
  'headless',
  'local-service',
  'simulator',
  'chain-index',
  'sqlite',
  'devnet',
];
const allowed = {
  shared: [],
  core: ['shared', 'sqlite'],
  main: ['core', 'shared'],
  preload: ['shared'],
  renderer: ['shared'],
  // The web server both plain-Node shells share (the page and the contract on 127.0.0.1); the watcher never imports the host.
  'web-server': ['core', 'shared'],
  host: ['web-server', 'core', 'shared'],
  headless: ['web-server', 'core', 'shared'],
  'local-service': ['simulator', 'chain-index', 'shared', 'sqlite'],
  simulator: ['local-service', 'shared'],
  'chain-index': ['local-service', 'shared', 'sqlite'],
  sqlite: [],
  devnet: ['chain-index', 'local-service', 'shared'],
};
const zones = Object.entries(allowed).flatMap(([layer, ok]) =>
  layers
    .filter((other) => other !== layer && !ok.includes(other))
    .map((other) => ({
      target: `./src/${layer}`,
      from: `./src/${other}`,
      message: `Layer rule: src/${layer} may not import from src/${other} (see docs/architecture.md).`,
    })),
);
// Inside the renderer, logic/ is plain functions the stores, components and views use: it never depends on them.
zones.push({
  target: './src/renderer/src/logic',
  from: ['./src/renderer/src/stores', './src/renderer/src/components', './src/renderer/src/views'],
  message: 'Renderer logic/ may not import stores, components or views: they import it (move the shared type into logic/).',
});
const nodeBuiltins = {
  group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'net', 'crypto'],
  message: 'This layer runs without Node: no Node built-ins.',
};
const electronOnly = { name: 'electron', message: 'Only src/main and src/preload may import electron.' };
// The shells reach the core only through its public entry (src/core/index.ts); the rest of src/core is internal.
const coreInternals = {
  regex: '^(\\.\\./)+core/',
  message: 'A shell imports the core only from its public entry (src/core/index.ts): export what it needs there.',
};

const typed = ['**/*.ts', '**/*.mts', '**/*.vue'];

// A minute, an hour or a day in milliseconds is spelled once, in src/shared/time.ts (docs/limits.md, "Where numbers live").
const timeLiteral = (selector) => ({ selector, message: 'A time in ms: use MINUTE_MS, HOUR_MS or DAY_MS from src/shared/time.ts.' });
const timeLiterals = [
  ...[60_000, 3_600_000, 86_400_000].map((v) => timeLiteral(`Literal[value=${v}]`)),
  ...[60, 3600, 86_400].flatMap((v) => [
    timeLiteral(`BinaryExpression[operator='*'][left.value=${v}][right.value=1000]`),
    timeLiteral(`BinaryExpression[operator='*'][left.value=1000][right.value=${v}]`),
  ]),
  timeLiteral(`BinaryExpression[operator='*'][left.value=60][right.value=60]`),
];

export default tseslint.config(
  // electron.vite.config.ts.<n>.mjs: electron-vite's compiled config, there only while a build runs (npm test lints beside the build).
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'coverage/**',
      '**/*.d.ts',
      'test/lint/fixtures/**',
      'electron.vite.config.ts.*.mjs',
    ],
  },
  { files: typed, extends: [tseslint.configs.recommendedTypeChecked] },
  // Vue's template rules (the block below keeps its parser set: vue-eslint-parser around typescript-eslint's).
  ...pluginVue.configs['flat/recommended'].map((c) => ({ ...c, files: ['src/renderer/**/*.vue'] })),
  // Two single-word names kept: renaming those component files would only churn every import of them.
  { files: ['src/renderer/**/*.vue'], rules: { 'vue/multi-word-component-names': ['error', { ignores: ['Banners', 'Toaster'] }] } },
  {
    files: [...typed, '**/*.mjs'],
    languageOptions: {
      parser: vueParser,
      parserOptions: {
        parser: tseslint.parser,
        sourceType: 'module',
        ecmaVersion: 'latest',
        extraFileExtensions: ['.vue'],
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.mts', '.vue', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-debugger': 'error',
      // Two of strictTypeChecked's that earn their keep here: a promise returned from a try block must be awaited to be
      // caught there, and a switch over a status or transition kind must handle each one (or say `default`).
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Off: `async` on a method with no await is how we implement Promise-returning interfaces, so a throw becomes a rejection.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/shared/**', 'src/renderer/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronOnly], patterns: [nodeBuiltins] }] },
  },
  {
    files: [
      'src/core/**',
      'src/web-server/**',
      'src/host/**',
      'src/headless/**',
      'src/local-service/**',
      'src/simulator/**',
      'src/chain-index/**',
      'src/sqlite/**',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: [electronOnly] }] },
  },
  // After the block above, which it replaces for these folders (a later block's rule options win).
  {
    files: ['src/web-server/**', 'src/host/**', 'src/headless/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronOnly], patterns: [coreInternals] }] },
  },
  { files: ['src/main/**', 'src/preload/**'], rules: { 'no-restricted-imports': ['error', { patterns: [coreInternals] }] } },
  {
    files: ['src/**/*.ts', 'src/**/*.vue'],
    ignores: ['src/shared/time.ts'],
    rules: { 'no-restricted-syntax': ['error', ...timeLiterals] },
  },
  {
    // Off in tests only: they read JSON bodies and page state of unknown shape and check them with expect at run time.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  // Plain JavaScript (scripts, this file) is outside the TypeScript projects: untyped rules only.
  { files: ['**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  // Last: layout is prettier's job, so every stylistic rule above is off.
  prettierOff,
);
