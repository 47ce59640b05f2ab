// The import check (`npm run lint`, `npm test`): what eslint's layer rule (eslint.config.mjs) cannot see,
// because it checks each import alone: chains of imports, dynamic and type-only ones included.
// - Production never reaches the simulator: no module of the app, the watcher, the web host or the
//   Data API server leads to src/simulator by any chain, but the service's entry, which reaches it only
//   through compose-world.ts's dynamic import (the simulated world is loaded when asked for).
// - No import circle anywhere in src (type-only imports count: a circle of types is a knot all the same).
// docs/local-service.md ("Worlds") says which module serves which world; test/lint/import-check.test.ts
// shows the check failing on a production path into the simulator.

/** The service's entry: the only modules that may reach the simulator, through compose-world.ts. */
const SERVICE_ENTRY = '^src/local-service/(index|cli|cli-args|compose-world)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'production-reaches-simulator',
      comment: 'Production code loads no simulator code: only the service entry reaches src/simulator, through compose-world.ts.',
      severity: 'error',
      from: { path: '^src/(main|preload|core|headless|host|web-server|chain-index|local-service|shared|sqlite|renderer)/', pathNot: SERVICE_ENTRY },
      to: { path: '^src/simulator/', reachable: true },
    },
    {
      name: 'simulator-only-through-compose-world',
      comment: 'compose-world.ts is the one module outside the simulator that imports it (types, and the world itself dynamically).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/simulator/', '^src/local-service/compose-world\\.ts$'] },
      to: { path: '^src/simulator/' },
    },
    {
      name: 'server-knows-no-world',
      comment: "The Data API server serves a World (local-service/world.ts); which one is compose-world.ts's business alone.",
      severity: 'error',
      from: { path: '^src/local-service/', pathNot: '^src/local-service/compose-world\\.ts$' },
      to: { path: '^src/(simulator|chain-index)/' },
    },
    {
      name: 'worlds-apart',
      comment: "The two worlds share only the server's world, store and shared code.",
      severity: 'error',
      from: { path: '^src/simulator/' },
      to: { path: '^src/chain-index/' },
    },
    {
      name: 'simulator-loaded-only-when-asked',
      comment: 'compose-world.ts imports the simulator dynamically (or its types): a service on your own nodes never loads it.',
      severity: 'error',
      from: { path: '^src/local-service/compose-world\\.ts$' },
      to: { path: '^src/simulator/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'no-circular',
      comment: 'No import circle, type-only imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    // Fast (a few seconds): our sources only, type-only imports read from the TypeScript sources.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mts', '.js', '.mjs', '.json', '.vue'] },
  },
};
