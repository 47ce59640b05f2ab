/**
 * The one door to SQLite for the core's and the local service's stores: Node's built-in `node:sqlite`
 * (Node 22.13+, which Electron 39 ships), so nothing ABI-specific loads in Electron's processes.
 * The API follows what the stores used before (prepare → get/all/run/iterate, pluck, transaction,
 * pragma) so store code reads the same. Plain Node; imports nothing of ours.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

type Sqlite = typeof import('node:sqlite');
/** Positional parameters, or one object of named ones (`@name` in the SQL) first. */
type Params<P> = P extends unknown[] ? P : [P];

interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

let loaded: Sqlite | undefined;

/**
 * Loads `node:sqlite`, dropping only its "SQLite is an experimental feature" warning (printed on every
 * start, to every user, it says nothing they can act on); every other warning still goes through.
 */
export function loadSqlite(): Sqlite {
  if (loaded) return loaded;
  // Kept unbound to be put back as it was; it is called with process as `this` below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/^SQLite is an experimental feature/.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  };
  try {
    loaded = process.getBuiltinModule?.('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
  if (!loaded?.DatabaseSync) {
    throw new Error(`This runtime has no node:sqlite (Node ${process.versions.node}): Teleporter Watch needs Node 22.13 or newer.`);
  }
  return loaded;
}

/** better-sqlite3 bound `undefined` as NULL; node:sqlite refuses it. Copies only when one is present. */
function bindable(params: unknown[]): unknown[] {
  let out = params;
  for (let i = 0; i < params.length; i++) {
    const v = params[i];
    if (v === undefined) {
      if (out === params) out = [...params];
      out[i] = null;
    } else if (i === 0 && typeof v === 'object' && v !== null && !ArrayBuffer.isView(v)) {
      const named = v as Record<string, unknown>;
      for (const k in named) {
        if (named[k] === undefined) {
          if (out === params) out = [...params];
          out[0] = Object.fromEntries(Object.entries(named).map(([key, x]) => [key, x === undefined ? null : x]));
          break;
        }
      }
    }
  }
  return out;
}

/**
 * A prepared statement. `pluck()` makes get/all/iterate return the first column's value.
 * Rows come back as plain objects built from node:sqlite's arrays: its own row objects have a null
 * prototype and slow (dictionary) properties, several times larger, and the core's peak memory grew
 * by tens of MB with them; built in column order, every row of a statement shares one shape.
 */
export class Statement<P extends unknown[] | object = unknown[], R = unknown> {
  private plucked = false;
  private names: string[] | null = null;

  constructor(private readonly raw: StatementSync) {
    // Named parameters are given as whole row objects; keys the SQL does not use are ignored.
    raw.setAllowUnknownNamedParameters(true);
    raw.setReturnArrays(true);
  }

  get source(): string {
    return this.raw.sourceSQL;
  }

  pluck(on = true): this {
    this.plucked = on;
    return this;
  }

  get(...params: Params<P>): R | undefined {
    const row = (this.raw.get as unknown as (...a: unknown[]) => unknown[] | undefined)(...bindable(params));
    return row === undefined ? undefined : this.shape(row);
  }

  all(...params: Params<P>): R[] {
    const rows = (this.raw.all as unknown as (...a: unknown[]) => unknown[][])(...bindable(params));
    const out = new Array<R>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = this.shape(rows[i] as unknown[]);
    return out;
  }

  *iterate(...params: Params<P>): IterableIterator<R> {
    const rows = (this.raw.iterate as unknown as (...a: unknown[]) => Iterable<unknown[]>)(...bindable(params));
    for (const r of rows) yield this.shape(r);
  }

  run(...params: Params<P>): RunResult {
    return (this.raw.run as (...a: unknown[]) => RunResult)(...bindable(params));
  }

  private shape(values: unknown[]): R {
    if (this.plucked) return values[0] as R;
    const names = (this.names ??= this.raw.columns().map((c) => c.name));
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    return row as R;
  }
}

interface OpenOptions {
  readOnly?: boolean;
}

/** One SQLite connection. */
export class Database {
  private readonly raw: DatabaseSync;
  private savepoints = 0;

  constructor(
    readonly path: string,
    options: OpenOptions = {},
  ) {
    const { DatabaseSync } = loadSqlite();
    this.raw = new DatabaseSync(path, { readOnly: options.readOnly ?? false });
  }

  get open(): boolean {
    return this.raw.isOpen;
  }

  get inTransaction(): boolean {
    return this.raw.isTransaction;
  }

  prepare<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R> {
    return new Statement<P, R>(this.raw.prepare(sql));
  }

  exec(sql: string): this {
    this.raw.exec(sql);
    return this;
  }

  /** `pragma('journal_mode = WAL')` → its rows; with `{ simple: true }` the first value only. */
  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const st = this.prepare(`PRAGMA ${source}`);
    return options.simple ? st.pluck().get() : st.all();
  }

  /**
   * Wraps `fn` so each call runs in one transaction (a savepoint when one is already open): committed
   * when it returns, rolled back when it throws.
   */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    return (...args: A): T => {
      const nested = this.raw.isTransaction;
      const name = `tw_sp_${++this.savepoints}`;
      this.raw.exec(nested ? `SAVEPOINT ${name}` : 'BEGIN');
      try {
        const result = fn(...args);
        if (result instanceof Promise) throw new TypeError('A transaction function must not be async (it would commit before its work ends).');
        this.raw.exec(nested ? `RELEASE ${name}` : 'COMMIT');
        return result;
      } catch (e) {
        if (this.raw.isTransaction) this.raw.exec(nested ? `ROLLBACK TO ${name}; RELEASE ${name}` : 'ROLLBACK');
        throw e;
      } finally {
        this.savepoints--;
      }
    };
  }

  close(): void {
    this.raw.close();
  }
}
