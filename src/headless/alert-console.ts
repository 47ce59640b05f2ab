/**
 * The headless watcher has no Activity view: each alert episode's fire and resolve is one console line,
 * in the same words as Activity and core.log ("alert fired: Route backlog: c-beam — The oldest pending …").
 */
import type { AlertEntry } from '../shared/contract';
import { alertPhaseWord, alertSentence } from '../shared/vocabulary';

export const alertConsoleLine = (e: AlertEntry): string => `alert ${alertPhaseWord(e)}: ${alertSentence(e)}`;
