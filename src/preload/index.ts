/**
 * The preload exposes exactly one thing to the page: the MonitorTransport as `window.monitor`.
 * Calls go to the single IPC channel (main checks the sender and the core validates the input);
 * events arrive without Electron's event object, so the page never holds an IPC handle.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createIpcTransport } from './transport';

contextBridge.exposeInMainWorld('monitor', createIpcTransport(ipcRenderer));
