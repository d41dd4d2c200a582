import { randomUUID } from "node:crypto";
import {
  redactSecrets,
  type Binding,
  type Cluster,
  type ConfigMaps,
  type SecretKeyRule,
  type Stream,
} from "@stream-registry/core";
import { BINDING_COLUMNS, toBinding } from "./binding-row.ts";
import { touchBindings } from "./bindings.ts";
import { JOINED_CLUSTER_COLUMNS, toJoinedCluster, type JoinedClusterRow } from "./cluster-row.ts";
import { JOINED_STREAM_COLUMNS, toJoinedStream, toStream, type JoinedStreamRow } from "./stream-row.ts";
import { changeInsertSql, recordChange } from "./change-log.ts";
import { envelopeInsertSql, sealSets, sealUpdate, type SealingPolicy } from "./config-sealing.ts";
import { lockStream } from "./row-locks.ts";
import type { Db } from "./db.ts";
import { Prisma, type Stream as StreamRow } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/**
 * The stream and the cluster a binding names, each null if there is none, in one statement: what
 * a binding's create validates before it writes.
 */
export async function findStreamAndCluster(
  db: Db,
  stream: string,
  cluster: string,
): Promise<{ stream: Stream | null; cluster: Cluster | null }> {
  const [row] = await open(db).$queryRaw<Partial<JoinedStreamRow & JoinedClusterRow>[]>`
    SELECT ${JOINED_STREAM_COLUMNS}, ${JOINED_CLUSTER_COLUMNS}
    FROM (VALUES (1)) AS one (x)
      LEFT JOIN stream s ON s.name = ${stream}
      LEFT JOIN cluster c ON c.name = ${cluster}`;
  return {
    stream: row?.streamId ? toJoinedStream(row as JoinedStreamRow) : null,
    cluster: row?.clusterId ? toJoinedCluster(row as JoinedClusterRow) : null,
  };
}

/** A stream's three sets of config maps. */
export type StreamConfigs = Pick<Stream, "config" | "producerConfig" | "consumerConfig">;

/**
 * Who writes, which keys are secret, and the keys secrets are sealed with: the stream's row and the
 * change log hold what it became with each secret as the placeholder with its fingerprint; the
 * values themselves are sealed in its envelope (secret-envelopes.ts).
 */
export interface StreamWriter extends SealingPolicy {
  actor: string;
}

export async function findStream(db: Db, name: string): Promise<Stream | null> {
  const row = await open(db).stream.findUnique({ where: { name } });
  return row && toStream(row);
}

export async function findStreamById(db: Db, id: string): Promise<Stream | null> {
  const row = await open(db).stream.findUnique({ where: { id } });
  return row && toStream(row);
}

/** For per-request loaders: one query for many streams, in no particular order. */
export async function findStreamsByIds(db: Db, ids: readonly string[]): Promise<Stream[]> {
  return (await open(db).stream.findMany({ where: { id: { in: [...ids] } } })).map(toStream);
}

export async function findStreamsByNames(db: Db, names: readonly string[]): Promise<Stream[]> {
  return (await open(db).stream.findMany({ where: { name: { in: [...names] } } })).map(toStream);
}

/** A stream with all its bindings and their clusters' names: what a delete works on. */
export async function findStreamWithBindings(
  db: Db,
  name: string,
): Promise<{ stream: Stream; bindings: (Binding & { cluster: { name: string } })[] } | null> {
  const row = await open(db).stream.findUnique({
    where: { name },
    include: { bindings: { select: { ...BINDING_COLUMNS, cluster: { select: { name: true } } } } },
  });
  if (!row) return null;
  const { bindings, ...stream } = row;
  return {
    stream: toStream(stream),
    bindings: bindings.map(({ cluster, ...binding }) => ({ ...toBinding(binding), cluster })),
  };
}

/** A stream row as raw SQL reads it, in Prisma's field names. */
const STREAM_RETURNING = Prisma.sql`
  id::text AS id, name, config, producer_config AS "producerConfig", consumer_config AS "consumerConfig",
  generation, deleting, created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * Creates a stream, its sealed secrets and its change-log entry in one statement (no transaction
 * to open); a name taken throws the database's unique violation (`isUniqueViolation`), having
 * written nothing. `given` is in clear; its secrets are sealed on the way in.
 */
export async function createStream(
  db: Db,
  name: string,
  given: StreamConfigs,
  by: StreamWriter,
): Promise<Stream> {
  const json = (maps: ConfigMaps) => JSON.stringify(maps);
  const now = new Date(); // the registry's clock, as for rows Prisma writes
  const owner = { kind: "stream", id: randomUUID() } as const;
  const { shown: configs, envelope } = sealSets(owner, given, null, by, `stream ${JSON.stringify(name)}`);
  const sealed = envelopeInsertSql(owner, envelope, Prisma.sql`FROM created`);
  const logged = changeInsertSql(
    {
      entityType: "stream",
      entityKey: name,
      action: "created",
      generation: 1,
      actor: by.actor,
      data: changeData(configs, by.secrets),
    },
    Prisma.sql`FROM created`,
  );
  const [row] = await open(db).$queryRaw<StreamRow[]>`
    WITH created AS (
      INSERT INTO stream (id, name, config, producer_config, consumer_config, generation, created_at, updated_at)
      VALUES (${owner.id}::uuid, ${name}, ${json(configs.config)}::jsonb,
        ${json(configs.producerConfig)}::jsonb, ${json(configs.consumerConfig)}::jsonb, 1, ${now}, ${now})
      RETURNING ${STREAM_RETURNING}),
    ${sealed ? Prisma.sql`sealed AS (${sealed}),` : Prisma.empty}
    logged AS (${logged})
    SELECT * FROM created`;
  return toStream(row!);
}

/**
 * New config maps for the stream read as `current`, as a new generation; every live binding is
 * reconciled again, since what it realizes derives from them. Null, writing nothing, if the
 * stream changed or began to be deleted since it was read. `given` is in clear, or keeps a secret
 * as the placeholder stored for it; secrets given in clear are sealed, under the stream's data key.
 */
export async function updateStream(
  tx: Tx,
  current: Stream,
  given: StreamConfigs,
  by: StreamWriter & { fqnPrefix: string },
): Promise<Stream | null> {
  const owner = { kind: "stream", id: current.id } as const;
  const configs = await sealUpdate(tx, owner, given, by, `stream ${JSON.stringify(current.name)}`);
  const written = await open(tx).stream.updateMany({
    where: { id: current.id, generation: current.generation, deleting: false },
    data: { ...configs, generation: { increment: 1 } },
  });
  if (written.count === 0) return null;
  const stream = toStream(await open(tx).stream.findUniqueOrThrow({ where: { id: current.id } }));
  await recordChange(tx, {
    entityType: "stream",
    entityKey: stream.name,
    action: "updated",
    generation: stream.generation,
    actor: by.actor,
    data: changeData(stream, by.secrets),
  });
  await touchBindings(tx, { streamId: stream.id }, by.fqnPrefix, by.actor);
  return stream;
}

/** Deletes a stream that has no bindings (the database refuses one with bindings). */
export async function deleteStream(tx: Tx, stream: Stream, actor: string): Promise<void> {
  await open(tx).stream.delete({ where: { id: stream.id } });
  await recordChange(tx, {
    entityType: "stream",
    entityKey: stream.name,
    action: "deleted",
    generation: stream.generation,
    actor,
  });
}

/** A cascading delete: the stream goes when its last binding is gone (`removeStreamIfDone`). */
export async function markStreamDeleting(tx: Tx, stream: Stream, actor: string): Promise<Stream> {
  if (stream.deleting) return stream;
  await open(tx).stream.update({ where: { id: stream.id }, data: { deleting: true } });
  await recordChange(tx, {
    entityType: "stream",
    entityKey: stream.name,
    action: "delete-requested",
    generation: stream.generation,
    actor,
  });
  return { ...stream, deleting: true };
}

function changeData(stream: StreamConfigs, secrets: SecretKeyRule) {
  return {
    config: redactSecrets(stream.config, secrets),
    producerConfig: redactSecrets(stream.producerConfig, secrets),
    consumerConfig: redactSecrets(stream.consumerConfig, secrets),
  };
}

/** A stream deleted with cascade goes with its last binding; called when a binding is removed. */
export async function removeStreamIfDone(tx: Tx, streamId: string, actor: string): Promise<void> {
  // Two last bindings removed at once: the second to get the lock sees the first one gone.
  await lockStream(tx, streamId, "delete");
  const row = await open(tx).stream.findUnique({
    where: { id: streamId },
    include: { _count: { select: { bindings: true } } },
  });
  if (!row?.deleting || row._count.bindings > 0) return;
  const { _count, ...stream } = row;
  await deleteStream(tx, toStream(stream), actor);
}
