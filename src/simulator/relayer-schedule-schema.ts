/** The relayer schedule option (relayer-personas.ts), checked: names unique, takeovers naming a relayer, routes of the registry. */
import { z } from 'zod';
import { chainByBlockchainId } from '../shared/chains';
import { evmAddress } from '../shared/schemas';

const ms = z.number().finite();
const span = z.object({ startMs: ms, durationMs: z.number().positive(), everyMs: z.number().positive().optional() }).strict();
const route = z
  .object({ source: z.string(), destination: z.string() })
  .strict()
  .refine((r) => {
    const a = chainByBlockchainId(r.source);
    const b = chainByBlockchainId(r.destination);
    return !!a && !!b && a !== b && a.network === b.network;
  }, 'a route is two different registry chains of one network (cb58 blockchain IDs).');

const persona = z
  .object({
    name: z.string().min(1),
    behaviour: z.enum(['fast', 'slow', 'outage', 'takeover', 'steady']),
    description: z.string().optional(),
    address: evmAddress.optional(),
    routes: z.array(route).min(1).optional(),
    share: z.number().positive(),
    delayFactor: z.number().positive().optional(),
    outages: z.array(span).optional(),
    slowdowns: z.array(span.extend({ factor: z.number().positive() })).optional(),
    takeover: z.object({ from: z.string(), atMs: ms }).strict().optional(),
  })
  .strict();

export const RelayerScheduleSchema = z
  .object({ relayers: z.array(persona).min(1) })
  .strict()
  .refine((s) => new Set(s.relayers.map((p) => p.name)).size === s.relayers.length, 'relayer names must be unique.')
  .refine(
    (s) => s.relayers.every((p) => !p.takeover || s.relayers.some((q) => q.name === p.takeover!.from && q !== p)),
    'a takeover must name another relayer of the schedule.',
  );
