/**
 * A profiling aid for the UI benchmark (not a benchmark: it prints no target figure). Types the same
 * kind of keys into the cache filter as `npm run bench:ui`, under Chromium's tracing and the V8 CPU
 * profiler, and prints where the page's main thread spends the keystrokes: trace events by name and
 * JS self time by original source line (through the renderer's hidden source maps).
 *   BENCH_UI_MESSAGES=5000 npx tsx bench/ui-profile.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { PROBES_JS } from './ui-probes';
import { operatorQueries, startUiStack } from './ui-stack';

const MESSAGES = Number(process.env.BENCH_UI_MESSAGES ?? 5_000);

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { type?: string } };
}

const maps = new Map<string, SourceMapConsumer | null>();
function original(url: string, line: number, col: number): string {
  const file = basename(new URL(url, 'http://x/').pathname);
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMapConsumer(JSON.parse(readFileSync(join('out/renderer/assets', `${file}.map`), 'utf8')) as RawSourceMap));
    } catch {
      maps.set(file, null);
    }
  }
  const m = maps.get(file);
  const p = m?.originalPositionFor({ line: line + 1, column: col });
  if (!p?.source) return `${file}:${line + 1}:${col}`;
  return `${p.source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}:${p.line}${p.name ? ` ${p.name}` : ''}`;
}

function topSelfTime(profile: Profile, n: number): [string, number][] {
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const f = node.callFrame;
    const key = f.url ? original(f.url, f.lineNumber, f.columnNumber) : `(${f.functionName || 'native'})`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** Inclusive time per original function (each sample counted once per distinct function on its stack). */
function topTotalTime(profile: Profile, n: number): [string, number][] {
  const parent = new Map<number, number>();
  for (const x of profile.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      if (!f.url) continue;
      seen.add(original(f.url, f.lineNumber, f.columnNumber));
    }
    for (const k of seen) total.set(k, (total.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...total.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** Where time in functions matching `re` comes from: the stack above them, `depth` frames deep. */
function callers(profile: Profile, re: RegExp, depth: number): [string, number][] {
  const parent = new Map<number, number>();
  for (const x of profile.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const name = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return f.url ? original(f.url, f.lineNumber, f.columnNumber) : `(${f.functionName})`;
  };
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    let cur: number | undefined = id;
    while (cur !== undefined && !re.test(name(cur))) cur = parent.get(cur);
    if (cur === undefined) return;
    const chain: string[] = [];
    for (let up = parent.get(cur); up !== undefined && chain.length < depth; up = parent.get(up)) chain.push(name(up).replace(/^.*\//, ''));
    const key = chain.join(' < ');
    out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...out.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
}

function mainThread(events: TraceEvent[]): TraceEvent[] {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  return events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
}

function mainThreadTotals(events: TraceEvent[]): [string, number][] {
  const totals = new Map<string, number>();
  for (const e of events) totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur! / 1000);
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
}

/** The main thread's events from one keydown for `windowMs`, as an indented tree (events of 0.3 ms or more). */
function keyTimeline(events: TraceEvent[], keydownTs: number, windowMs: number): string[] {
  const out: string[] = [];
  const stack: TraceEvent[] = [];
  for (const e of events) {
    if (e.ts < keydownTs - 2000 || e.ts > keydownTs + windowMs * 1000) continue;
    if (process.env.DETAIL_SKIP && new RegExp(process.env.DETAIL_SKIP).test(e.name)) continue;
    while (stack.length && stack[stack.length - 1]!.ts + stack[stack.length - 1]!.dur! <= e.ts) stack.pop();
    if (e.dur! >= Number(process.env.DETAIL_MIN_US ?? 300) && stack.length < 9) {
      const type = e.args?.data?.type ? ` (${e.args.data.type})` : '';
      out.push(`${((e.ts - keydownTs) / 1000).toFixed(1).padStart(7)} ${'  '.repeat(stack.length)}${e.name}${type} ${(e.dur! / 1000).toFixed(1)}`);
    }
    stack.push(e);
  }
  return out;
}

async function main(): Promise<void> {
  const stack = await startUiStack('profile-ui', MESSAGES);
  const { service, app, browser } = stack;
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
    await context.addInitScript({ content: PROBES_JS });
    const p = await context.newPage();
    await p.goto(`${app.host.url}#/cache`);
    await p.getByTestId('cache-row').first().waitFor();
    const { queries, filter } = await operatorQueries(p, service);
    const cdp = await context.newCDPSession(p);
    // One instrument per run, so neither inflates what the other sees.
    const js = process.env.PROFILE_MODE === 'js';
    if (js) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    } else if (process.env.PROFILE_MODE !== 'none')
      await browser.startTracing(p, { categories: (process.env.TRACE_CATS ?? 'devtools.timeline,blink,v8').split(',') });
    const parts: string[] = [];
    const responseEnds: number[] = [];
    const key = async (k: string) => {
      await p.evaluate('window.__armKeystroke()');
      // HOLD_MS: release the key that long after pressing it (a person holds a key ~50-100 ms).
      if (process.env.HOLD_MS) {
        await p.keyboard.down(k);
        await p.waitForTimeout(Number(process.env.HOLD_MS));
        await p.keyboard.up(k);
      } else await p.keyboard.press(k);
      const r = await p.evaluate<{ t0: number; t1: number; requestStart: number; responseEnd: number }>('window.__keystroke');
      responseEnds.push(r.responseEnd - r.t0);
      parts.push(
        `${k.padEnd(9)} total ${(r.t1 - r.t0).toFixed(1)} = before ${(r.requestStart - r.t0).toFixed(1)} + request ${(r.responseEnd - r.requestStart).toFixed(1)} + after ${(r.t1 - r.responseEnd).toFixed(1)}`,
      );
      await p.waitForTimeout(120);
    };
    for (const q of queries) {
      for (const ch of q) await key(ch);
      await filter.selectText();
      await key('Backspace');
    }
    console.log(parts.join('\n'));
    const totals = parts.map((x) => Number(/total ([\d.]+)/.exec(x)?.[1])).sort((a, b) => a - b);
    console.log(`keystroke p50 ${totals[Math.ceil(totals.length / 2) - 1]} p95 ${totals[Math.ceil(0.95 * totals.length) - 1]} max ${totals.at(-1)}`);
    if (process.env.PROFILE_MODE === 'none') return;
    if (js) {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      console.log('\nJS self time (ms) by original source:');
      for (const [name, ms] of topSelfTime(profile, 45)) console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);
      console.log('\nJS inclusive time (ms) by original source:');
      for (const [name, ms] of topTotalTime(profile, 60)) console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);
      if (process.env.CALLERS) {
        console.log(`\ncallers of /${process.env.CALLERS}/ (ms):`);
        for (const [name, ms] of callers(profile, new RegExp(process.env.CALLERS), Number(process.env.CALLER_DEPTH ?? 4)))
          console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);
      }
      return;
    }
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify(trace));
    const events = mainThread(trace.traceEvents);
    console.log('\nmain-thread trace events (ms, summed, nested events counted in their parents too):');
    for (const [name, ms] of mainThreadTotals(events)) console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);
    const keydowns = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
    const gaps: [number, number][] = [];
    console.log('\nper key after the response (ms): body loaded → JS ran (its length) → frame began (its length)');
    keydowns.forEach((kd, i) => {
      const next = keydowns[i + 1]?.ts ?? Infinity;
      const after = (name: string, from: number) => events.find((e) => e.name === name && e.ts >= from && e.ts < next);
      const body = after('ResponseBodyLoader::DidFinishLoadingBody', kd.ts);
      if (!body) return;
      const js = after('RunMicrotasks', body.ts);
      const frame = js && after('WebFrameWidgetImpl::BeginMainFrame', js.ts + js.dur!);
      const life = frame && after('WebFrameWidgetImpl::UpdateLifecycle', frame.ts);
      const f = (x: number) => (x / 1000).toFixed(1).padStart(5);
      if (!js || !frame) return;
      gaps.push([i, body.ts - kd.ts - (responseEnds[i] ?? 0) * 1000]);
      console.log(
        `${String(i).padStart(3)} responseEnd@${f((responseEnds[i] ?? 0) * 1000)} body@${f(body.ts - kd.ts)}  wait ${f(js.ts - body.ts)} js ${f(js.dur!)}  wait ${f(frame.ts - js.ts - js.dur!)} frame ${f((life ? life.ts + life.dur! : frame.ts + frame.dur!) - frame.ts)}  end@${f((life ? life.ts + life.dur! : frame.ts + frame.dur!) - kd.ts)}`,
      );
    });
    const worst = gaps
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2)
      .map((g) => g[0]);
    for (const i of process.env.DETAIL_KEYS ? process.env.DETAIL_KEYS.split(',').map(Number) : worst) {
      const kd = keydowns[i];
      if (!kd) continue;
      console.log(`\nkey ${i}: ${parts[i]}`);
      console.log(keyTimeline(events, kd.ts, 90).join('\n'));
    }
  } finally {
    await stack.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
