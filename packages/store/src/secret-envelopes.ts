import {
  holdsSealedPlaceholder,
  holdsSealedValues,
  newDataKey,
  openConfigSets,
  ownerIdentity,
  sealConfigSets,
  SecretBoxError,
  UnreadableSecrets,
  type ConfigSets,
  type Keyring,
  type SealedValues,
  type SecretKeyRule,
  type SecretOwner,
  type WrappedKey,
} from "@stream-registry/core";
import type { Db } from "./db.ts";
import type { Prisma } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/**
 * The sealed secret config values of objects (table secret_envelope; core's secret-seal.ts says
 * what is sealed and how). Reads that answer queries never come here: only what connects
 * somewhere opens an envelope (`openSealed`).
 */

/** What a write seals with: which keys are secret, and the key-encryption keys. */
export interface SecretPolicy {
  rule: SecretKeyRule;
  keyring: Keyring;
}

/** The kinds of objects with sealed values, and each one's owner column in secret_envelope. */
const OWNER_COLUMNS = {
  cluster: "clusterId",
  stream: "streamId",
  binding: "bindingId",
  source: "sourceId",
  sink: "sinkId",
} as const;
export type SecretOwnerKind = keyof typeof OWNER_COLUMNS;

/** The object an envelope belongs to, from its owner columns. */
export function envelopeOwner(
  row: Record<(typeof OWNER_COLUMNS)[SecretOwnerKind], string | null>,
): SecretOwner & { kind: SecretOwnerKind } {
  for (const [kind, column] of Object.entries(OWNER_COLUMNS) as [SecretOwnerKind, keyof typeof row][]) {
    const id = row[column];
    if (id) return { kind, id };
  }
  throw new Error("a secret envelope without an owner (the table's CHECK forbids it)");
}

export interface Envelope {
  kid: string;
  wrappedKey: WrappedKey;
  sealed: SealedValues;
}

/** What a write stores: the object's config sets as stored, and its envelope (null: none). */
export interface SealedWrite {
  shown: ConfigSets;
  envelope: Envelope | null;
}

function where(owner: SecretOwner & { kind: SecretOwnerKind }): Prisma.SecretEnvelopeWhereUniqueInput {
  return { [OWNER_COLUMNS[owner.kind]]: owner.id } as unknown as Prisma.SecretEnvelopeWhereUniqueInput;
}

export async function readEnvelope(
  db: Db,
  owner: SecretOwner & { kind: SecretOwnerKind },
): Promise<Envelope | null> {
  return toEnvelope(await open(db).secretEnvelope.findUnique({ where: where(owner) }));
}

export function toEnvelope(
  row: { kid: string; wrappedKey: unknown; sealed: unknown } | null,
): Envelope | null {
  if (!row) return null;
  const wrapped = row.wrappedKey as Omit<WrappedKey, "kid">;
  return { kid: row.kid, wrappedKey: { ...wrapped, kid: row.kid }, sealed: row.sealed as SealedValues };
}

/**
 * Seals `sets` (values in clear where given, placeholders of values sealed before where kept) for
 * `owner`, whose envelope is `previous`. The data key stays the same, so fingerprints do too for
 * unchanged values; when it cannot be unwrapped and every secret is given in clear, a new one is
 * made, since nothing sealed under the old one is kept. Placeholders kept take their sealed value
 * from `previous` (bound to the same owner and place, so still valid).
 */
export function sealForWrite(
  owner: SecretOwner,
  sets: ConfigSets,
  previous: Envelope | null,
  policy: SecretPolicy,
  what: string,
): SealedWrite {
  const identity = ownerIdentity(owner);
  let dataKey: Buffer | undefined;
  let keyProblem: string | undefined;
  if (previous) {
    try {
      dataKey = policy.keyring.unwrap(previous.wrappedKey, identity);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      keyProblem = error.message;
    }
  }
  if (!dataKey && holdsSealedValues(sets)) {
    // A value kept sealed needs the key it was sealed under.
    openConfigSets(
      sets,
      previous?.sealed ?? {},
      () => {
        throw new SecretBoxError("unknown-key", keyProblem ?? "its data key is missing");
      },
      owner,
      what,
    );
  }
  const key = dataKey ?? newDataKey();
  const { shown, sealed } = sealConfigSets(sets, policy.rule, key, owner);
  const kept = keepSealed(sets, previous?.sealed ?? {}, sealed, what);
  if (!kept) return { shown, envelope: null };
  const reuse = previous && dataKey && previous.kid === policy.keyring.current.kid;
  const wrappedKey = reuse ? previous.wrappedKey : policy.keyring.wrap(key, identity);
  return { shown, envelope: { kid: wrappedKey.kid, wrappedKey, sealed: kept } };
}

/** `fresh` plus the previous sealed values the sets keep as placeholders; null when empty. */
function keepSealed(
  sets: ConfigSets,
  previous: SealedValues,
  fresh: SealedValues,
  what: string,
): SealedValues | null {
  const result: SealedValues = structuredClone(fresh);
  let count = 0;
  const missing: { set: string; map: string; key: string; reason: string }[] = [];
  for (const [set, maps] of Object.entries(sets)) {
    for (const [map, values] of Object.entries(maps)) {
      for (const [key, value] of Object.entries(values)) {
        if (result[set]?.[map]?.[key]) {
          count++;
          continue;
        }
        if (typeof value !== "string" || !holdsSealedPlaceholder(value)) continue;
        const entry = Object.hasOwn(previous, set) ? previous[set]?.[map]?.[key] : undefined;
        if (!entry) {
          missing.push({ set, map, key, reason: "its sealed value is missing" });
          continue;
        }
        ((result[set] ??= {})[map] ??= {})[key] = entry;
        count++;
      }
    }
  }
  if (missing.length > 0) throw new UnreadableSecrets(missing, what);
  return count > 0 ? result : null;
}

/** Replaces `owner`'s envelope with `envelope`, or removes it (null). */
export async function saveEnvelope(
  tx: Tx,
  owner: SecretOwner & { kind: SecretOwnerKind },
  envelope: Envelope | null,
): Promise<void> {
  if (!envelope) {
    await open(tx).secretEnvelope.deleteMany({ where: where(owner) });
    return;
  }
  const { kid: _kid, ...wrappedKey } = envelope.wrappedKey;
  const data = {
    kid: envelope.kid,
    wrappedKey: wrappedKey as Prisma.InputJsonObject,
    sealed: envelope.sealed as unknown as Prisma.InputJsonObject,
  };
  await open(tx).secretEnvelope.upsert({
    where: where(owner),
    create: { ...data, [OWNER_COLUMNS[owner.kind]]: owner.id },
    update: data,
  });
}

/**
 * `shown` (as stored) with every placeholder of a sealed value replaced by the value: for a
 * provider, never for a query. Reads nothing when nothing is sealed. Throws UnreadableSecrets
 * naming each value that cannot be opened (its key id not configured, its ciphertext altered).
 */
export async function openSealed(
  db: Db,
  owner: SecretOwner & { kind: SecretOwnerKind },
  shown: ConfigSets,
  keyring: Keyring,
  what: string,
): Promise<ConfigSets> {
  if (!holdsSealedValues(shown)) return shown;
  const envelope = await readEnvelope(db, owner);
  const dataKey = () => {
    if (!envelope) throw new SecretBoxError("tampered", "its data key is missing");
    return keyring.unwrap(envelope.wrappedKey, ownerIdentity(owner));
  };
  return openConfigSets(shown, envelope?.sealed ?? {}, dataKey, owner, what);
}
