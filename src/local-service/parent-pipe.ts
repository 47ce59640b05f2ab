/**
 * A child that must not outlive its parent watches a pipe from it: the kernel closes the parent's
 * end whenever the parent dies, by exit, crash or kill -9, so the child hears it at once (no PID poll,
 * no orphan re-parented to PID 1).
 */
import type { Readable } from 'node:stream';

export function watchParentPipe(stdin: Readable, onClosed: () => void): void {
  let fired = false;
  const fire = () => {
    if (fired) return;
    fired = true;
    onClosed();
  };
  stdin.on('data', () => undefined); // the parent sends nothing; reading is what notices the end
  stdin.once('end', fire);
  stdin.once('close', fire);
  stdin.once('error', fire);
  stdin.resume();
}
