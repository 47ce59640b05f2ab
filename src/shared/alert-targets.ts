/**
 * Where alerts may not go unless explicitly allowed: link-local addresses and the cloud metadata
 * services that answer there (169.254.169.254 hands out a cloud machine's credentials to whoever on
 * it asks). An alert URL is refused when it names one, in any spelling `URL` accepts (2852039166,
 * 0xa9fea9fe, [::ffff:169.254.169.254]…, all normalised by the URL parser first), and at send time when
 * its name resolves to one (src/core/alerts/target-lookup.ts). Loopback and private ranges stay
 * allowed: a local Alertmanager is the usual receiver. Pure: runs in the renderer too.
 */

/** Names cloud providers resolve to their metadata service. */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.packet.net',
]);

/** Metadata services outside the link-local range (Alibaba Cloud's). */
const METADATA_V4 = new Set(['100.100.100.200']);

const LINK_LOCAL = 'a link-local address, where cloud metadata services answer';
const METADATA = 'a cloud metadata service';

function parseV4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

function v4Refusal(b: number[]): string | null {
  if (b[0] === 169 && b[1] === 254) return LINK_LOCAL;
  if (METADATA_V4.has(b.join('.'))) return METADATA;
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a zone `%eth0` and a dotted IPv4 tail allowed), or null. */
function parseV6(s: string): number[] | null {
  let text = s.replace(/%.*$/, '');
  let tail: number[] = [];
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseV4(dotted[1] as string);
    if (!v4) return null;
    tail = [((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number)];
    text = text.slice(0, text.length - (dotted[1] as string).length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0] ?? '');
  const rest = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const fill = new Array<number>(8 - known).fill(0);
  return [...head.map((g) => parseInt(g, 16)), ...fill, ...rest.map((g) => parseInt(g, 16)), ...tail];
}

function v6Refusal(g: number[]): string | null {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, hi = 0, lo = 0] = g;
  if ((a & 0xffc0) === 0xfe80) return LINK_LOCAL;
  // AWS's instance metadata service over IPv6 (fd00:ec2::254) and its neighbours.
  if (a === 0xfd00 && b === 0x0ec2) return METADATA;
  const embedded = [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
  const zeroHead = a === 0 && b === 0 && c === 0 && d === 0 && e === 0;
  // An IPv4 address written inside IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) or NAT64 (64:ff9b::a.b.c.d).
  if ((zeroHead && (f === 0xffff || f === 0)) || (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0)) return v4Refusal(embedded);
  return null;
}

/**
 * Why a host may not receive alerts (a phrase: "a link-local address, …"), or null when it may. `host`
 * is a URL's hostname (IPv6 in brackets) or an address as a resolver returns it.
 */
export function refusedHost(host: string): string | null {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '');
  if (METADATA_NAMES.has(h)) return METADATA;
  const v4 = parseV4(h);
  if (v4) return v4Refusal(v4);
  const v6 = h.includes(':') ? parseV6(h) : null;
  return v6 ? v6Refusal(v6) : null;
}

/** How a refused target is allowed, in the words of where the channel was written. */
export type AllowHow = 'settings' | 'config';
const ALLOW_HOW: Record<AllowHow, string> = {
  settings: 'tick "Allow link-local and metadata addresses" under Settings → Alert channels',
  config: 'set alerts.allowLinkLocal: true in the config file',
};

/** The sentence a refused target is reported with: `subject` ("Webhook url points at 169.254.169.254"), why, and how to allow it. */
export function refusedTargetMessage(subject: string, why: string, how: AllowHow): string {
  return `${subject}, ${why}: refused, as such addresses can hand out a cloud machine's credentials. To send there anyway, ${ALLOW_HOW[how]}.`;
}

/** The refusal of an alert URL (see refusedTargetMessage), or null when it may receive alerts; an unparsable URL is the schema's to report. */
export function refusedAlertUrl(url: string, what: string, how: AllowHow): string | null {
  const host = hostOf(url);
  if (host === null) return null;
  const why = refusedHost(host);
  return why ? refusedTargetMessage(`${what} points at ${host}`, why, how) : null;
}

/** A URL's host name, or null when it does not parse. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}
