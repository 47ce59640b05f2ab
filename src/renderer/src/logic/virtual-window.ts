/** Which rows of a fixed-height list to render for a scroll position: the visible ones plus `overscan` either side. */
export function virtualWindow(opts: { count: number; itemHeight: number; scrollTop: number; viewportHeight: number; overscan: number }): {
  start: number;
  end: number;
} {
  const { count, itemHeight, scrollTop, viewportHeight, overscan } = opts;
  if (count <= 0 || itemHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / itemHeight);
  const visible = Math.ceil(Math.max(0, viewportHeight) / itemHeight) + 1;
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, first + visible + overscan);
  return { start, end };
}

/** The scrollTop that brings row `index` fully into view, moving as little as possible (null: already in view). */
export function scrollTopToReveal(opts: { index: number; itemHeight: number; scrollTop: number; viewportHeight: number }): number | null {
  const { index, itemHeight, scrollTop, viewportHeight } = opts;
  const top = index * itemHeight;
  if (top < scrollTop) return top;
  if (top + itemHeight > scrollTop + viewportHeight) return Math.max(0, top + itemHeight - viewportHeight);
  return null;
}
