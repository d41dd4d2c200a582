import { randomUUID } from "node:crypto";
import {
  holdsClearSecrets,
  redactSecrets,
  UnreadableSecrets,
  type Cluster,
  type ConfigMaps,
  type Keyring,
  type SecretKeyRule,
} from "@stream-registry/core";
import { touchBindings } from "./bindings.ts";
import { recordChange } from "./change-log.ts";
import type { Db, DbClient } from "./db.ts";
import { toCluster } from "./cluster-row.ts";
import {
  openSealed,
  saveEnvelope,
  sealForWrite,
  toEnvelope,
  type Envelope,
  type SecretPolicy,
} from "./secret-envelopes.ts";
import { lockClusterByName } from "./row-locks.ts";
import { writeTransaction, type Tx } from "./transaction.ts";
import { open, openClient } from "./open-db.ts";

/**
 * Who writes, which keys are secret, and the keys secrets are sealed with: the cluster's row and
 * the change log hold what it became with each secret as the placeholder with its fingerprint;
 * the values themselves are sealed in its envelope (secret-envelopes.ts).
 */
export interface ClusterWriter {
  actor: string;
  secrets: SecretKeyRule;
  keyring: Keyring;
}

export interface ClusterSpec {
  provider: string;
  config: ConfigMaps;
}

export async function findCluster(db: Db, name: string): Promise<Cluster | null> {
  const row = await open(db).cluster.findUnique({ where: { name } });
  return row && toCluster(row);
}

/** For per-request loaders: one query for many clusters, in no particular order. */
export async function findClustersByIds(db: Db, ids: readonly string[]): Promise<Cluster[]> {
  return (await open(db).cluster.findMany({ where: { id: { in: [...ids] } } })).map(toCluster);
}

export async function findClustersByNames(db: Db, names: readonly string[]): Promise<Cluster[]> {
  return (await open(db).cluster.findMany({ where: { name: { in: [...names] } } })).map(toCluster);
}

/** A cluster and how many bindings it has: whether its provider may still change. */
export async function findClusterWithBindingCount(
  db: Db,
  name: string,
): Promise<{ cluster: Cluster; bindings: number } | null> {
  const row = await open(db).cluster.findUnique({
    where: { name },
    include: { _count: { select: { bindings: true } } },
  });
  if (!row) return null;
  const { _count, ...cluster } = row;
  return { cluster: toCluster(cluster), bindings: _count.bindings };
}

/** A cluster and the streams of a few of its bindings: what a refused delete names. */
export async function findClusterWithSomeStreams(
  db: Db,
  name: string,
  limit: number,
): Promise<{ cluster: Cluster; streams: string[] } | null> {
  const row = await open(db).cluster.findUnique({
    where: { name },
    include: { bindings: { select: { stream: { select: { name: true } } }, take: limit } },
  });
  if (!row) return null;
  const { bindings, ...cluster } = row;
  return { cluster: toCluster(cluster), streams: bindings.map((b) => b.stream.name) };
}

/**
 * A new cluster. `spec.config` is in clear (as its provider validated it); its secrets are sealed
 * on the way in.
 */
export async function createCluster(
  tx: Tx,
  name: string,
  spec: ClusterSpec,
  by: ClusterWriter,
): Promise<Cluster> {
  const id = randomUUID();
  const { config, envelope } = sealCluster(id, name, spec.config, null, by);
  const cluster = toCluster(
    await open(tx).cluster.create({ data: { id, name, provider: spec.provider, config } }),
  );
  await saveEnvelope(tx, { kind: "cluster", id }, envelope);
  await recordChange(tx, {
    entityType: "cluster",
    entityKey: cluster.name,
    action: "created",
    generation: cluster.generation,
    actor: by.actor,
    data: changeData(cluster, by.secrets),
  });
  return cluster;
}

/**
 * A new provider or config, as a new generation. How the cluster is reached may have changed, so
 * every live binding on it is reconciled again. `fqnPrefix` is the namespace as it starts an FQN.
 * `spec.config` is in clear, or keeps a secret as the placeholder stored for it; secrets given in
 * clear are sealed, under the cluster's data key. The caller holds the cluster's row lock.
 */
export async function updateCluster(
  tx: Tx,
  id: string,
  spec: ClusterSpec,
  by: ClusterWriter & { fqnPrefix: string },
): Promise<Cluster> {
  const current = await open(tx).cluster.findUniqueOrThrow({
    where: { id },
    select: { name: true, secrets: true },
  });
  const { config, envelope } = sealCluster(id, current.name, spec.config, toEnvelope(current.secrets), by);
  const cluster = toCluster(
    await open(tx).cluster.update({
      where: { id },
      data: { provider: spec.provider, config, generation: { increment: 1 } },
    }),
  );
  await saveEnvelope(tx, { kind: "cluster", id }, envelope);
  await recordChange(tx, {
    entityType: "cluster",
    entityKey: cluster.name,
    action: "updated",
    generation: cluster.generation,
    actor: by.actor,
    data: changeData(cluster, by.secrets),
  });
  await touchBindings(tx, { clusterId: cluster.id }, by.fqnPrefix, by.actor);
  return cluster;
}

/** Deletes a cluster without bindings (the database refuses one with bindings). */
export async function deleteCluster(tx: Tx, cluster: Cluster, actor: string): Promise<void> {
  await open(tx).cluster.delete({ where: { id: cluster.id } });
  await recordChange(tx, {
    entityType: "cluster",
    entityKey: cluster.name,
    action: "deleted",
    generation: cluster.generation,
    actor,
  });
}

/** Clusters whose health was last recorded before `before` (or never), by name, with that status. */
export async function clustersDueForProbe(
  db: Db,
  before: Date,
): Promise<{ cluster: Cluster; status: "UP" | "DOWN" | null }[]> {
  const rows = await open(db).cluster.findMany({
    where: { OR: [{ health: null }, { health: { checkedAt: { lt: before } } }] },
    include: { health: { select: { status: true } } },
    orderBy: { name: "asc" },
  });
  return rows.map(({ health, ...row }) => ({ cluster: toCluster(row), status: health?.status ?? null }));
}

/**
 * The cluster with its config as its provider needs it, every sealed secret opened: only for
 * connecting to it, never to answer a query. Reads nothing more when it has no secret. Throws
 * UnreadableSecrets (core) naming each secret that cannot be decrypted, and why.
 */
export async function openCluster(db: Db, keyring: Keyring, cluster: Cluster): Promise<Cluster> {
  const owner = { kind: "cluster", id: cluster.id } as const;
  const what = `cluster ${JSON.stringify(cluster.name)}`;
  const { config } = await openSealed(db, owner, { config: cluster.config }, keyring, what);
  return config === cluster.config ? cluster : { ...cluster, config: config! };
}

function sealCluster(
  id: string,
  name: string,
  config: ConfigMaps,
  previous: Envelope | null,
  by: Omit<ClusterWriter, "actor">,
) {
  const policy: SecretPolicy = { rule: by.secrets, keyring: by.keyring };
  const owner = { kind: "cluster", id };
  const sealed = sealForWrite(owner, { config }, previous, policy, `cluster ${JSON.stringify(name)}`);
  return { config: sealed.shown.config!, envelope: sealed.envelope };
}

function changeData(cluster: Cluster, secrets: SecretKeyRule) {
  return { provider: cluster.provider, config: redactSecrets(cluster.config, secrets) };
}

/** What sealing the secrets found in clear came to. */
export interface SealingReport {
  /** Clusters whose secrets in clear were sealed. */
  sealed: string[];
  /** Clusters left as they were, and why (a kept secret's key cannot be unwrapped). */
  failed: { cluster: string; reason: string }[];
}

/**
 * Seals every secret still stored in clear: rows written before secrets were encrypted at rest,
 * or values under a key that has become secret since (a provider loaded that declares it). Run
 * at every start (idempotent: a cluster with nothing in clear is only read). The desired state
 * is the same, so neither the generation nor the change log moves; each cluster is locked and
 * written in a transaction of its own.
 */
export async function sealClearClusterSecrets(
  prisma: DbClient,
  by: Omit<ClusterWriter, "actor">,
): Promise<SealingReport> {
  const report: SealingReport = { sealed: [], failed: [] };
  const candidates = await openClient(prisma).cluster.findMany({
    select: { id: true, name: true, config: true },
  });
  for (const candidate of candidates) {
    if (!holdsClearSecrets({ config: candidate.config as ConfigMaps }, by.secrets)) continue;
    try {
      const sealed = await writeTransaction(prisma, async (tx) => {
        await lockClusterByName(tx, candidate.name, "write");
        const row = await open(tx).cluster.findUnique({
          where: { id: candidate.id },
          include: { secrets: true },
        });
        if (!row || !holdsClearSecrets({ config: row.config as ConfigMaps }, by.secrets)) return false;
        const { config, envelope } = sealCluster(
          row.id,
          row.name,
          row.config as ConfigMaps,
          toEnvelope(row.secrets),
          by,
        );
        await open(tx).cluster.update({ where: { id: row.id }, data: { config } });
        await saveEnvelope(tx, { kind: "cluster", id: row.id }, envelope);
        return true;
      });
      if (sealed) report.sealed.push(candidate.name);
    } catch (error) {
      if (!(error instanceof UnreadableSecrets)) throw error;
      report.failed.push({ cluster: candidate.name, reason: error.message });
    }
  }
  return report;
}
