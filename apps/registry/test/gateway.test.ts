import { composeServices } from "@theguild/federation-composition";
import { parse } from "graphql";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  registryClient,
  seedChain,
  startRegistryTree,
  type RegistryClient,
  type RegistryNode,
} from "@stream-registry/testkit";
import { startHiveGateway } from "./support/hive-gateway.ts";
import { onCallFor, startRotaSubgraph, type StreamKey } from "./support/rota-subgraph.ts";

// What a company does with the registry: its own subgraph (an on-call rota) extends `Stream`, and a
// federation gateway (Hive Gateway, MIT) serves both. The gateway knows only the root registry,
// which lists and resolves the whole tree; real processes and real HTTP throughout.
const ROOT_STREAM: StreamKey = { namespace: "/", name: "orders_v1" };
const AWS_STREAM: StreamKey = { namespace: "/aws", name: "payments_v1" };

describe(
  "a federation gateway over the registry tree (/, /aws) and a rota subgraph",
  { timeout: 120_000 },
  () => {
    let tree: Map<string, RegistryNode>;
    let gateway: RegistryClient;
    const cleanups: (() => PromiseLike<unknown>)[] = [];
    const at = (path: string) => tree.get(path)!;

    beforeAll(async () => {
      tree = await startRegistryTree(["/", "/aws"], { env: { RECONCILER_RESYNC_MS: "500" } });
      cleanups.push(() => Promise.all([...tree.values()].map((node) => node.dispose())));
      const root = at("/");
      // /aws's through the root, as for any namespace below it.
      await seedChain(root)
        .stream({ name: ROOT_STREAM.name })
        .at(AWS_STREAM.namespace)
        .stream({ name: AWS_STREAM.name })
        .cluster({ name: "c1" })
        .binding();

      // Lists at the root come from its discovery index, which follows /aws's feed within moments.
      await eventually(
        async () =>
          (await root.query<{ streams: { totalCount: number } }>(`{ streams { totalCount } }`)).streams
            .totalCount === 2 || undefined,
        30_000,
        "the root's index to hold /aws's stream",
      );

      const rota = await startRotaSubgraph([ROOT_STREAM, AWS_STREAM]);
      cleanups.push(() => rota[Symbol.asyncDispose]());

      // Compose from what each subgraph serves, as a deployment pipeline would.
      const sdlOf = async (url: string) =>
        (await registryClient(url).query<{ _service: { sdl: string } }>("{ _service { sdl } }"))._service.sdl;
      const composed = composeServices([
        { name: "registry", url: root.url, typeDefs: parse(await sdlOf(root.url)) },
        { name: "rota", url: rota.url, typeDefs: parse(await sdlOf(rota.url)) },
      ]);
      expect(composed.errors ?? []).toEqual([]);

      const hive = await startHiveGateway(composed.supergraphSdl!);
      cleanups.push(() => hive[Symbol.asyncDispose]());
      gateway = registryClient(hive.url);
    }, 300_000);

    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    afterEach(({ task }) => {
      if (task.result?.state !== "fail" || !tree) return;
      for (const node of tree.values()) {
        console.error(`--- registry ${node.path}:\n${node.logs().join("\n")}`); // eslint-disable-line no-console
      }
    });

    it("lists the streams of the whole tree from the root, each with its onCall from the rota", async () => {
      const { streams } = await gateway.query<{ streams: { nodes: unknown[] } }>(
        `{ streams { nodes { namespace name onCall } } }`,
      );
      expect(streams.nodes).toEqual([
        { ...ROOT_STREAM, onCall: onCallFor("/") },
        { ...AWS_STREAM, onCall: onCallFor("/aws") },
      ]);
    });

    it("resolves a stream of /aws from the rota's shifts through the root's _entities", async () => {
      const forwarded = () =>
        at("/aws")
          .logs()
          .filter((line) => line.includes('"operationName":"Forwarded_entities"')).length;
      const before = forwarded();
      const { shifts } = await gateway.query<{
        shifts: {
          person: string;
          stream: { name: string; createdAt: string; bindings: { fqn: string }[] };
        }[];
      }>(`{ shifts { person stream { namespace name createdAt bindings { fqn } } } }`);
      const aws = shifts.find((shift) => shift.stream.name === AWS_STREAM.name);
      expect(aws).toMatchObject({
        person: onCallFor("/aws"),
        stream: { ...AWS_STREAM, bindings: [{ fqn: "/aws/c1/payments_v1" }] },
      });
      // The /aws registry's own answer: the root routed the representation there.
      const { stream } = await at("/aws").query<{ stream: { createdAt: string } }>(
        `query ($name: String!) { stream(name: $name) { createdAt } }`,
        { name: AWS_STREAM.name },
      );
      expect(aws?.stream.createdAt).toBe(stream.createdAt);
      expect(shifts.find((shift) => shift.stream.name === ROOT_STREAM.name)?.stream).toMatchObject(
        ROOT_STREAM,
      );
      expect(forwarded()).toBeGreaterThan(before);
    });
  },
);
