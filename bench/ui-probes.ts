/**
 * Measurement probes injected into the page (plain JS: they run in Chromium, not in Node).
 * - window.__firstRowPaint: ms after navigation start when the first cache row was painted.
 * - window.__armKeystroke(): after it, window.__keystroke resolves to { t0, t1 } where t0 is the next
 *   keydown's timestamp and t1 the moment the search it started has been answered and painted (the
 *   cache view shows a spinner beside the count while a search is in flight), plus the search
 *   request's start and end from Resource Timing.
 */
export const PROBES_JS = `(() => {
  const afterPaint = (fn) => requestAnimationFrame(() => {
    // rAF runs before the frame is painted; a message task queued from it runs after.
    const ch = new MessageChannel();
    ch.port1.onmessage = () => fn();
    ch.port2.postMessage(null);
  });
  window.__firstRowPaint = null;
  const first = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="cache-row"]')) return;
    first.disconnect();
    afterPaint(() => { window.__firstRowPaint = performance.now(); });
  });
  first.observe(document, { subtree: true, childList: true });

  window.__armKeystroke = () => {
    const view = document.querySelector('[data-testid="view-cache"]');
    const meta = document.querySelector('[data-testid="cache-total"]').parentElement;
    let t0 = null;
    let sawLoading = false;
    window.__keystroke = new Promise((resolve) => {
      document.addEventListener('keydown', (e) => { t0 = e.timeStamp; }, { capture: true, once: true });
      const timer = setTimeout(() => { mo.disconnect(); resolve({ t0, t1: null }); }, 10000);
      const mo = new MutationObserver(() => {
        const loading = meta.childElementCount > 1;
        if (loading) sawLoading = true;
        else if (sawLoading) {
          mo.disconnect();
          clearTimeout(timer);
          afterPaint(() => {
            const t1 = performance.now();
            // The search request this key caused: where the time went (debounce, host + core, render).
            const req = performance.getEntriesByType('resource').filter((r) => r.name.includes('/searchCache') && r.startTime >= t0).pop();
            resolve({ t0, t1, requestStart: req ? req.startTime : null, responseEnd: req ? req.responseEnd : null, bytes: req ? req.encodedBodySize : null });
          });
        }
      });
      mo.observe(view, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  };
})();`;
