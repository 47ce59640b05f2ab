/** The core's redactor: every form of a secret, inside any JSON-like value, without copying clean values. */
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/core/secrets/redact';

describe('redactor', () => {
  it('replaces a secret raw, URL-encoded and JSON-escaped, deep inside values and errors', () => {
    const r = createRedactor();
    const key = 'k3y/with+odd"chars';
    r.add(key);
    const v = { a: [`x ${key} y`, 1, null], b: { c: encodeURIComponent(key), d: JSON.stringify({ key }) }, e: new Error(`bad ${key}`) };
    const out = r.value(v);
    const text = JSON.stringify(out) + out.e.message;
    expect(text).not.toContain(key);
    expect(text).not.toContain(encodeURIComponent(key));
    expect(out.a[0]).toBe(`x ${REDACTED} y`);
    expect(out.b.c).toBe(REDACTED);
    expect(v.a[0]).toBe(`x ${key} y`); // the input is never changed
  });

  it('returns clean values as they are, and ignores strings too short to be secrets', () => {
    const r = createRedactor();
    const clean = { a: ['nothing here'], b: { c: 1 } };
    expect(r.value(clean)).toBe(clean);
    r.add('abc');
    expect(r.text('abc abc')).toBe('abc abc');
    r.add('long-enough-secret');
    expect(r.value(clean)).toBe(clean);
    expect(r.text('x long-enough-secret')).toBe(`x ${REDACTED}`);
  });
});
