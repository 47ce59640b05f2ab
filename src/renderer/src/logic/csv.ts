import Papa from 'papaparse';
import type { TeleporterMessage } from '../../../shared/messages';
import { summarize } from './message-view';

const iso = (sec: number | undefined) => (sec === undefined ? '' : new Date(sec * 1000).toISOString());

/** The current page as CSV (one row per message, the columns an operator filters on in a spreadsheet). */
export function messagesToCsv(messages: readonly TeleporterMessage[]): string {
  const rows = messages.map((m) => {
    const s = summarize(m);
    return {
      messageId: s.messageId,
      status: s.status,
      sourceChain: s.sourceLabel,
      sourceBlockchainId: s.sourceBlockchainId ?? '',
      destinationChain: s.destinationLabel,
      destinationBlockchainId: s.destinationBlockchainId ?? '',
      from: s.from ?? '',
      to: s.to ?? '',
      messageNonce: s.nonce ?? '',
      sourceTxHash: s.sourceTxHash ?? '',
      sourceTime: iso(s.sourceTimestamp),
      destinationTxHash: s.destinationTxHash ?? '',
      destinationTime: iso(s.destinationTimestamp),
      latencySeconds: s.latencySeconds ?? '',
      reward: s.reward ? s.reward.amount : '',
      rewardSymbol: s.reward ? s.reward.symbol : '',
      receiptDelivered: s.receiptDelivered === undefined ? '' : String(s.receiptDelivered),
    };
  });
  return Papa.unparse(rows, { header: true, newline: '\n' });
}

/** Saves text as a file through a temporary object URL (works in Electron and the browser). */
export function downloadText(filename: string, text: string, mime = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
