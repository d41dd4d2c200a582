import {
  DEFAULT_AUTO_RESTART,
  generateSecretKey,
  Keyring,
  type ConnectorRole,
  type PendingCreate,
  type Phase,
} from "@stream-registry/core";
import { Access } from "@stream-registry/core";
import type { ConnectorManager, StreamProvider } from "@stream-registry/provider-api";
import type { Database, ResourceTable } from "@stream-registry/store";
import { ProviderRegistry } from "../../src/providers/provider-registry.ts";
import type { ReconcileHandler } from "../../src/reconciler/handler.ts";
import { bindingHandler } from "../../src/reconciler/handlers/binding-handler.ts";
import { connectorHandler } from "../../src/reconciler/handlers/connector-handler.ts";
import { RegistryIdentity } from "../../src/identity.ts";
import { createServices } from "../../src/services/services.ts";
import type { FakePlatform } from "./fake-platform.ts";
import { createWidgetTables, widgetHandler, widgetWrites } from "./widgets.ts";
import { prismaOf } from "@stream-registry/store/testing";

/** The status block of one resource, as the kernel test reads it. */
export interface Status {
  generation: number;
  observedGeneration: number | null;
  phase: Phase;
  message: string | null;
  pendingCreates: PendingCreate[] | null;
}

/**
 * One resource kind under test: its handler over the fake platform, and its own way of writing a
 * desired state (each write enqueues a job). A resource is named by `name` everywhere, on the
 * platform too, and has one knob, `size`.
 */
export interface Subject {
  kind: string;
  handler: ReconcileHandler;
  create(name: string, size: number): Promise<string>;
  change(name: string, size: number): Promise<void>;
  remove(name: string): Promise<void>;
  /** The spec the platform holds for a resource of `size`. */
  spec(size: number): unknown;
  /** The message of a resource realized at `size`, if its handler's own (else the platform's). */
  realized?(name: string, size: number): string;
}

export type SubjectFactory = (db: Database, platform: FakePlatform) => Promise<Subject>;

// The kernel is what is tested here, not who may write.
const actor = { actor: "kernel-test", access: Access.unrestricted("/") };
const CLUSTER = "fakes";
const FAKE = { kind: "fake", description: "the kernel test's fake platform", configMaps: [] };
/** A cluster that is always there, and streams it always takes. */
const REACHABLE = {
  validateCluster: async () => ({ latencyMs: 0 }),
  probeCluster: async () => ({ latencyMs: 0 }),
  validateStream: async () => {},
};

/** Bindings on a cluster whose provider keeps its topics on the fake platform, written through the services. */
export const bindings: SubjectFactory = async (db, platform) => {
  const fake = {
    ...FAKE,
    infrastructure: {
      ...REACHABLE,
      createStreamBinding: (request, { signal }) =>
        platform.create(request.streamName, request.configMaps["fake.platform"], signal),
      createStreamBindings: (requests, { signal }) =>
        platform.createMany(
          requests.map((request) => ({
            name: request.streamName,
            spec: request.configMaps["fake.platform"],
          })),
          signal,
        ),
      updateStreamBinding: (request, { signal }) =>
        platform.update(request.streamName, request.configMaps["fake.platform"], signal),
      observeStreamBinding: (stream, _cluster, { signal }) => platform.observe(stream, signal),
      deleteStreamBinding: (stream, _cluster, { signal }) => platform.remove(stream, signal),
      deleteStreamBindings: (bindings, { signal }) =>
        platform.removeMany(
          bindings.map((binding) => binding.streamName),
          signal,
        ),
    },
  } satisfies StreamProvider;
  const { deps, services } = await fakeRegistry(db, fake);
  const config = (size: number) => ({ "fake.platform": { size } });
  return {
    kind: "binding",
    handler: bindingHandler(deps),
    async create(name, size) {
      await services.streams.create({ name, config: config(size) }, actor);
      return (await services.bindings.create({ stream: name, cluster: CLUSTER }, actor)).id;
    },
    async change(name, size) {
      await services.bindings.update({ stream: name, cluster: CLUSTER, config: config(size) }, actor);
    },
    async remove(name) {
      await services.bindings.delete({ stream: name, cluster: CLUSTER }, actor);
    },
    spec: (size) => ({ size }),
  };
};

/** A registry's services over the kernel test's database, its one provider `fake` and its cluster. */
async function fakeRegistry(db: Database, fake: StreamProvider) {
  const deps = {
    db,
    providers: new ProviderRegistry(new Map([["fake", fake]])),
    namespace: "/",
    keyring: new Keyring([generateSecretKey("test")]),
    wakeReconciler: () => {},
  };
  const identity = await RegistryIdentity.load(db.prisma, false, () => {});
  // A registry with no parent and no children: what it would tell them is never asked.
  const self = {
    sdl: "",
    version: "kernel-test",
    url: () => "http://127.0.0.1:9/graphql",
    keys: () => [],
    prove: () => Promise.reject(new Error("this registry has no parent to prove itself to")),
  };
  const services = createServices(deps, { identity, self });
  await services.clusters.declare({ name: CLUSTER, provider: "fake" }, actor);
  return { deps, services };
}

/**
 * Stream sources or sinks on a cluster whose provider keeps its connectors on the fake platform,
 * written through the services; each on a binding of its stream (which this kernel leaves PENDING:
 * its bindings realize nothing here).
 */
export const connectors =
  (role: ConnectorRole): SubjectFactory =>
  async (db, platform) => {
    // The fake platform reports no connector state: the kernel, not Connect, is under test.
    const seen = <T>(made: Promise<T>) => made as Promise<never>;
    const manager: ConnectorManager = {
      create: (request, { signal }) =>
        seen(platform.create(request.name, request.configMaps["fake.platform"], signal)),
      update: (request, { signal }) =>
        seen(platform.update(request.name, request.configMaps["fake.platform"], signal)),
      observe: (target, { signal }) => seen(platform.observe(target.name, signal)),
      remove: (target, { signal }) => platform.remove(target.name, signal),
      types: async () => ({ types: [{ name: "fake", class: "fake.Connector" }] }),
      validate: async () => [],
      restart: async () => {},
    };
    const fake = {
      ...FAKE,
      infrastructure: {
        ...REACHABLE,
        createStreamBinding: async () => {},
        updateStreamBinding: async () => {},
        observeStreamBinding: async () => null,
        deleteStreamBinding: async () => {},
      },
      [role === "source" ? "sources" : "sinks"]: manager,
    } as StreamProvider;
    const { deps, services } = await fakeRegistry(db, fake);
    const service = role === "source" ? services.sources : services.sinks;
    const config = (size: number) => ({ "fake.platform": { size } });
    return {
      kind: role,
      handler: connectorHandler({ ...deps, restart: DEFAULT_AUTO_RESTART }, role),
      async create(name, size) {
        await services.streams.create({ name }, actor);
        await services.bindings.create({ stream: name, cluster: CLUSTER }, actor);
        return (await service.create({ name, cluster: CLUSTER, type: "fake", config: config(size) }, actor))
          .id;
      },
      async change(name, size) {
        await service.update({ name, config: config(size) }, actor);
      },
      async remove(name) {
        await service.delete(name, actor);
      },
      spec: (size) => ({ size }),
    };
  };

/** The test's own kind, `test_widget`: a table made here, writes and a handler of a few lines. */
export const widgets: SubjectFactory = async (db, platform) => {
  await createWidgetTables(db);
  return {
    kind: "test_widget",
    handler: widgetHandler(db, platform),
    ...widgetWrites(db),
    spec: (size) => ({ size }),
  };
};

/** The status block of `id` in `resource`'s table; null once the row is gone. */
export async function statusOf(db: Database, resource: ResourceTable, id: string): Promise<Status | null> {
  const [row] = await prismaOf(db.prisma).$queryRaw<
    {
      generation: number;
      observed_generation: number | null;
      phase: Phase;
      message: string | null;
      pending_creates: PendingCreate[] | null;
    }[]
  >`SELECT generation, observed_generation, phase, message, pending_creates
      FROM ${resource.table} WHERE id = ${id}::uuid`;
  return row
    ? {
        generation: row.generation,
        observedGeneration: row.observed_generation,
        phase: row.phase,
        message: row.message,
        pendingCreates: row.pending_creates,
      }
    : null;
}
