import type { Cluster, ResourceStatus } from "@stream-registry/core";
import {
  InfrastructureError,
  settle,
  type ClusterTarget,
  type ResourceManager,
  type ResourceObservation,
  type StreamProvider,
} from "@stream-registry/provider-api";
import { clusterTarget } from "../../providers/cluster-target.ts";
import type { ServiceDeps } from "../../services/deps.ts";
import type { CreateRequest, ReconcileHandler } from "../handler.ts";

/** Opens a cluster for its provider: its secrets decrypted, once per call or batch. */
export type OpenCluster = (cluster: Cluster) => Promise<ClusterTarget>;

/** What a provider-realized kind says of itself; the kernel calls it through the factory's glue. */
export interface ManagedKind<R extends ResourceStatus, Request, Target> extends Omit<
  ReconcileHandler<R>,
  "create" | "createMany" | "update" | "observe" | "remove" | "removeMany"
> {
  /** What a refusal calls the kind, e.g. "stream sources". */
  readonly plural: string;
  /** The cluster whose provider realizes it. */
  cluster(r: R): Cluster;
  /** The kind's manager in a provider; undefined where the provider does not support the kind. */
  manager(provider: StreamProvider): ResourceManager<Request, ResourceObservation, Target> | undefined;
  /**
   * What a create (of `journaled`, a request its create journal kept, else of the current desired
   * state) or an update sends the manager, secrets opened.
   */
  request(r: R, journaled: CreateRequest | undefined, open: OpenCluster): Promise<Request>;
  /** How observe and remove name it to the manager. */
  target(r: R, open: OpenCluster): Promise<Target>;
}

export type ManagedKindDeps = Pick<ServiceDeps, "db" | "providers" | "keyring" | "namespace">;

/**
 * The handler of a kind realized by a provider manager (ResourceManager): the kind says how it is
 * loaded, named and turned into requests; this finds its cluster's provider and the kind's
 * manager there, opens the cluster once per call or batch, and maps the kernel's calls onto the
 * manager's. With a `batchKey` it batches (`createMany`, `removeMany`) through the manager's batch
 * calls, or one call each where the provider has none.
 */
export function managedHandler<R extends ResourceStatus, Request, Target>(
  deps: ManagedKindDeps,
  kind: ManagedKind<R, Request, Target>,
): ReconcileHandler<R> {
  const { plural, cluster, manager, request, target, ...handler } = kind;
  const managerOf = (r: R): ResourceManager<Request, ResourceObservation, Target> => {
    const { provider: name } = cluster(r);
    const provider = deps.providers.get(name);
    // Retried, never FAILED: the fix is to load the provider, not to forget what it may have made.
    if (!provider)
      throw new Error(`provider "${name}" is not loaded in this registry (see REGISTRY_PROVIDERS)`);
    const found = manager(provider);
    if (!found)
      throw new InfrastructureError(`provider "${name}" does not support ${plural}`, { retriable: false });
    return found;
  };
  // The cluster's secrets are decrypted here, as it is reached; once for the resources of a batch.
  const opener = (): OpenCluster => {
    const opened = new Map<string, Promise<ClusterTarget>>();
    return (of) => {
      const key = `${of.id}:${of.generation}`;
      if (!opened.has(key)) opened.set(key, clusterTarget(deps, of));
      return opened.get(key)!;
    };
  };
  const batches: Pick<ReconcileHandler<R>, "createMany" | "removeMany"> = {
    async createMany(items, context) {
      const first = items[0];
      if (!first) return [];
      const many = managerOf(first.r);
      const open = opener();
      const requests = await Promise.all(
        items.map(({ r, request: journaled }) => request(r, journaled, open)),
      );
      if (many.createMany) return many.createMany(requests, context);
      return Promise.all(requests.map((one) => settle(many.create(one, context))));
    },
    async removeMany(resources, context) {
      const first = resources[0];
      if (!first) return [];
      const many = managerOf(first);
      const open = opener();
      const targets = await Promise.all(resources.map((r) => target(r, open)));
      if (many.removeMany) return many.removeMany(targets, context);
      return Promise.all(targets.map((one) => settle(many.remove(one, context))));
    },
  };
  return {
    ...handler,
    create: async (r, journaled, context) =>
      managerOf(r).create(await request(r, journaled, opener()), context),
    update: async (r, context) => managerOf(r).update(await request(r, undefined, opener()), context),
    observe: async (r, context) => {
      const one = managerOf(r);
      return one.observe(await target(r, opener()), context);
    },
    remove: async (r, context) => {
      const one = managerOf(r);
      return one.remove(await target(r, opener()), context);
    },
    ...(handler.batchKey ? batches : {}),
  };
}
