import type { ChildProcess } from 'node:child_process';

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
