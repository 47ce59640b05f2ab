import Papa from 'papaparse';
import type { TeleporterMessage } from '../../../shared/messages';
import { summarize } from './message-view';

const iso = (sec: number | undefined) => (sec === undefined ? '' : new Date(sec * 1000).toISOString());

/**
 * A cell a spreadsheet would run as a formula (OWASP's CSV injection: `=`, `+`, `-`, `@`, tab, CR, and
 * their full-width forms, which some spreadsheets fold) gets a leading `'` and quotes, so it shows as
 * text. Upstream fills these cells (a reward token's symbol, a chain's name). papaparse's own
 * `escapeFormulae: true` tests `^[=+\-@\t\r].*$`, which a cell with a line break slips past; this
 * one looks at the first character only. Numbers stay numbers: papaparse leaves a cell of type number
 * alone (latencySeconds, never negative), and a text cell that is nothing but a decimal number ("-5",
 * "+1.5") cannot run and is left as it is, so it still sorts and sums as a number.
 */
const FORMULA_START = /^(?![+-]?\d+(?:\.\d+)?$)[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

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
  return Papa.unparse(rows, { header: true, newline: '\n', escapeFormulae: FORMULA_START });
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
