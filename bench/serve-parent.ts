/**
 * A bench child's side of the IPC: each message from the parent handled in turn; an error goes back to
 * the parent (which fails the run) instead of ending the child silently. Says `alive` once listening.
 */
export function serveParent<M>(handle: (m: M) => Promise<void>): void {
  const send = (m: unknown) => process.send?.(m);
  const onMessage = (m: M) =>
    handle(m).catch((e: unknown) => {
      send({ type: 'error', message: e instanceof Error ? e.stack : String(e) });
    });
  // onMessage reports its own errors to the parent: nothing to await.
  process.on('message', (m: M) => void onMessage(m));
  send({ type: 'alive' });
}
