/** Formats a token amount given in smallest units with `decimals`, without floating-point loss. */
export function formatTokenAmount(value: string, decimals: number, maxFractionDigits = 6): string {
  if (!/^\d+$/.test(value)) return value;
  const digits = value.replace(/^0+(?=\d)/, '');
  const d = Math.max(0, Math.floor(decimals));
  const padded = digits.padStart(d + 1, '0');
  const whole = padded.slice(0, padded.length - d) || '0';
  const frac = padded
    .slice(padded.length - d)
    .slice(0, maxFractionDigits)
    .replace(/0+$/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${grouped}.${frac}` : grouped;
}

/** Value of a token amount at its price (in the price's own currency), or null when no price is known. */
export function tokenPriceValue(value: string, decimals: number, price: string | number | undefined): number | null {
  if (price === undefined || !/^\d+$/.test(value)) return null;
  const p = typeof price === 'number' ? price : Number(price);
  if (!Number.isFinite(p)) return null;
  const amount = Number(value) / 10 ** decimals;
  return amount * p;
}

/** An amount in its own currency (the API's ISO 4217 code, e.g. usd, eur, jpy); an unknown code is shown as is. */
export function formatMoney(n: number | null, currencyCode: string): string {
  if (n === null) return '—';
  const code = currencyCode.toUpperCase();
  try {
    return n.toLocaleString('en-US', { style: 'currency', currency: code, maximumFractionDigits: n < 1 ? 4 : 2 });
  } catch {
    return `${n.toLocaleString('en-US', { maximumFractionDigits: n < 1 ? 4 : 2 })} ${code}`;
  }
}

/** "3 s", "4 min 10 s", "2 h 5 min", "3 d 4 h". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** A moment as the clock on the wall shows it, local time on 24 hours: "14:02". */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** "just now", "5 min ago", "in 2 h" relative to `now` (both epoch ms). */
export function formatRelative(atMs: number, nowMs: number): string {
  const diff = (atMs - nowMs) / 1000;
  if (Math.abs(diff) < 5) return 'just now';
  const text = formatDuration(Math.abs(diff));
  return diff < 0 ? `${text} ago` : `in ${text}`;
}

/** An address, ID or hash shortened to its head and tail, `0x1234…abcd` (the one shortening everywhere; short values kept whole). */
export const shortHex = (s: string, head = 6, tail = 4): string => (s.length > head + tail + 1 ? `${s.slice(0, head)}…${s.slice(-tail)}` : s);

/** Decodes a hex payload as UTF-8 when it is printable text; null otherwise. */
export function hexToPrintableUtf8(data: string | undefined): string | null {
  if (!data) return null;
  const h = data.replace(/^0x/, '');
  if (h.length === 0 || h.length % 2 || !/^[0-9a-fA-F]+$/.test(h)) return null;
  const bytes = new Uint8Array(h.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return /^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$/.test(text) ? text : null;
}
