/** Rows per cache search: about one screen (≈ 20 visible) plus a screen of scroll room; more load on scroll. */
export const CACHE_PAGE = 40;
