import { holdsClearSecrets, redactDocument, UnreadableSecrets, type ConfigMaps } from "@stream-registry/core";
import { sealUpdate, type ConfigTriple, type SealingPolicy } from "./config-sealing.ts";
import type { DbClient } from "./db.ts";
import type { Prisma } from "./generated/prisma/client.ts";
import { lockStream } from "./row-locks.ts";
import { writeTransaction } from "./transaction.ts";
import { open, openClient } from "./open-db.ts";

/**
 * The data migration of issue 19, run at every start after the schema's (idempotent: what holds
 * nothing in clear is only read): streams' and bindings' secrets still in clear are sealed, as
 * clusters' are (clusters.ts, sealClearClusterSecrets), and the stored copies of config maps (the
 * change log, the discovery index's documents) lose the values the rule now hides. A value
 * becomes secret when the rule grows: a new spelling or value shape, a provider loaded that
 * declares a key, an admin's REGISTRY_SECRET_KEY_NAMES. Neither generations nor the change log
 * move: the desired state is the same.
 */

/** What sealing and redacting found in clear. */
export interface StoredSecretsReport {
  /** Streams and bindings whose secrets in clear were sealed, e.g. `stream "orders"`. */
  sealed: string[];
  /** Left as they were, and why (a kept secret's key cannot be unwrapped). */
  failed: { object: string; reason: string }[];
  /** Change-log entries and index documents rewritten without a secret they held. */
  redacted: { changes: number; documents: number };
}

const BATCH = 500;

function triple(row: { config: unknown; producerConfig: unknown; consumerConfig: unknown }): ConfigTriple {
  return {
    config: row.config as ConfigMaps,
    producerConfig: row.producerConfig as ConfigMaps,
    consumerConfig: row.consumerConfig as ConfigMaps,
  };
}

export async function sealStoredSecrets(prisma: DbClient, by: SealingPolicy): Promise<StoredSecretsReport> {
  const report: StoredSecretsReport = { sealed: [], failed: [], redacted: { changes: 0, documents: 0 } };
  const clear = (row: Parameters<typeof triple>[0]) => holdsClearSecrets({ ...triple(row) }, by.secrets);
  const attempt = async (object: string, write: () => Promise<boolean>) => {
    try {
      if (await write()) report.sealed.push(object);
    } catch (error) {
      if (!(error instanceof UnreadableSecrets)) throw error;
      report.failed.push({ object, reason: error.message });
    }
  };
  for await (const stream of byId((after, take) =>
    openClient(prisma).stream.findMany({ where: { id: { gt: after } }, orderBy: { id: "asc" }, take }),
  )) {
    if (!clear(stream)) continue;
    const what = `stream ${JSON.stringify(stream.name)}`;
    await attempt(what, () =>
      writeTransaction(prisma, async (tx) => {
        await lockStream(tx, stream.id, "write");
        const row = await open(tx).stream.findUnique({ where: { id: stream.id } });
        if (!row || !clear(row)) return false;
        const shown = await sealUpdate(tx, { kind: "stream", id: row.id }, triple(row), by, what);
        await open(tx).stream.update({ where: { id: row.id }, data: { ...shown } });
        return true;
      }),
    );
  }
  const bindings = byId((after, take) =>
    openClient(prisma).binding.findMany({
      where: { id: { gt: after } },
      orderBy: { id: "asc" },
      take,
      include: { stream: { select: { name: true } }, cluster: { select: { name: true } } },
    }),
  );
  for await (const binding of bindings) {
    if (!clear(binding)) continue;
    const what = `binding of stream ${JSON.stringify(binding.stream.name)} on cluster ${JSON.stringify(binding.cluster.name)}`;
    await attempt(what, () =>
      writeTransaction(prisma, async (tx) => {
        await lockStream(tx, binding.streamId, "write"); // binding writes take their stream's lock
        const row = await open(tx).binding.findUnique({ where: { id: binding.id } });
        if (!row || !clear(row)) return false;
        const shown = await sealUpdate(tx, { kind: "binding", id: row.id }, triple(row), by, what);
        await open(tx).binding.update({ where: { id: row.id }, data: { ...shown } });
        return true;
      }),
    );
  }
  report.redacted.changes = await redactChanges(prisma, by);
  report.redacted.documents = await redactDocuments(prisma, by);
  return report;
}

/** Every row, a batch at a time, in the order of their ids. */
async function* byId<T extends { id: string }>(
  page: (after: string, take: number) => Promise<T[]>,
): AsyncGenerator<T> {
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const rows = await page(after, BATCH);
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows.at(-1)!.id;
  }
}

/** Rewrites the change-log entries whose config maps hold a value the rule hides. */
async function redactChanges(prisma: DbClient, by: SealingPolicy): Promise<number> {
  let rewritten = 0;
  let after = -1n;
  for (;;) {
    const rows = await openClient(prisma).change.findMany({
      where: { id: { gt: after } },
      select: { id: true, data: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    if (rows.length === 0) return rewritten;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      const shown = redactDocument(row.data, by.secrets);
      if (shown === row.data) continue;
      await openClient(prisma).change.update({
        where: { id: row.id },
        data: { data: shown as Prisma.InputJsonValue },
      });
      rewritten++;
    }
  }
}

/** Rewrites the discovery index's documents that hold a value the rule hides. */
async function redactDocuments(prisma: DbClient, by: SealingPolicy): Promise<number> {
  let rewritten = 0;
  let cursor: { kind: string; namespace: string; name: string; cluster: string } | undefined;
  for (;;) {
    const rows = await openClient(prisma).indexEntry.findMany({
      select: { kind: true, namespace: true, name: true, cluster: true, doc: true },
      orderBy: [{ kind: "asc" }, { namespace: "asc" }, { name: "asc" }, { cluster: "asc" }],
      take: BATCH,
      ...(cursor ? { cursor: { kind_namespace_name_cluster: cursor }, skip: 1 } : {}),
    });
    for (const { doc, ...key } of rows) {
      cursor = key;
      const shown = redactDocument(doc, by.secrets);
      if (shown === doc) continue;
      await openClient(prisma).indexEntry.update({
        where: { kind_namespace_name_cluster: key },
        data: { doc: shown as Prisma.InputJsonValue },
      });
      rewritten++;
    }
    if (rows.length < BATCH) return rewritten;
  }
}
