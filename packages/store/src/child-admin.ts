import { recordChange } from "./change-log.ts";
import { findChildRegistry, forgetChildRegistry, type ChildRegistry } from "./child-registries.ts";
import { lockRegistrySettings } from "./registry-settings.ts";
import type { Db } from "./db.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/** What an admin does to a child registry: suspend it, resume it, or remove its registration. */
export type ChildAdminAction = "suspend" | "resume" | "drop";

/**
 * Suspends, resumes or removes the child named `name`: the child as it is afterwards (as it was,
 * for a removal), or null when no child has that name. Suspending a suspended child, or resuming
 * one that is not, changes nothing and logs nothing. Applied one at a time with registrations (the
 * settings row is locked), so a registration never revives a child being removed.
 */
export async function administerChildRegistry(
  tx: Tx,
  name: string,
  action: ChildAdminAction,
  path: string,
  actor: string,
): Promise<ChildRegistry | null> {
  await lockRegistrySettings(tx);
  const found = await open(tx).childRegistry.findUnique({ where: { name }, select: { registryId: true } });
  const child = found && (await findChildRegistry(tx, found.registryId));
  if (!child) return null;
  if (action === "drop") {
    await forgetChildRegistry(tx, child, path, actor);
    return child;
  }
  const suspend = action === "suspend";
  if ((child.suspendedAt !== null) === suspend) return child;
  // In SQL: Prisma's @updatedAt would move `updatedAt`, which says when it last registered.
  await open(tx).$executeRaw`
    UPDATE child_registry SET suspended_at = ${suspend ? new Date() : null}::timestamptz,
      suspended_by = ${suspend ? actor : null}::text
    WHERE id = ${child.id}::uuid`;
  await recordChange(tx, {
    entityType: "child_registry",
    entityKey: path,
    action: suspend ? "suspended" : "resumed",
    generation: 1,
    actor,
    data: { registryId: child.registryId },
  });
  return findChildRegistry(tx, child.registryId);
}

/** Whether the child `registryId` is suspended here; null when it is not a child of this registry. */
export async function isChildSuspended(db: Db, registryId: string): Promise<boolean | null> {
  const found = await open(db).childRegistry.findUnique({
    where: { registryId },
    select: { suspendedAt: true },
  });
  return found && found.suspendedAt !== null;
}
