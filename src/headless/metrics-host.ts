/**
 * Which Host headers /metrics answers: a DNS-rebinding page (a name of the attacker's resolving to
 * 127.0.0.1) sends its own name, so only names that really mean this machine pass: the loopback
 * names, the configured listen host, and, when it listens on every interface, this machine's name and
 * interface addresses. The port must be the one it listens on.
 */
import { hostname, networkInterfaces } from 'node:os';

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];
const WILDCARD = ['0.0.0.0', '::', ''];

const bare = (name: string): string =>
  name
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/** The Host header split into a name (brackets of IPv6 removed) and a port; null when malformed. */
export function splitHost(header: string): { name: string; port: number | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!m) return null;
  return { name: bare(m[1] as string), port: m[2] === undefined ? null : Number(m[2]) };
}

/** Names this machine answers to when it listens on every interface. */
function machineNames(): string[] {
  const names = [hostname()];
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.push(a.address);
  return names;
}

export function metricsHostMatcher(listenHost: string, port: number): (header: string | undefined) => boolean {
  const listen = bare(listenHost);
  const allowed = new Set([...LOOPBACK, listen, ...(WILDCARD.includes(listen) ? machineNames() : [])].map(bare));
  return (header) => {
    const h = header === undefined ? null : splitHost(header);
    return h !== null && allowed.has(h.name) && (h.port === null ? port === 80 : h.port === port);
  };
}
