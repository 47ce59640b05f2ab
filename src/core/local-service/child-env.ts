/**
 * The environment the local service is started with: only what a Node process needs to run (where
 * it is, who it runs as, language and time zone, its temporary folder, Windows' system folders), never
 * the parent's whole environment. The parent's may hold the API key (`apiKey: { env: … }` in the
 * headless config) or any other secret, and the service needs none of them: an allow-list, so a
 * secret under a name nobody thought of stays out too.
 */
const PASSED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'NODE_ENV',
  // Windows: Node and its libuv need these to find the system and the user's folders.
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
]);

const passed = (name: string): boolean => {
  const upper = name.toUpperCase(); // Windows names are case-insensitive
  return PASSED.has(upper) || upper.startsWith('LC_');
};

/** The parent's allowed variables, then the spawn spec's own (e.g. ELECTRON_RUN_AS_NODE). */
export function serviceChildEnv(parent: NodeJS.ProcessEnv, own: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) if (value !== undefined && passed(name)) env[name] = value;
  return { ...env, ...own };
}
