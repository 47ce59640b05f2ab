/**
 * The one contract between the UI and the core, by area: settings.ts (settings, the API key's status),
 * messages.ts (pages, the cache, feeds, the transition log, figures), activity.ts (Activity's timeline of
 * transitions and alerts), app.ts (the shell, the demo),
 * events.ts (every event, with its schema), methods.ts (every call's input schema and result), wire.ts
 * (the transport's shape); relayers' types are in ../relayers.ts. Import from here or from one area.
 */
export * from './activity';
export * from './app';
export * from './events';
export * from './messages';
export * from './methods';
export * from './settings';
export * from './wire';
