import { Phase } from "@stream-registry/core";
import { LIVE_PHASES, phaseCaseSql } from "./binding-phase.ts";
import { BINDING_COLUMNS, toBinding } from "./binding-row.ts";
import { toCluster } from "./cluster-row.ts";
import type { Db } from "./db.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/** The job kind that reconciles one binding (its target is the binding's id). */
export const BINDING_JOB = "binding";

/**
 * Gives every live binding of a stream or a cluster a new generation, a reconcile job and a
 * change-log entry, because what it realizes changed. Three set-based statements whatever the
 * number of bindings, so a cluster with thousands of them holds its bindings' row locks only briefly.
 * `fqnPrefix` is the namespace as it starts a fully qualified name ("/" or "/aws/").
 */
export async function touchBindings(
  tx: Tx,
  of: { streamId: string } | { clusterId: string },
  fqnPrefix: string,
  actor: string,
): Promise<number> {
  const [column, id] = "streamId" in of ? ["stream_id", of.streamId] : ["cluster_id", of.clusterId];
  const live = LIVE_PHASES.map((phase) => `'${phase}'`).join(", ");
  const touched = await open(tx).$queryRawUnsafe<{ id: string; generation: number; fqn: string }[]>(
    // Locked in id order first, as every writer locks bindings (row-locks.ts).
    `WITH locked AS (
       SELECT id FROM binding WHERE ${column} = $1::uuid AND phase IN (${live}) ORDER BY id FOR NO KEY UPDATE)
     UPDATE binding b SET generation = b.generation + 1,
       phase = ${phaseCaseSql("b.phase", "desired-changed", LIVE_PHASES)}, message = NULL,
       status_updated_at = now(), updated_at = now()
     FROM locked, stream s, cluster c
     WHERE b.id = locked.id AND b.phase IN (${live}) AND s.id = b.stream_id AND c.id = b.cluster_id
     RETURNING b.id::text AS id, b.generation, $2 || c.name || '/' || s.name AS fqn`,
    id,
    fqnPrefix,
  );
  if (touched.length === 0) return 0;
  const ids = touched.map((t) => t.id);
  await open(tx).$executeRaw`
    INSERT INTO job (kind, target_id) SELECT ${BINDING_JOB}, unnest(${ids}::text[])
    ON CONFLICT (kind, target_id) DO UPDATE SET seq = job.seq + 1, run_at = now(), attempts = 0, last_error = NULL`;
  await open(tx).$executeRaw`
    INSERT INTO change (entity_type, entity_key, action, generation, actor, data)
    SELECT 'binding', fqn, 'updated', generation, ${actor}, '{}'::jsonb
    FROM unnest(${touched.map((t) => t.fqn)}::text[], ${touched.map((t) => t.generation)}::int[]) AS t(fqn, generation)
    ORDER BY fqn`;
  return touched.length;
}

/** The live (not being deleted) bindings of a stream with their clusters, in id order. */
export async function findLiveBindingsOfStream(db: Db, streamId: string) {
  const rows = await open(db).binding.findMany({
    where: { streamId, phase: { not: Phase.DELETING } },
    select: { ...BINDING_COLUMNS, cluster: true },
    orderBy: { id: "asc" },
  });
  return rows.map(({ cluster, ...row }) => ({ ...toBinding(row), cluster: toCluster(cluster) }));
}

/** `id@generation` of each live binding of a stream, in id order: what a stream update validated against. */
export async function liveBindingVersions(db: Db, streamId: string): Promise<string[]> {
  const rows = await open(db).binding.findMany({
    where: { streamId, phase: { not: Phase.DELETING } },
    select: { id: true, generation: true },
    orderBy: { id: "asc" },
  });
  return rows.map((b) => `${b.id}@${b.generation}`);
}
