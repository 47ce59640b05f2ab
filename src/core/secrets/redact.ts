/**
 * The one redaction mechanism of the core: every secret it holds (the API key, a key being tested) is
 * registered here, and everything that leaves the core (call answers, events, log lines) passes
 * through `value`/`text`. A hostile upstream that echoes the key in an error body therefore cannot
 * carry it to the UI, a WebSocket frame or the log file.
 */
export const REDACTED = '[redacted]';

/** Shorter strings are not treated as secrets (redacting "a" everywhere would garble every message). */
const MIN_SECRET_LENGTH = 8;

export interface Redactor {
  add(secret: string): void;
  remove(secret: string): void;
  /** The text with every known secret (and its URL-encoded form) replaced by REDACTED. */
  text(s: string): string;
  /** A copy of a JSON-like value with every string redacted; the same object when nothing changed. */
  value<T>(v: T): T;
}

export function createRedactor(): Redactor {
  const secrets = new Set<string>();
  /** The forms a secret may take in echoed text, longest first. */
  let forms: string[] = [];
  const rebuild = () => {
    const all = new Set<string>();
    for (const s of secrets) {
      all.add(s);
      all.add(encodeURIComponent(s));
      all.add(JSON.stringify(s).slice(1, -1));
    }
    forms = [...all].sort((a, b) => b.length - a.length);
  };

  const text = (s: string): string => {
    let out = s;
    for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
    return out;
  };

  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object' || depth > 32) return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | null = null;
      v.forEach((item, i) => {
        const r = walk(item, depth + 1);
        if (r !== item) (copy ??= [...(v as unknown[])])[i] = r;
      });
      return copy ?? v;
    }
    if (v instanceof Error) return Object.assign(new Error(text(v.message)), { name: v.name, stack: v.stack === undefined ? undefined : text(v.stack) });
    let copy: Record<string, unknown> | null = null;
    for (const [k, item] of Object.entries(v)) {
      const r = walk(item, depth + 1);
      if (r !== item) (copy ??= { ...(v as Record<string, unknown>) })[k] = r;
    }
    return copy ?? v;
  };

  return {
    add(secret) {
      if (secret.length < MIN_SECRET_LENGTH || secrets.has(secret)) return;
      secrets.add(secret);
      rebuild();
    },
    remove(secret) {
      if (secrets.delete(secret)) rebuild();
    },
    text: (s) => (forms.length ? text(s) : s),
    value: <T>(v: T): T => (forms.length ? (walk(v, 0) as T) : v),
  };
}
