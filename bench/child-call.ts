import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** Sends `msg` to a benchmark child and resolves with its first reply of type `expect` (rejects on its `error`). */
export function childCall(child: ChildProcess, msg: object, expect: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const on = (m: Record<string, unknown>) => {
      if (m.type === 'error') {
        child.off('message', on);
        reject(new Error(String(m.message)));
      } else if (m.type === expect) {
        child.off('message', on);
        resolve(m);
      }
    };
    child.on('message', on);
    child.send(msg);
  });
}

/**
 * A bench child's `init` (bench-core.ts's ChildInit): the service's URL, the core's data folder (`core`
 * under `work`) and the parent's time, with the child's own fields; resolves on its `ready`.
 */
export function initChild(child: ChildProcess, url: string, work: string, now: number, fields: object): Promise<Record<string, unknown>> {
  return childCall(child, { type: 'init', url, dataDir: join(work, 'core'), now, ...fields }, 'ready');
}
