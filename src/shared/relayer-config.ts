/**
 * An ICM relayer's config file as the app reads it (docs/relayer-config.md): what it watches from it,
 * the preview of an import, and the exact calls an operator sends by hand. No signing material ever
 * appears here: a delivery wallet is its address only.
 */
import { z } from 'zod';
import { MAX_OWED_MESSAGES_PER_CALL } from './policy';
import { messageId, network } from './schemas';

/** The most text an import takes: a relayer config is a few KB; 1 MB leaves room for hundreds of chains. */
export const RELAYER_CONFIG_MAX_CHARS = 1_000_000;

/** One relayer watch per reward address the config names (in any source's message-contracts). */
const PlannedRelayerSchema = z.object({
  address: z.string(),
  label: z.string(),
});

/** A route the relayer serves: a source chain with one of its supported destinations (cb58 IDs). */
const PlannedRouteSchema = z.object({
  source: z.string(),
  destination: z.string(),
  /** "A → B", named from your own nodes' chains or the registry. */
  label: z.string(),
});

/** A delivery wallet: the address of a key the file holds for a destination chain (the key itself is never kept). */
const PlannedWalletSchema = z.object({
  address: z.string(),
  /** cb58 ID of the destination chain it pays gas on. */
  blockchainId: z.string(),
  chainName: z.string(),
  label: z.string(),
});

/** A destination whose wallet the file does not give (KMS, or keys from ACCOUNT_PRIVATE_KEY… variables): type its address. */
const UnknownWalletSchema = z.object({
  blockchainId: z.string(),
  chainName: z.string(),
  why: z.string(),
});

export const RelayerConfigPlanSchema = z.object({
  network,
  relayers: z.array(PlannedRelayerSchema),
  routes: z.array(PlannedRouteSchema),
  wallets: z.array(PlannedWalletSchema),
  walletsToType: z.array(UnknownWalletSchema),
  /** The messenger of each source chain (message-contracts with message-format teleporter). */
  messengers: z.array(z.object({ blockchainId: z.string(), address: z.string() })),
  /** Where the relayer serves its Prometheus metrics (the file's metrics-port, default 9090) and its API (api-port, default 8080). */
  metricsPort: z.number().int(),
  apiPort: z.number().int(),
  /** Signing fields the file holds that were skipped, by path (never their values). */
  skipped: z.array(z.string()),
});
export type RelayerConfigPlan = z.output<typeof RelayerConfigPlanSchema>;

const change = <T extends z.ZodType>(item: T) => z.object({ added: z.array(item), removed: z.array(item), kept: z.number().int() });

/** What applying an import would change: against what is watched now and what the last import added. */
export const RelayerConfigPreviewSchema = z.object({
  plan: RelayerConfigPlanSchema,
  relayers: change(PlannedRelayerSchema),
  routes: change(PlannedRouteSchema),
  wallets: change(PlannedWalletSchema),
});
export type RelayerConfigPreview = z.output<typeof RelayerConfigPreviewSchema>;

export const RelayerConfigImportInputSchema = z
  .object({
    text: z
      .string()
      .min(1, 'The relayer config file is empty.')
      .max(RELAYER_CONFIG_MAX_CHARS, `A relayer config is at most ${RELAYER_CONFIG_MAX_CHARS / 1_000_000} MB.`),
    /** The file's name, for messages only. */
    fileName: z.string().max(255).optional(),
  })
  .strict();

/** A transaction to send by hand: where, the calldata, and a `cast send` line without any key. */
export const HandCallSchema = z.object({
  /** What it does, in words. */
  title: z.string(),
  /** cb58 ID and name of the chain to send it on. */
  blockchainId: z.string(),
  chainName: z.string(),
  /** The messenger to call. */
  to: z.string(),
  /** ABI-encoded call (0x…); empty when the call cannot be built (see `missing`). */
  calldata: z.string(),
  /** `cast send …` with $RPC_URL and $PRIVATE_KEY placeholders. */
  cast: z.string(),
  /** Who must send it (msg.sender matters for redeemRelayerRewards), when it matters. */
  sender: z.string().nullable(),
  /** Fields of the message the record lacks, each with where it comes from; the call is built only when none is. */
  missing: z.array(z.string()),
  /** A read to make first (`cast call …`), when what the call acts on may already be gone (a credit already redeemed). */
  check: z.string().nullable(),
  /** What follows once it is mined, in words (the receipts' message must still be delivered back). */
  next: z.string().nullable(),
});
export type HandCall = z.output<typeof HandCallSchema>;

export const HandCallInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('retry'), messageId }).strict(),
  z
    .object({
      kind: z.literal('redeem'),
      /** The reward address that redeems (the messenger pays msg.sender). */
      relayer: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Relayer must be an address.'),
      /** The chain the rewards are credited on (the route's source). */
      blockchainId: z.string().min(1).max(100),
      feeAsset: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Fee asset must be a token address.'),
    })
    .strict(),
  z
    .object({
      kind: z.literal('receipts'),
      /** The route's chains: receipts are sent on the destination, back to the source. */
      sourceBlockchainId: z.string().min(1).max(100),
      destinationBlockchainId: z.string().min(1).max(100),
      /** Delivered messages whose fee is owed. */
      messageIds: z
        .array(messageId)
        .min(1, 'Name at least one message.')
        .max(MAX_OWED_MESSAGES_PER_CALL, `At most ${MAX_OWED_MESSAGES_PER_CALL} messages per call.`),
    })
    .strict(),
]);
export type HandCallInput = z.output<typeof HandCallInputSchema>;
