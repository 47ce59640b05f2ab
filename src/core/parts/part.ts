/**
 * The core is a list of parts, composed in one file (create-core.ts). Each part is made by a factory
 * that receives only the parts listed before it, as a typed object: using a later part does not
 * compile, and at run time the object holds nothing else. `start()` runs in list order, `stop()` in
 * reverse, so a part may use every part it receives for its whole life. A part may own something with
 * a lifetime (a file, a child process, a timer, a connection pool) and may contribute work that runs
 * after each poll cycle (`afterCycle`, run in the order create-core.ts lists: parts/after-cycle.ts).
 */
export interface Part {
  /** The name the docs and the log use for it: its key in the list, in kebab case (`dataSources` is `data-sources`). */
  readonly name: string;
  /** Called by the core's start(), in list order; a rejection fails the start (and stops every part). */
  start?(): Promise<void> | void;
  /** Called by the core's close(), in reverse list order, whether or not it was started (created means owned). */
  stop?(): Promise<void> | void;
  /** Work after each poll cycle, in the after-cycle order of create-core.ts; a failure is logged and the next still runs. */
  afterCycle?(): Promise<void> | void;
}

/** A part's name from its key in the list: `relayerAlerts` is `relayer-alerts`. */
export const partName = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

interface Step {
  key: string;
  make: (before: object) => Part;
}

/**
 * The list being written: `add(key, (before) => part)` appends a part whose factory gets the parts
 * added so far (`before`, typed exactly so), `build()` makes them in order. Nothing is made until
 * `build()`, so one list is one expression.
 */
export class PartsBuilder<B extends object = object> {
  private constructor(private readonly steps: readonly Step[]) {}

  static begin(): PartsBuilder {
    return new PartsBuilder([]);
  }

  add<K extends string, P extends Part>(key: K, make: (before: Readonly<B>) => P): PartsBuilder<B & { readonly [k in K]: P }> {
    if (this.steps.some((s) => s.key === key)) throw new Error(`The part "${key}" is listed twice.`);
    return new PartsBuilder([...this.steps, { key, make: make as (before: object) => Part }]);
  }

  /**
   * Makes every part in list order. A factory that throws stops the parts made before it, last first,
   * and its error is rethrown: nothing a failed creation opened is left open.
   */
  async build(): Promise<PartList<B>> {
    const made: Record<string, Part> = {};
    const list: Part[] = [];
    for (const { key, make } of this.steps) {
      let part: Part;
      try {
        // A snapshot: a factory (or a callback it keeps) never reaches a part listed after it.
        part = make(Object.freeze({ ...made }));
        if (part.name !== partName(key)) throw new Error(`The part listed as "${key}" is named "${part.name}" (expected "${partName(key)}").`);
      } catch (e) {
        await stopAll(list).catch(() => undefined);
        throw e;
      }
      made[key] = part;
      list.push(part);
    }
    return new PartList(Object.freeze(made) as Readonly<B>, list);
  }
}

/** Stops parts last first; one that fails does not keep the others open (the first failure is rethrown at the end). */
async function stopAll(parts: readonly Part[]): Promise<void> {
  const failures: unknown[] = [];
  for (const p of [...parts].reverse()) {
    try {
      await p.stop?.();
    } catch (e) {
      failures.push(e);
    }
  }
  if (failures.length) throw failures[0];
}

/** The core's parts, made: `parts` by key, started in list order and stopped in reverse, each once. */
class PartList<B extends object = object> {
  private stopping: Promise<void> | null = null;

  constructor(
    readonly parts: Readonly<B>,
    private readonly list: readonly Part[],
  ) {}

  get names(): string[] {
    return this.list.map((p) => p.name);
  }

  /**
   * Starts the parts in list order. When one fails, every part is stopped, last first (those started
   * release what they hold; the rest were created, so they are owned too), and its error is rethrown;
   * a later stop() does nothing more. Once stop() was called, no further part starts.
   */
  async start(): Promise<void> {
    try {
      for (const p of this.list) {
        // A close during the start wins (a quit while the demo service starts): what has not started yet
        // never starts, so nothing is left running behind the stop (a poll timer, a child process).
        if (this.stopping) return;
        await p.start?.();
      }
    } catch (e) {
      await this.stop().catch(() => undefined);
      throw e;
    }
  }

  /** Stops every part, last first, once (a second call waits for the first). */
  stop(): Promise<void> {
    return (this.stopping ??= stopAll(this.list));
  }
}
