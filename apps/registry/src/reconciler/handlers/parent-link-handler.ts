import {
  checkParent,
  registrationDigest,
  RemoteRegistryError,
  unregisterFromParent,
} from "@stream-registry/federation";
import { ErrorCode } from "@stream-registry/core";
import { InfrastructureError } from "@stream-registry/provider-api";
import {
  findParentLink,
  findParentLinksToObserve,
  PARENT_LINK_RESOURCE,
  recordParentView,
  writeTransaction,
  type ObservationReport,
  type ParentLink,
  type ParentView,
} from "@stream-registry/store";
import type { RegistryKeys } from "../../auth/registry-keys.ts";
import type { RegistryIdentity } from "../../identity.ts";
import type { Logger } from "../../logger.ts";
import type { SelfDescription } from "../../services/child-registry-service.ts";
import type { ServiceDeps } from "../../services/deps.ts";
import {
  checkParentView,
  PARENT_TIMEOUT_MS,
  parentView,
  registerWith,
} from "../../services/parent-registration.ts";
import type { ReconcileHandler } from "../handler.ts";

/** The calls the link makes to the parent registry: over HTTP, but in the kernel's test suite. */
export interface ParentCalls {
  register: typeof registerWith;
  check: typeof checkParent;
  unregister: typeof unregisterFromParent;
}

const OVER_HTTP: ParentCalls = {
  register: registerWith,
  check: checkParent,
  unregister: unregisterFromParent,
};

type ParentLinkDeps = Pick<ServiceDeps, "db"> & {
  identity: RegistryIdentity;
  self: SelfDescription;
  logger: Logger;
  /** Signs the token this registry checks its registration with (its own, for the parent). */
  registryKeys: Pick<RegistryKeys, "headersFor">;
  parent?: ParentCalls;
};

/**
 * The link to the parent registry, a kind of the reconcile kernel: realized by registering with
 * the parent, observed by asking the parent whether it still knows this registry (and what its own
 * path is now, so that a parent moved elsewhere moves this registry's path too), removed by
 * unregistering. A parent that lost the registration (a restore, a reset) makes the link vanish,
 * and the kernel registers it again.
 */
export function parentLinkHandler(deps: ParentLinkDeps): ReconcileHandler<ParentLink> {
  const { identity, self } = deps;
  const calls = deps.parent ?? OVER_HTTP;
  /** Stores what the parent said of itself; this registry's path follows it. */
  const record = async (link: ParentLink, parent: ParentView) => {
    const settings = await writeTransaction(deps.db.prisma, (tx) =>
      recordParentView(tx, link.id, parent, "reconciler"),
    );
    if (settings) {
      identity.apply(settings);
      deps.logger.info({ parent: link.url, namespace: identity.path }, "namespace moved with its parent");
    }
  };
  const register = async (link: ParentLink, signal: AbortSignal): Promise<ObservationReport> => {
    const name = identity.name;
    if (name === null) {
      throw new InfrastructureError("this registry has no name to register under", { retriable: false });
    }
    const answer = await calls.register(link, name, identity, self, signal).catch(unreachable);
    // Refused (another child took the name, a cycle, a parent that forgot this registry and wants
    // the enrollment token, which is not kept): FAILED with the reasons.
    // Suspended by the parent's admin (FORBIDDEN): retried, so it is registered again once resumed.
    if (!answer.accepted) {
      const suspended = answer.userErrors.some((e) => e.code === ErrorCode.FORBIDDEN);
      throw new InfrastructureError(answer.refusal, { retriable: suspended });
    }
    await record(link, answer.parent);
    return {
      message: `registered with ${link.url} as ${identity.path}`,
      details: { parentPath: answer.parent.path },
    };
  };
  return {
    resource: PARENT_LINK_RESOURCE,
    load: (id) => findParentLink(deps.db.prisma, id),
    name: (link) => link.url,
    location: (link) => `parent registry ${link.url}`,
    // Registering is idempotent for a registry id: a lost answer is asked again, never adopted.
    // No batch calls either: a registry has one live link at a time (parent_link_one_live).
    journaled: () => false,
    createRequest: (link) => ({ url: link.url }),
    create: (link, _request, { signal }) => register(link, signal),
    update: (link, { signal }) => register(link, signal),
    async observe(link, { signal }) {
      // Registered, but the parent's id unknown: registering again says who it is.
      if (link.parentRegistryId === null) return null;
      const checked = await calls
        .check(link.url, identity.registryId, {
          timeoutMs: PARENT_TIMEOUT_MS,
          signal,
          // A token of its own, which the parent verifies with the keys it pinned for this registry.
          headers: deps.registryKeys.headersFor(link.parentRegistryId),
        })
        .catch((error: unknown) => {
          // A parent that forgot this registry (restored from a backup without it) has no keys of it
          // and refuses its token: registering again says so (it takes the enrollment token).
          if (error instanceof RemoteRegistryError && error.failure === "unauthenticated") return null;
          return unreachable(error);
        });
      if (!checked) return null;
      const { parent, child } = checked;
      // Registered again when the parent forgot it, when another registry answers at that URL now
      // (a reset database), or when what it holds is out of date (a new URL, name, version or keys).
      const stale =
        !child ||
        child.name !== identity.name ||
        child.url !== self.url() ||
        child.version !== self.version ||
        keyIds(child.keys) !== keyIds(self.keys());
      if (stale || (link.parentRegistryId !== null && parent.id !== link.parentRegistryId)) return null;
      const wrong = checkParentView(parent, identity.registryId);
      if (wrong)
        throw new InfrastructureError(`the parent registry at ${link.url} ${wrong}`, { retriable: false });
      await record(link, parentView(parent));
      return {
        message: `registered with ${link.url} as ${identity.path}`,
        details: { parentPath: parent.namespace },
      };
    },
    async remove(link, { signal }) {
      const registryId = identity.registryId;
      // Never registered there (its answer unknown): nothing to prove, nothing to forget.
      if (link.parentRegistryId === null) return;
      const proof = await self.prove(
        link.parentRegistryId,
        "unregister",
        registrationDigest("unregister", { registryId }),
      );
      const refused = await calls
        .unregister(link.url, { registryId, proof }, { timeoutMs: PARENT_TIMEOUT_MS, signal })
        .catch(unreachable);
      // A parent that refuses (it pinned keys this registry no longer holds) cannot be made to
      // forget it; its admin can (DROP CHILD REGISTRY). Retrying would change nothing.
      if (refused.length > 0) {
        deps.logger.warn(
          { parent: link.url, refused: refused.map((e) => e.message) },
          "the old parent refused to unregister this registry; leaving it",
        );
      }
    },
    findToObserve: (query) => findParentLinksToObserve(deps.db.prisma, query),
  };
}

/** Keys by what identifies them. */
function keyIds(keys: readonly { kid?: unknown; x?: unknown }[]): string {
  return JSON.stringify(keys.map((key) => [key.kid, key.x]));
}

/** A parent that does not answer as a registry is retried, as a platform outage is. */
function unreachable(error: unknown): never {
  if (error instanceof RemoteRegistryError) throw new InfrastructureError(error.message, { retriable: true });
  throw error;
}
