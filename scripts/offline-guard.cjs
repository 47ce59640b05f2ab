// Preloaded with `node --require` into tools that try to reach the internet (electronegativity
// fetches translations and Electron's release list). No test or script of this project may send
// traffic beyond 127.0.0.1, so every name lookup and connection to another host fails at once,
// before a packet leaves (code EOFFLINE, which HTTP clients do not retry).
'use strict';
const dns = require('node:dns');
const net = require('node:net');

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
const refuse = (host) =>
  Object.assign(new Error(`offline-guard: refused to reach ${host} (this script stays on 127.0.0.1)`), { code: 'EOFFLINE', hostname: host });

const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  if (!LOOPBACK.has(hostname)) return process.nextTick(() => cb(refuse(hostname)));
  return lookup.call(this, hostname, options, callback);
};
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = (hostname, options) => (LOOPBACK.has(hostname) ? promisesLookup(hostname, options) : Promise.reject(refuse(hostname)));

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const opts = typeof args[0] === 'object' && args[0] !== null ? (Array.isArray(args[0]) ? args[0][0] : args[0]) : { port: args[0], host: args[1] };
  const host = opts && (opts.host ?? (opts.path ? 'localhost' : 'localhost'));
  if (opts && !opts.path && host && !LOOPBACK.has(host) && net.isIP(host)) {
    process.nextTick(() => this.destroy(refuse(host)));
    return this;
  }
  return connect.apply(this, args);
};
