import DataLoader from "dataloader";
import type { Binding, Cluster, ClusterHealth, ConnectorRole, Stream } from "@stream-registry/core";
import {
  findBindingsOf,
  findClusterHealth,
  findConnectorObservations,
  findConnectorsByNames,
  findObservations,
  findClustersByIds,
  findClustersByNames,
  findStreamsByIds,
  findStreamsByNames,
  findIndexed,
  findIndexedBindingsOf,
  type BindingOnCluster,
  type Db,
  type IndexedEntry,
  type IndexKey,
} from "@stream-registry/store";
import type { BindingObservationModel, ConnectorModel } from "./models.ts";

/** Per-request batching: a page of streams with their bindings and clusters costs a fixed number of queries. */
export interface Loaders {
  clusterById: DataLoader<string, Cluster | undefined>;
  clusterByName: DataLoader<string, Cluster | undefined>;
  streamById: DataLoader<string, Stream | undefined>;
  streamByName: DataLoader<string, Stream | undefined>;
  bindingsByStreamId: DataLoader<string, Binding[]>;
  bindingsByClusterId: DataLoader<string, Binding[]>;
  healthByClusterId: DataLoader<string, ClusterHealth | undefined>;
  observationByBindingId: DataLoader<string, BindingObservationModel | undefined>;
  /** Sources or sinks by their role and name (a parent's `_entities` asks for a page at once). */
  connectorByName: Record<ConnectorRole, DataLoader<string, ConnectorModel | undefined>>;
  /** What the provider last saw of a source or sink, by its role and id (null: not observed yet). */
  connectorObservation: Record<ConnectorRole, DataLoader<string, ConnectorObservationRow | null>>;
  /** The discovery index's rows (indexed-objects.ts): by key, and the bindings of a stream or cluster. */
  indexedEntry: DataLoader<IndexKey, IndexedEntry | undefined, string>;
  indexedBindingsOfStream: DataLoader<IndexedOwner, IndexedEntry[], string>;
  indexedBindingsOfCluster: DataLoader<IndexedOwner, IndexedEntry[], string>;
}

/** A source's or sink's observation row, as stored. */
export type ConnectorObservationRow = { message: string | null; details: unknown; observedAt: Date };

/** A stream or cluster of the index: its namespace below this registry's, and its name. */
interface IndexedOwner {
  namespace: string;
  name: string;
}

export function createLoaders(db: Db): Loaders {
  const clusterById = new DataLoader<string, Cluster | undefined>(async (ids) =>
    byKey(ids, await findClustersByIds(db, ids), (c) => c.id),
  );
  const clusterByName = new DataLoader<string, Cluster | undefined>(async (names) =>
    byKey(names, await findClustersByNames(db, names), (c) => c.name),
  );
  const streamById = new DataLoader<string, Stream | undefined>(async (ids) =>
    byKey(ids, await findStreamsByIds(db, ids), (s) => s.id),
  );
  const streamByName = new DataLoader<string, Stream | undefined>(async (names) =>
    byKey(names, await findStreamsByNames(db, names), (s) => s.name),
  );
  // A binding's cluster comes with it (one query) and is primed, so `cluster { name }` costs none.
  const withClusters = (bindings: BindingOnCluster[]) => {
    primeClusters(
      { clusterById, clusterByName },
      bindings.map((b) => b.cluster),
    );
    return bindings;
  };
  const bindingsByStreamId = new DataLoader<string, Binding[]>(async (ids) =>
    groupBy(ids, withClusters(await findBindingsOf(db, { streamIds: ids })), (b) => b.streamId),
  );
  const bindingsByClusterId = new DataLoader<string, Binding[]>(async (ids) =>
    groupBy(ids, withClusters(await findBindingsOf(db, { clusterIds: ids })), (b) => b.clusterId),
  );
  const healthByClusterId = new DataLoader<string, ClusterHealth | undefined>(async (ids) =>
    byKey(ids, await findClusterHealth(db, ids), (h) => h.clusterId),
  );
  const observationByBindingId = new DataLoader<string, BindingObservationModel | undefined>(async (ids) =>
    byKey(ids, await findObservations(db, ids), (o) => o.bindingId),
  );
  const connectorByName = (role: ConnectorRole) =>
    new DataLoader<string, ConnectorModel | undefined>(async (names) =>
      byKey(names, await findConnectorsByNames(db, role, names), (k) => k.name),
    );
  const connectorObservation = (role: ConnectorRole) =>
    new DataLoader<string, ConnectorObservationRow | null>(async (ids) => {
      const found = await findConnectorObservations(db, role, ids);
      return ids.map((id) => found.get(id) ?? null);
    });
  const indexedEntry = new DataLoader<IndexKey, IndexedEntry | undefined, string>(
    async (keys) => byKey(keys.map(indexKeyId), await findIndexed(db, keys), indexKeyId),
    { cacheKeyFn: indexKeyId },
  );
  const indexedBindingsOf = (of: "stream" | "cluster") =>
    new DataLoader<IndexedOwner, IndexedEntry[], string>(
      async (owners) =>
        groupBy(owners.map(ownerId), await findIndexedBindingsOf(db, of, owners), (b) =>
          ownerId({ namespace: b.namespace, name: of === "stream" ? b.name : b.cluster }),
        ),
      { cacheKeyFn: ownerId },
    );
  return {
    indexedEntry,
    indexedBindingsOfStream: indexedBindingsOf("stream"),
    indexedBindingsOfCluster: indexedBindingsOf("cluster"),
    clusterById,
    clusterByName,
    streamById,
    streamByName,
    bindingsByStreamId,
    bindingsByClusterId,
    healthByClusterId,
    observationByBindingId,
    connectorByName: { source: connectorByName("source"), sink: connectorByName("sink") },
    connectorObservation: { source: connectorObservation("source"), sink: connectorObservation("sink") },
  };
}

/** Rows fetched elsewhere (a page of streams) feed the loaders so that no query repeats them. */
export function primeStreams(loaders: Loaders, streams: readonly Stream[]): void {
  for (const stream of streams) {
    loaders.streamById.prime(stream.id, stream);
    loaders.streamByName.prime(stream.name, stream);
  }
}

export function primeClusters(
  loaders: Pick<Loaders, "clusterById" | "clusterByName">,
  clusters: readonly Cluster[],
): void {
  for (const cluster of clusters) {
    loaders.clusterById.prime(cluster.id, cluster);
    loaders.clusterByName.prime(cluster.name, cluster);
  }
}

function byKey<T>(keys: readonly string[], rows: T[], key: (row: T) => string): (T | undefined)[] {
  const map = new Map(rows.map((row) => [key(row), row]));
  return keys.map((k) => map.get(k));
}

function groupBy<T>(keys: readonly string[], rows: T[], key: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) groups.get(key(row))?.push(row);
  return keys.map((k) => groups.get(k) ?? []);
}

function indexKeyId(key: IndexKey): string {
  return JSON.stringify([key.kind, key.namespace, key.name, key.cluster]);
}

function ownerId(owner: IndexedOwner): string {
  return JSON.stringify([owner.namespace, owner.name]);
}
