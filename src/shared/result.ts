/** A validation outcome: either the normalised value or a message a person can act on. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const fail = <T = never>(error: string): Parsed<T> => ({ ok: false, error });
