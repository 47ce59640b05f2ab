/**
 * IPC channel names of the Electron bridge, in a module with no imports: the sandboxed preload
 * bundles it and may require nothing but `electron` (main/ipc.ts and preload/transport.ts import them).
 */
export const IPC_INVOKE_CHANNEL = 'monitor:invoke';
export const IPC_EVENT_CHANNEL = 'monitor:event';
