import { randomUUID } from "node:crypto";
import type { ConfigMaps, Keyring, SecretKeyRule } from "@stream-registry/core";
import type { Db } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import {
  openSealed,
  readEnvelope,
  saveEnvelope,
  sealForWrite,
  type Envelope,
  type SecretOwnerKind,
} from "./secret-envelopes.ts";
import type { Tx } from "./transaction.ts";

/**
 * A stream's or a binding's three sets of config maps (a source's or sink's one) at rest, sealed as a cluster's config is:
 * every secret (core's `isSecret`) in its envelope, the placeholder with its fingerprint in the row.
 */

/** A stream's or a binding's three sets of config maps (config, producerConfig, consumerConfig). */
export type ConfigTriple = {
  config: ConfigMaps;
  producerConfig: ConfigMaps;
  consumerConfig: ConfigMaps;
};

/** An object's sets of config maps by name: a source's or sink's has one, `config`. */
export type ConfigSetsOf = { [set: string]: ConfigMaps };

/** Which keys are secret, and the keys secrets are sealed with. */
export interface SealingPolicy {
  secrets: SecretKeyRule;
  keyring: Keyring;
}

type Owner = { kind: Exclude<SecretOwnerKind, "cluster">; id: string };

const SQL_OWNER_COLUMNS = {
  stream: Prisma.sql`stream_id`,
  binding: Prisma.sql`binding_id`,
  source: Prisma.sql`source_id`,
  sink: Prisma.sql`sink_id`,
} as const;

/** The sets as stored and the envelope of their sealed values (null: nothing sealed). */
export function sealSets<S extends ConfigSetsOf = ConfigTriple>(
  owner: Owner,
  sets: S,
  previous: Envelope | null,
  by: SealingPolicy,
  what: string,
): { shown: S; envelope: Envelope | null } {
  const { shown, envelope } = sealForWrite(
    owner,
    { ...sets },
    previous,
    { rule: by.secrets, keyring: by.keyring },
    what,
  );
  return { shown: shown as unknown as S, envelope };
}

/**
 * An INSERT of `owner`'s envelope for a statement that creates the owner in a CTE (`from`, e.g.
 * `FROM created`): the row and its sealed values commit together. Null when nothing is sealed.
 */
export function envelopeInsertSql(
  owner: Owner,
  envelope: Envelope | null,
  from: Prisma.Sql,
): Prisma.Sql | null {
  if (!envelope) return null;
  const { kid: _kid, ...wrappedKey } = envelope.wrappedKey;
  return Prisma.sql`
    INSERT INTO secret_envelope (id, ${SQL_OWNER_COLUMNS[owner.kind]}, kid, wrapped_key, sealed, updated_at)
    SELECT ${randomUUID()}::uuid, ${owner.id}::uuid, ${envelope.kid}, ${JSON.stringify(wrappedKey)}::jsonb,
      ${JSON.stringify(envelope.sealed)}::jsonb, now()
    ${from}`;
}

/** Seals the sets an update writes, under the owner's data key, and saves its envelope. */
export async function sealUpdate<S extends ConfigSetsOf = ConfigTriple>(
  tx: Tx,
  owner: Owner,
  sets: S,
  by: SealingPolicy,
  what: string,
): Promise<S> {
  const { shown, envelope } = sealSets(owner, sets, await readEnvelope(tx, owner), by, what);
  await saveEnvelope(tx, owner, envelope);
  return shown;
}

/**
 * The sets as a provider needs them, every sealed secret opened: for realizing or validating,
 * never for a query. Throws core's UnreadableSecrets naming each value that cannot be opened.
 */
export async function openSets<S extends ConfigSetsOf = ConfigTriple>(
  db: Db,
  keyring: Keyring,
  owner: Owner,
  sets: S,
  what: string,
): Promise<S> {
  return (await openSealed(db, owner, { ...sets }, keyring, what)) as unknown as S;
}
