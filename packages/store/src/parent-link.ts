import { type PendingCreate, type ResourceStatus } from "@stream-registry/core";
import { recordChange } from "./change-log.ts";
import type { Db } from "./db.ts";
import { enqueueJob } from "./job-queue.ts";
import { lockRegistrySettings, settingsChanged, type RegistrySettings } from "./registry-settings.ts";
import { writeResourcePhase } from "./resource-phase.ts";
import { findResourcesToObserve } from "./resource-status.ts";
import { defineResourceTable } from "./resource-table.ts";
import type { PublicJwk } from "./registry-keys.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/** Where the link to the parent keeps its status block and observations (a kind of the kernel). */
export const PARENT_LINK_RESOURCE = defineResourceTable({
  kind: "parent_link",
  table: "parent_link",
  observationTable: "parent_link_observation",
  observationKey: "link_id",
});

/**
 * This registry's link to its parent registry, with what the parent last said of itself. It holds
 * no secret: the enrollment token served the first registration, and is not kept; afterwards
 * this registry proves itself with its signing keys (registry_key, sealed).
 */
export interface ParentLink extends ResourceStatus {
  url: string;
  parentRegistryId: string | null;
  parentPath: string | null;
  message: string | null;
  statusUpdatedAt: Date;
}

/** What the parent answered of itself: its registry id, namespace path, ancestors and public keys. */
export interface ParentView {
  registryId: string;
  path: string;
  ancestors: string[];
  /** Its public signing keys: the only keys its tokens are verified with here. */
  keys: PublicJwk[];
}

const COLUMNS = `id::text AS id, url, parent_registry_id::text AS "parentRegistryId",
  parent_path AS "parentPath", generation, observed_generation AS "observedGeneration",
  pending_creates AS "pendingCreates", phase::text AS phase, message, status_updated_at AS "statusUpdatedAt"`;

type Row = Omit<ParentLink, "pendingCreates"> & { pendingCreates: unknown };

const toLink = (row: Row): ParentLink => ({
  ...row,
  pendingCreates: row.pendingCreates as PendingCreate[] | null,
});

export async function findParentLink(db: Db, id: string): Promise<ParentLink | null> {
  const [row] = await open(db).$queryRawUnsafe<Row[]>(
    `SELECT ${COLUMNS} FROM parent_link WHERE id = $1::uuid`,
    id,
  );
  return row ? toLink(row) : null;
}

/** The link in use (not DELETING), if this registry has a parent. */
export async function findLiveParentLink(db: Db): Promise<ParentLink | null> {
  const [row] = await open(db).$queryRawUnsafe<Row[]>(
    `SELECT ${COLUMNS} FROM parent_link WHERE phase <> 'DELETING'`,
  );
  return row ? toLink(row) : null;
}

/**
 * Makes `url` this registry's parent, after the parent accepted its registration (`parent` is
 * what it answered): the link is written ONLINE with no job. A link to another parent is DELETING
 * with a job, which unregisters from that parent; declaring the parent it has is a new generation.
 * One transaction with the settings locked: returns the link and the settings as they are now.
 */
export async function declareParentLink(
  tx: Tx,
  declared: { url: string; parent: ParentView },
  actor: string,
): Promise<{ link: ParentLink; settings: RegistrySettings }> {
  const before = await lockRegistrySettings(tx);
  const live = await findLiveParentLink(tx);
  let id = live?.url === declared.url ? live.id : undefined;
  if (live && !id) await leave(tx, live, actor);
  const { parent } = declared;
  if (id) {
    await open(tx).$executeRawUnsafe(
      `UPDATE parent_link SET generation = generation + 1, updated_at = $2 WHERE id = $1::uuid`,
      id,
      new Date(),
    );
  } else {
    const [made] = await open(tx).$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO parent_link (id, url, updated_at)
       VALUES (gen_random_uuid(), $1, $2) RETURNING id::text AS id`,
      declared.url,
      new Date(),
    );
    id = made!.id;
  }
  await writeParentView(tx, id, parent);
  const link = (await findParentLink(tx, id))!;
  await recordChange(tx, {
    entityType: PARENT_LINK_RESOURCE.kind,
    entityKey: link.url,
    action: live?.id === id ? "updated" : "created",
    generation: link.generation,
    actor,
    data: { url: link.url, parentPath: parent.path },
  });
  // Registered before this transaction: the generation just written is realized.
  await writeResourcePhase(
    tx,
    PARENT_LINK_RESOURCE,
    { id },
    { from: link.phase, event: "realized" },
    { observedGeneration: link.generation, clearJournal: true, message: null },
  );
  return { link: (await findParentLink(tx, id))!, settings: await settingsChanged(tx, before, actor) };
}

/**
 * Leaves the parent: the live link is DELETING with a job that unregisters from it. Returns the
 * link (null if there was none) and the settings as they are now.
 */
export async function dropParentLink(
  tx: Tx,
  actor: string,
): Promise<{ link: ParentLink | null; settings: RegistrySettings }> {
  const before = await lockRegistrySettings(tx);
  const live = await findLiveParentLink(tx);
  if (!live) return { link: null, settings: before };
  await leave(tx, live, actor);
  return { link: await findParentLink(tx, live.id), settings: await settingsChanged(tx, before, actor) };
}

async function leave(tx: Tx, link: ParentLink, actor: string): Promise<void> {
  await writeResourcePhase(
    tx,
    PARENT_LINK_RESOURCE,
    { id: link.id },
    { from: link.phase, event: "delete-requested" },
  );
  await enqueueJob(tx, PARENT_LINK_RESOURCE.kind, link.id);
  await recordChange(tx, {
    entityType: PARENT_LINK_RESOURCE.kind,
    entityKey: link.url,
    action: "delete-requested",
    generation: link.generation,
    actor,
  });
}

/**
 * What the parent answered of itself, seen by the link's reconcile or check: written, with a new
 * settings generation (and a change-log entry if this registry's path changed), only if it differs
 * from what the link holds and the link is still live. Returns the settings if they changed.
 */
export async function recordParentView(
  tx: Tx,
  linkId: string,
  parent: ParentView,
  actor: string,
): Promise<RegistrySettings | null> {
  const before = await lockRegistrySettings(tx);
  const [current] = await open(tx).$queryRawUnsafe<{ same: boolean }[]>(
    `SELECT parent_registry_id = $2::uuid AND parent_path = $3 AND ancestors = $4::jsonb
       AND keys = $5::jsonb AS same
     FROM parent_link WHERE id = $1::uuid AND phase <> 'DELETING'`,
    linkId,
    parent.registryId,
    parent.path,
    JSON.stringify(parent.ancestors),
    JSON.stringify(parent.keys),
  );
  if (!current || current.same) return null;
  await writeParentView(tx, linkId, parent);
  return settingsChanged(tx, before, actor);
}

async function writeParentView(tx: Tx, id: string, parent: ParentView): Promise<void> {
  await open(tx).$executeRawUnsafe(
    `UPDATE parent_link SET parent_registry_id = $2::uuid, parent_path = $3, ancestors = $4::jsonb,
       keys = $5::jsonb
     WHERE id = $1::uuid`,
    id,
    parent.registryId,
    parent.path,
    JSON.stringify(parent.ancestors),
    JSON.stringify(parent.keys),
  );
}

/** Links the resync checks: ONLINE, not checked since `before`, in id order after `after`. */
export async function findParentLinksToObserve(
  db: Db,
  query: { before: Date; after: string | undefined; limit: number },
): Promise<ParentLink[]> {
  const ids = await findResourcesToObserve(db, PARENT_LINK_RESOURCE, query);
  const links = await Promise.all(ids.map((id) => findParentLink(db, id)));
  return links.filter((link) => link !== null);
}
