import type { TransitionKind } from '../../../shared/contract';

/** Routine changes in blue, deliveries in green; a stuck message or a reorg's undo is a warning: one colour per event in every view. */
export const TRANSITION_TONE: Record<TransitionKind, 'info' | 'success' | 'warning'> = {
  new: 'info',
  left_pending: 'success',
  receipt_delivered: 'success',
  stuck: 'warning',
  delivery_undone: 'warning',
  receipt_undone: 'warning',
};
