/** `GET .../messages/{messageId}`: one record by its ID, in the path family's shape. */
import { parseMessageId } from '../shared/validators';
import type { PathFamily } from './api-paths';
import { recordForFamily } from './icm-records';
import type { RecordStore } from './store/record-store';

type MessageLookup = { ok: true; body: string } | { ok: false; status: 400 | 404; message: string | string[] };

export function lookupMessage(store: Pick<RecordStore, 'get'>, rawId: string, family: PathFamily): MessageLookup {
  const id = parseMessageId(rawId);
  if (!id.ok) return { ok: false, status: 400, message: [`messageId: ${id.error}`] };
  const record = store.get(id.value);
  if (!record) return { ok: false, status: 404, message: `Message ${id.value} was not found.` };
  return { ok: true, body: recordForFamily(JSON.stringify(record), family) };
}
