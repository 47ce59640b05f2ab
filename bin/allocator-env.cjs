// The C allocator settings the `teleporter-watch` command runs the watcher with, on Linux with glibc.
// A watcher left running all day frees memory in many small pieces from several threads (V8's helper
// threads, libuv's pool, SQLite); glibc's defaults keep an arena per thread (up to 8 per core) and hold
// freed memory in each, so the RSS crept up about 6 MB over the first 10 hours of `npm run bench:day`
// although nothing was in use. One arena, and freed memory above 64 KiB given back, keep it flat
// (docs/benchmarks.md, bench:day). An operator's own MALLOC_* settings win: then nothing is added.
const ALLOCATOR_ENV = Object.freeze({
  MALLOC_ARENA_MAX: '1',
  MALLOC_TRIM_THRESHOLD_: '65536',
  MALLOC_MMAP_THRESHOLD_: '65536',
});

function onGlibc() {
  if (process.platform !== 'linux') return false;
  try {
    return Boolean(process.report.getReport().header.glibcVersionRuntime);
  } catch {
    return false;
  }
}

/** `env` with the settings added, or null when nothing is to be added (set already, or not glibc). */
function allocatorEnv(env, glibc = onGlibc) {
  if (Object.keys(env).some((k) => k.startsWith('MALLOC_')) || !glibc()) return null;
  return { ...env, ...ALLOCATOR_ENV };
}

module.exports = { ALLOCATOR_ENV, allocatorEnv };
