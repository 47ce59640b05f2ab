import { describe, expect, it } from 'vitest';
import { visibleText } from '../../src/shared/visible-text';

describe('visibleText', () => {
  it('shows CR, LF, other C0 and C1 controls, DEL, bidi overrides and isolates, marks and invisible format characters as <U+XXXX>', () => {
    expect(visibleText('ok\r\nteleporter-watch: forged')).toBe('ok<U+000D><U+000A>teleporter-watch: forged');
    expect(visibleText('evil\u202Egnp.exe')).toBe('evil<U+202E>gnp.exe');
    const hidden = [
      '\u0000',
      '\u0007',
      '\u0008',
      '\t',
      '\u000B',
      '\u000C',
      '\u001B',
      '\u007F',
      '\u0085',
      '\u009B',
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
      '\u200B',
      '\u2060',
      '\uFEFF',
      '\u00AD',
      '\u2028',
      '\u2029',
      '\u{E0041}',
      '\uD800',
    ];
    for (const c of hidden) {
      const shown = visibleText(`a${c}b`);
      expect(shown, JSON.stringify(c)).toBe(`a<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>b`);
    }
    // An ANSI escape cannot drive the terminal: its ESC is shown.
    expect(visibleText('\u001b[2J\u001b[31mred')).toBe('<U+001B>[2J<U+001B>[31mred');
  });

  it('keeps LF where a text has lines (multiLine), never CR', () => {
    expect(visibleText('line one\nline two\r\n', { multiLine: true })).toBe('line one\nline two<U+000D>\n');
  });

  it('leaves names in every script as they are: accents, CJK, right-to-left letters, emoji with joiners and variation selectors', () => {
    for (const name of ['Beam', 'C-Chain → Beam', 'Ça marche, Ünïcödé', '東京チェーン', 'דיספאץ׳', 'شبكة', 'می‌خواهم', '👩‍💻 ❤️', 'Ω≈ç√∫', 'x'.repeat(80)]) {
      expect(visibleText(name)).toBe(name);
    }
  });

  it('passes its own output unchanged (a second pass adds nothing)', () => {
    const once = visibleText('a\r\n\u202E\u0000b');
    expect(visibleText(once)).toBe(once);
  });
});
