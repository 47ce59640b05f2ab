/** Writes records into `messages`: insert, or replace the stored record with the same messageId. */
import type { Database } from '../../sqlite';
import type { Dictionaries } from './dictionaries';
import { recordKeys } from './record-keys';
import { POS_PER_SECOND } from './schema';

/** What a write did to the number of stored records. */
type WriteEffect = 'added' | 'replaced';

export class RecordWriter {
  private readonly stmts;

  constructor(
    db: Database,
    private readonly dictionaries: Dictionaries,
    /** Place a record within its second by a hash of its ID instead of after the second's last record. */
    private readonly looseOrder = false,
  ) {
    this.stmts = {
      findMessage: db.prepare<[string], number>('SELECT pos FROM messages WHERE message_id = ?').pluck(),
      posTaken: db.prepare<[number], number>('SELECT 1 FROM messages WHERE pos = ?').pluck(),
      maxPosIn: db.prepare<[number, number], number | null>('SELECT max(pos) FROM messages WHERE pos >= ? AND pos < ?').pluck(),
      insertMessage: db.prepare('INSERT INTO messages (pos, message_id, net, route, frm, too, status, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      updateMessage: db.prepare('UPDATE messages SET net = ?, route = ?, frm = ?, too = ?, status = ?, raw = ? WHERE pos = ?'),
      deleteMessage: db.prepare('DELETE FROM messages WHERE pos = ?'),
    };
  }

  /**
   * Stores one record. An update keeps the record's sort position (so a walk in progress never sees
   * it twice) unless its sort timestamp changed, e.g. a source transaction became known: then it
   * moves, to keep newest-first order true. `fresh`: the store is being bulk-loaded empty, every
   * record is new (no lookup by ID).
   */
  write(record: unknown, fresh: boolean): WriteEffect {
    const k = recordKeys(record);
    const raw = JSON.stringify(record);
    const route = this.dictionaries.routeId(k.source, k.destination);
    const net = this.dictionaries.netOf(route);
    const frm = this.dictionaries.addressId(k.from);
    const too = this.dictionaries.addressId(k.to);
    const pos = fresh ? undefined : this.stmts.findMessage.get(k.messageId);
    if (pos !== undefined && Math.floor(pos / POS_PER_SECOND) === k.timestamp) {
      this.stmts.updateMessage.run(net, route, frm, too, k.status, raw, pos);
      return 'replaced';
    }
    if (pos !== undefined) this.stmts.deleteMessage.run(pos);
    this.stmts.insertMessage.run(
      this.looseOrder ? this.hashedPos(k.timestamp, k.messageId) : this.nextPos(k.timestamp),
      k.messageId,
      net,
      route,
      frm,
      too,
      k.status,
      raw,
    );
    return pos === undefined ? 'added' : 'replaced';
  }

  /**
   * The real API does not promise an order among records of the same second: a slot picked by the
   * message ID (FNV-1a), the next free one on a collision, puts a record that arrives later above or
   * below those already there. Keyset paging stays exact: a position never changes once given.
   */
  private hashedPos(timestamp: number, messageId: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < messageId.length; i++) h = Math.imul(h ^ messageId.charCodeAt(i), 0x01000193) >>> 0;
    const start = timestamp * POS_PER_SECOND;
    for (let n = 0; n < POS_PER_SECOND; n++) {
      const pos = start + ((h + n) % POS_PER_SECOND);
      if (this.stmts.posTaken.get(pos) === undefined) return pos;
    }
    throw new Error(`More than ${POS_PER_SECOND} records in one second.`);
  }

  /** Deletes the record with this messageId; false when there is none. */
  remove(messageId: string): boolean {
    const pos = this.stmts.findMessage.get(messageId);
    if (pos === undefined) return false;
    this.stmts.deleteMessage.run(pos);
    return true;
  }

  private nextPos(timestamp: number): number {
    const start = timestamp * POS_PER_SECOND;
    const max = this.stmts.maxPosIn.get(start, start + POS_PER_SECOND);
    return max === null || max === undefined ? start : max + 1;
  }
}
