import { visibleText } from '../../shared/visible-text';

const LABEL_VALUE = /="((?:[^"\\]|\\.)*)"/g;
const UNESCAPE: Record<string, string> = { '\\\\': '\\', '\\"': '"', '\\n': '\n' };
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]|\\n/u;

/**
 * The exposition with every label value's hidden characters shown (src/shared/visible-text.ts). A
 * label value can be a watch label or a chain's name; prom-client escapes its `\`, `"` and LF but
 * passes CR and bidi controls raw. Each value is read back from the format's escapes, shown, and
 * written again, so an LF is `<U+000A>` too and the text stays valid for Prometheus.
 */
export function visibleLabelValues(exposition: string): string {
  if (!HIDDEN.test(exposition)) return exposition;
  return exposition
    .split('\n')
    .map((line) =>
      line.startsWith('#')
        ? line
        : line.replace(LABEL_VALUE, (whole, value: string) => {
            const raw = value.replace(/\\[\\"n]/g, (e) => UNESCAPE[e] ?? e);
            const shown = visibleText(raw);
            return shown === raw ? whole : `="${shown.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
          }),
    )
    .join('\n');
}
