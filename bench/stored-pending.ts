/** The records stored before the bench (the preload) still pending: each may become `stuck` without changing. */
export function* storedPending(store: {
  page(q: object, before: number | undefined, limit: number): { records: string[]; positions: number[]; hasMore: boolean };
}) {
  let before: number | undefined;
  for (;;) {
    const page = store.page({}, before, 500);
    for (const raw of page.records) {
      const r = JSON.parse(raw) as Record<string, unknown>;
      if (r.status === 'pending') yield r;
    }
    if (!page.hasMore || !page.positions.length) return;
    before = page.positions[page.positions.length - 1];
  }
}
