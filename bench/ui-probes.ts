/**
 * Measurement probes injected into the page (plain JS: they run in Chromium, not in Node).
 * - window.__firstRowPaint: ms after navigation start when the first cache row was painted.
 * - window.__armKeystroke(): after it, window.__keystroke resolves to { t0, t1 } where t0 is the next
 *   keydown's timestamp and t1 the moment the search it started has been answered and painted (the
 *   cache view marks its count aria-busy while a search is in flight), plus when the search
 *   call was sent and its answer arrived: from the page's socket (calls go over it once it is open;
 *   the probe listens on every socket the page opens, ahead of the app's own handler) or, for a call
 *   over HTTP, from Resource Timing.
 */
export const PROBES_JS = `(() => {
  const afterPaint = (fn) => requestAnimationFrame(() => {
    // rAF runs before the frame is painted; a message task queued from it runs after.
    const ch = new MessageChannel();
    ch.port1.onmessage = () => fn();
    ch.port2.postMessage(null);
  });
  // searchCache calls over the socket: when each was sent and when its reply arrived (and its size).
  const socketCalls = [];
  const PageSocket = window.WebSocket;
  window.WebSocket = class extends PageSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        const at = performance.now();
        if (typeof e.data !== 'string' || !e.data.startsWith('{"reply":')) return;
        const id = Number(/^{"reply":(\\d+)/.exec(e.data)[1]);
        const c = socketCalls.find((x) => x.id === id);
        if (c) { c.end = at; c.bytes = e.data.length; }
      });
    }
    send(data) {
      const m = typeof data === 'string' && /^{"call":(\\d+),"method":"searchCache"/.exec(data);
      if (m) socketCalls.push({ id: Number(m[1]), start: performance.now(), end: null, bytes: null });
      super.send(data);
    }
  };
  const searchCall = (t0) => {
    const c = socketCalls.filter((x) => x.start >= t0 && x.end !== null).pop();
    if (c) return { requestStart: c.start, responseEnd: c.end, bytes: c.bytes };
    const req = performance.getEntriesByType('resource').filter((r) => r.name.includes('/searchCache') && r.startTime >= t0).pop();
    return req ? { requestStart: req.startTime, responseEnd: req.responseEnd, bytes: req.encodedBodySize } : { requestStart: null, responseEnd: null, bytes: null };
  };

  window.__firstRowPaint = null;
  const first = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="cache-row"]')) return;
    first.disconnect();
    afterPaint(() => { window.__firstRowPaint = performance.now(); });
  });
  first.observe(document, { subtree: true, childList: true });

  window.__armKeystroke = () => {
    const view = document.querySelector('[data-testid="view-cache"]');
    const meta = document.querySelector('[data-testid="cache-meta"]');
    let t0 = null;
    let sawLoading = false;
    window.__keystroke = new Promise((resolve) => {
      document.addEventListener('keydown', (e) => { t0 = e.timeStamp; }, { capture: true, once: true });
      const timer = setTimeout(() => { mo.disconnect(); resolve({ t0, t1: null }); }, 10000);
      const mo = new MutationObserver(() => {
        const loading = meta.getAttribute('aria-busy') === 'true';
        if (loading) sawLoading = true;
        else if (sawLoading) {
          mo.disconnect();
          clearTimeout(timer);
          afterPaint(() => {
            const t1 = performance.now();
            // The search call this key caused: where the time went (before sending, host + core, render).
            resolve({ t0, t1, ...searchCall(t0) });
          });
        }
      });
      mo.observe(view, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  };
})();`;
