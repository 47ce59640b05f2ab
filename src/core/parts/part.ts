/**
 * The core is a list of parts, each owning one thing with a lifetime (a file, a child process, a
 * timer, a connection pool). `start()` runs in list order, `stop()` in reverse, so a part may use
 * every part listed before it for its whole life. A new part is one file here and one `parts.add`
 * line in create-core.ts; `names` lists them (docs/architecture.md, "The core's parts").
 */
export interface Part {
  /** The name the docs and the log use for it. */
  readonly name: string;
  /** Called by the core's start(), in list order; a rejection fails the start. */
  start?(): Promise<void> | void;
  /** Called by the core's close(), in reverse list order, whether or not it was started (created means owned). */
  stop?(): Promise<void> | void;
}

export class PartList {
  private readonly parts: Part[] = [];

  /** Appends a part and hands it back, so creating and listing it is one line. */
  add<P extends Part>(part: P): P {
    this.parts.push(part);
    return part;
  }

  get names(): string[] {
    return this.parts.map((p) => p.name);
  }

  async start(): Promise<void> {
    for (const p of this.parts) await p.start?.();
  }

  /** Stops every part, last first; one that fails does not keep the others open (the first failure is rethrown at the end). */
  async stop(): Promise<void> {
    const failures: unknown[] = [];
    for (const p of [...this.parts].reverse()) {
      try {
        await p.stop?.();
      } catch (e) {
        failures.push(e);
      }
    }
    if (failures.length) throw failures[0];
  }
}
