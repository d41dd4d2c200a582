import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  attach,
  eventually,
  freePort,
  mutate,
  queryDatabase,
  registryNode,
  startRegistryTree,
  TREE_TOKEN,
  type RegistryClient,
  type RegistryNode,
} from "@stream-registry/testkit";

// The seed's "Namespaces" with its Acme example: registries in separate processes, each with its
// own database, that talk only GraphQL over HTTP. Parents check their children and children their
// parents every half second here (RECONCILER_RESYNC_MS, REGISTRY_HEALTH_INTERVAL_MS).
const TREE = ["/", "/aws", "/aws/us-reg1-xyz", "/mpaas", "/mpaas/us-aus1-dc01"];
const ENV = {
  RECONCILER_RESYNC_MS: "500",
  REGISTRY_HEALTH_INTERVAL_MS: "500",
  REGISTRY_HEALTH_TIMEOUT_MS: "2000",
};

const SHOW = `{
  namespace { path parent { url namespace status { phase message } }
    children { path name url registryId health { status lastError } } }
  registry { id namespace ancestors }
}`;
interface Shown {
  namespace: {
    path: string;
    parent: {
      url: string;
      namespace: string | null;
      status: { phase: string; message: string | null };
    } | null;
    children: {
      path: string;
      name: string;
      url: string;
      registryId: string;
      health: { status: string; lastError: string | null };
    }[];
  };
  registry: { id: string; namespace: string; ancestors: string[] };
}
const show = (r: RegistryClient) => r.query<Shown>(SHOW);
const childPaths = async (r: RegistryClient) => (await show(r)).namespace.children.map((c) => c.path);

const DECLARE_PARENT = `mutation ($input: DeclareParentRegistryInput!) {
  declareParentRegistry(input: $input) { parent { url namespace status { phase } } namespace { path } userErrors { code field message } } }`;
type Payload = {
  namespace: { path: string } | null;
  userErrors: { code: string; field: string[]; message: string }[];
};
async function declareParent(r: RegistryClient, url: string, token = TREE_TOKEN): Promise<Payload> {
  const answer = await r.query<{ declareParentRegistry: Payload }>(DECLARE_PARENT, { input: { url, token } });
  return answer.declareParentRegistry;
}
const DECLARE_CLUSTER = `mutation ($input: DeclareClusterInput!) {
  declareCluster(input: $input) { cluster { name } userErrors { code field message } } }`;
const CREATE_STREAM = `mutation ($input: CreateStreamInput!) {
  createStream(input: $input) { stream { name } userErrors { code field message } } }`;
const STREAMS_PAGE = `query ($first: Int, $after: String, $filter: StreamFilter) {
  streams(first: $first, after: $after, filter: $filter) {
    totalCount pageInfo { hasNextPage endCursor } nodes { namespace name } } }`;
interface StreamPage {
  streams: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: { namespace: string; name: string }[];
  };
}
const changeCount = async (r: RegistryClient) =>
  (await r.query<{ changes: { totalCount: number } }>(`{ changes { totalCount } }`)).changes.totalCount;

// Each test waits for processes: a restart, or a check of the others, on a loaded 2-core machine.
describe(
  "a tree of registries (/, /aws, /aws/us-reg1-xyz, /mpaas, /mpaas/us-aus1-dc01)",
  { timeout: 120_000 },
  () => {
    let tree: Map<string, RegistryNode>;
    // Another registry named "aws", outside the tree, started without REGISTRY_ENROLLMENT_TOKEN.
    let impostor: RegistryNode;
    const at = (path: string) => tree.get(path)!;
    beforeAll(async () => {
      [tree, impostor] = await Promise.all([
        // Both databases: the inner registries on PostgreSQL, the others on the embedded PGlite.
        startRegistryTree(TREE, { kinds: { "/": "postgres", "/aws": "postgres" }, env: ENV }),
        registryNode("/aws", "pglite", ENV).then(async (node) => {
          await node.start();
          return node;
        }),
      ]);
    }, 300_000);
    afterAll(async () => {
      await Promise.all([...(tree?.values() ?? []), impostor].map((node) => node?.dispose()));
    });

    it("gives each registry its path, its parent and its children, and each parent sees them UP", async () => {
      const root = await show(at("/"));
      expect(root.namespace).toMatchObject({ path: "/", parent: null });
      expect(root.namespace.children.map((c) => [c.path, c.name, c.url])).toEqual([
        ["/aws", "aws", at("/aws").url],
        ["/mpaas", "mpaas", at("/mpaas").url],
      ]);
      const aws = await show(at("/aws"));
      expect(aws.namespace.parent).toEqual({
        url: at("/").url,
        namespace: "/",
        status: { phase: "ONLINE", message: null },
      });
      expect(aws.namespace.children.map((c) => c.path)).toEqual(["/aws/us-reg1-xyz"]);
      const leaf = await show(at("/aws/us-reg1-xyz"));
      expect(leaf.registry).toEqual({
        id: aws.namespace.children[0]!.registryId,
        namespace: "/aws/us-reg1-xyz",
        ancestors: [root.registry.id, aws.registry.id],
      });
      expect((await show(at("/mpaas/us-aus1-dc01"))).namespace.path).toBe("/mpaas/us-aus1-dc01");
      await eventually(
        async () => {
          const health = (await show(at("/"))).namespace.children.map((c) => c.health.status);
          return health.every((status) => status === "UP") ? true : undefined;
        },
        15_000,
        "the root's probes of its children",
      );
    });

    it("applies a mutation sent to the root for a namespace below it at the registry that owns it", async () => {
      const [root, leaf] = [at("/"), at("/aws/us-reg1-xyz")];
      const ns = "/aws/us-reg1-xyz";
      // As a script does: everything through the root, each input naming its namespace.
      await mutate(
        root,
        DECLARE_CLUSTER,
        { input: { name: "cluster001", namespace: ns } },
        { "x-actor": "alice" },
      );
      const created = await mutate<{ stream: unknown }>(
        root,
        `mutation ($input: CreateStreamInput!) {
        createStream(input: $input) { stream { namespace name generation } userErrors { code field message } } }`,
        { input: { name: "widgets_v0", namespace: ns, config: { "acme.kafka": { team: "widgets-team" } } } },
        { "x-actor": "alice" },
      );
      expect(created.stream).toEqual({ namespace: ns, name: "widgets_v0", generation: 1 });
      const bound = await mutate<{ binding: unknown }>(
        root,
        `mutation ($input: CreateBindingInput!) {
        createBinding(input: $input) { binding { fqn isDefault } userErrors { code field message } } }`,
        { input: { stream: "widgets_v0", cluster: "cluster001", namespace: ns } },
        { "x-actor": "alice" },
      );
      expect(bound.binding).toEqual({ fqn: `${ns}/cluster001/widgets_v0`, isDefault: true });
      // It lives at the leaf, written by the caller the root was sent by.
      const atLeaf = await leaf.query<{
        stream: { namespace: string } | null;
        changes: { nodes: { entityType: string; actor: string }[] };
      }>(`{ stream(name: "widgets_v0") { namespace } changes(first: 50) { nodes { entityType actor } } }`);
      expect(atLeaf.stream).toEqual({ namespace: ns });
      expect(atLeaf.changes.nodes.filter((c) => c.entityType === "stream")).toEqual([
        { entityType: "stream", actor: "alice" },
      ]);
      expect(
        (await root.query<{ stream: unknown }>(`{ stream(name: "widgets_v0") { name } }`)).stream,
      ).toBeNull();
      // Looked up by key through the root and /aws, with aliases, a fragment and variables.
      const looked = await eventually(
        async () => {
          const answer = await root.query<{ s: { bindings: { status: { phase: string } }[] } }>(
            `query ($ns: String) { s: stream(name: "widgets_v0", namespace: $ns) { ...F } }
         fragment F on Stream { n: name namespace bindings { fqn status { phase } } }`,
            { ns },
          );
          return answer.s.bindings[0]?.status.phase === "ONLINE" ? answer : undefined;
        },
        15_000,
        "the binding to be realized at the leaf",
      );
      expect(looked).toEqual({
        s: {
          n: "widgets_v0",
          namespace: ns,
          bindings: [{ fqn: `${ns}/cluster001/widgets_v0`, status: { phase: "ONLINE" } }],
        },
      });
      // The owner's own refusal comes back as it gave it.
      const again = await root.query<{ createStream: Payload }>(
        `mutation ($input: CreateStreamInput!) { createStream(input: $input) { userErrors { code field message } } }`,
        { input: { name: "widgets_v0", namespace: ns } },
      );
      expect(again.createStream.userErrors).toEqual([
        expect.objectContaining({ code: "ALREADY_EXISTS", field: ["input", "name"] }),
      ]);
    });

    it("refuses a namespace that is not a path, is outside the registry's subtree or has no owner, naming it", async () => {
      const create = (r: RegistryClient, namespace: string) =>
        r.query<{ createStream: Payload }>(
          `mutation ($input: CreateStreamInput!) { createStream(input: $input) { userErrors { code field message } } }`,
          { input: { name: "nowhere_s", namespace } },
        );
      const field = ["input", "namespace"];
      expect((await create(at("/"), "aws")).createStream.userErrors).toEqual([
        expect.objectContaining({
          code: "INVALID_INPUT",
          field,
          message: expect.stringContaining('must start with "/"'),
        }),
      ]);
      expect((await create(at("/"), "/gcp/us-east")).createStream.userErrors).toEqual([
        expect.objectContaining({
          code: "NOT_FOUND",
          field,
          message: "no child registry owns namespace /gcp, so none owns /gcp/us-east",
        }),
      ]);
      expect((await create(at("/aws"), "/mpaas/us-aus1-dc01")).createStream.userErrors).toEqual([
        expect.objectContaining({
          code: "INVALID_INPUT",
          field,
          message: expect.stringContaining("is not in this registry's subtree (/aws)"),
        }),
      ]);
      const lookup = await at("/").request(`{ stream(name: "x", namespace: "/gcp") { name } }`);
      expect(lookup.errors?.[0]).toMatchObject({ extensions: { code: "NOT_FOUND" } });
      // A list filtered to such a namespace is refused alike, not silently empty.
      const list = (r: RegistryClient, namespace: string) =>
        r.request(`query ($ns: String) { streams(filter: { namespace: $ns }) { totalCount } }`, {
          ns: namespace,
        });
      expect((await list(at("/"), "/gcp")).errors?.[0]).toMatchObject({
        extensions: { code: "NOT_FOUND", field: ["filter", "namespace"] },
      });
      expect((await list(at("/aws"), "/mpaas")).errors?.[0]).toMatchObject({
        extensions: { code: "INVALID_INPUT", field: ["filter", "namespace"] },
      });
      expect((await list(at("/aws"), "/")).errors).toBeUndefined();
    });

    it("lists the whole subtree at the root, live: each item once, in tree order, paged and filtered", async () => {
      const root = at("/");
      const made: [string, string][] = [["/aws/us-reg1-xyz", "widgets_v0"]];
      for (const [ns, names] of [
        ["/", ["root_s"]],
        ["/aws", ["aws_a", "aws_b"]],
        ["/aws/us-reg1-xyz", ["xyz_a", "xyz_b", "xyz_c"]],
        ["/mpaas/us-aus1-dc01", ["dc01_a", "dc01_b"]],
      ] as const) {
        for (const name of names) {
          await mutate(root, CREATE_STREAM, { input: { name, namespace: ns } });
          made.push([ns, name]);
        }
      }
      // Tree order: a registry's own streams by name, then each child's subtree, children by name.
      const order = ["/", "/aws", "/aws/us-reg1-xyz", "/mpaas", "/mpaas/us-aus1-dc01"];
      const expected = made
        .sort(([a, x], [b, y]) => order.indexOf(a) - order.indexOf(b) || x.localeCompare(y))
        .map(([ns, name]) => `${ns} ${name}`);
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const page: StreamPage = await root.query<StreamPage>(STREAMS_PAGE, { first: 2, after });
        seen.push(...page.streams.nodes.map((s) => `${s.namespace} ${s.name}`));
        if (pages++ === 1) {
          // Added while paging, in a namespace not reached yet: it shows, once.
          await mutate(root, CREATE_STREAM, {
            input: { name: "dc01_late", namespace: "/mpaas/us-aus1-dc01" },
          });
          expected.push("/mpaas/us-aus1-dc01 dc01_late");
        }
        if (!page.streams.pageInfo.hasNextPage) break;
        after = page.streams.pageInfo.endCursor;
      }
      expect(seen).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / 2));
      expect((await root.query<StreamPage>(STREAMS_PAGE, { first: 0 })).streams.totalCount).toBe(
        expected.length,
      );
      // Only /aws and below: the root asks /aws alone.
      const aws = await root.query<StreamPage>(STREAMS_PAGE, { first: 50, filter: { namespace: "/aws" } });
      expect(aws.streams.nodes.map((s) => `${s.namespace} ${s.name}`)).toEqual(
        expected.filter((line) => line.startsWith("/aws")),
      );
      expect(aws.streams.totalCount).toBe(6);
      const deep = await root.query<StreamPage>(STREAMS_PAGE, {
        first: 50,
        filter: { namespace: "/aws/us-reg1-xyz", nameStartsWith: "xyz_" },
      });
      expect(deep.streams.nodes.map((s) => s.name)).toEqual(["xyz_a", "xyz_b", "xyz_c"]);
      // Bindings and clusters of the subtree, with their namespaces.
      const rest = await root.query<{
        clusters: { nodes: { namespace: string; name: string }[] };
        bindings: { nodes: { fqn: string }[] };
      }>(`{ clusters { nodes { namespace name } } bindings { nodes { fqn } } }`);
      expect(rest.clusters.nodes).toEqual([{ namespace: "/aws/us-reg1-xyz", name: "cluster001" }]);
      expect(rest.bindings.nodes).toEqual([{ fqn: "/aws/us-reg1-xyz/cluster001/widgets_v0" }]);
      const bad = await root.request(`{ streams(after: "subtree:nonsense") { totalCount } }`);
      expect(bad.errors?.[0]).toMatchObject({ extensions: { code: "INVALID_INPUT", field: ["after"] } });
    });

    it("resolves entity keys at the root by their owners, one _entities request per child", async () => {
      const forwardedTo = (path: string) =>
        at(path)
          .logs()
          .filter((line) => line.includes('"operationName":"Forwarded_entities"')).length;
      const before = [forwardedTo("/aws"), forwardedTo("/aws/us-reg1-xyz"), forwardedTo("/mpaas")];
      const { _entities } = await at("/").query<{ _entities: unknown[] }>(
        `query ($representations: [_Any!]!) {
          _entities(representations: $representations) {
            __typename
            ... on Stream { namespace name }
            ... on Binding { fqn isDefault }
            ... on Cluster { namespace name }
            ... on Namespace { path }
          }
        }`,
        {
          representations: [
            { __typename: "Stream", namespace: "/aws/us-reg1-xyz", name: "widgets_v0" },
            { __typename: "Stream", namespace: "/", name: "root_s" },
            { __typename: "Binding", fqn: "/aws/us-reg1-xyz/cluster001/widgets_v0" },
            { __typename: "Cluster", namespace: "/mpaas", name: "no_such_cluster" },
            { __typename: "Namespace", path: "/aws" },
            { __typename: "Stream", namespace: "/gcp", name: "x" },
            { __typename: "Cluster", namespace: "/aws/us-reg1-xyz", name: "cluster001" },
          ],
        },
      );
      expect(_entities).toEqual([
        { __typename: "Stream", namespace: "/aws/us-reg1-xyz", name: "widgets_v0" },
        { __typename: "Stream", namespace: "/", name: "root_s" },
        { __typename: "Binding", fqn: "/aws/us-reg1-xyz/cluster001/widgets_v0", isDefault: true },
        null,
        { __typename: "Namespace", path: "/aws" },
        null,
        { __typename: "Cluster", namespace: "/aws/us-reg1-xyz", name: "cluster001" },
      ]);
      // /aws got its four in one request, and passed the leaf's three on in one; /mpaas its one.
      await eventually(
        async () => {
          const after = [forwardedTo("/aws"), forwardedTo("/aws/us-reg1-xyz"), forwardedTo("/mpaas")];
          return after.every((count, i) => count === before[i]! + 1) ? true : undefined;
        },
        5_000,
        "the request log lines",
      );
    });

    it("refuses a taken name, a cycle, a wrong token and a parent that is not a registry, changing nothing", async () => {
      const rootChanges = await changeCount(at("/"));
      // The root has a child named "aws" already.
      await expect(attach(impostor, at("/"))).rejects.toThrow(
        /ALREADY_EXISTS.*namespace \/aws is owned by another child registry/s,
      );
      expect((await show(impostor)).namespace).toMatchObject({ path: "/aws", parent: null });

      // /aws below its own child: the child's ancestors hold /aws.
      const cycle = await declareParent(at("/aws"), at("/aws/us-reg1-xyz").url);
      expect(cycle.userErrors).toEqual([
        expect.objectContaining({
          code: "INVALID_INPUT",
          field: ["input", "url"],
          message: expect.stringMatching(/is an ancestor of this registry \(\/aws\/us-reg1-xyz\).*cycle/),
        }),
      ]);
      const wrong = await declareParent(at("/mpaas/us-aus1-dc01"), at("/aws").url, "not-the-token");
      expect(wrong.userErrors).toEqual([
        expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "token"] }),
      ]);
      // A registry started without REGISTRY_ENROLLMENT_TOKEN accepts no children, and says how.
      const noChildren = await declareParent(at("/mpaas/us-aus1-dc01"), impostor.url);
      expect(noChildren.userErrors).toEqual([
        expect.objectContaining({
          code: "UNSUPPORTED",
          message: expect.stringContaining("start it with REGISTRY_ENROLLMENT_TOKEN"),
        }),
      ]);
      const nobody = `http://127.0.0.1:${await freePort()}/graphql`;
      expect((await declareParent(at("/mpaas"), nobody)).userErrors).toEqual([
        expect.objectContaining({
          code: "INVALID_INPUT",
          field: ["input", "url"],
          message: expect.stringContaining(`the parent registry ${nobody} does not answer: ECONNREFUSED`),
        }),
      ]);
      const web = await htmlServer();
      expect((await declareParent(at("/mpaas"), web)).userErrors).toEqual([
        expect.objectContaining({
          code: "INVALID_INPUT",
          message: expect.stringContaining(`${web} is not a stream registry`),
        }),
      ]);
      // A registry that would register a loopback URL with a parent elsewhere says how to fix it.
      expect((await declareParent(at("/mpaas"), "http://registry.example.com/graphql")).userErrors).toEqual([
        expect.objectContaining({
          code: "INVALID_INPUT",
          field: ["input", "url"],
          message: expect.stringContaining("REGISTRY_PUBLIC_URL"),
        }),
      ]);
      for (const url of ["registry.example.com/graphql", "ftp://registry.example.com/graphql"]) {
        expect((await declareParent(at("/mpaas"), url)).userErrors).toEqual([
          expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "url"] }),
        ]);
      }
      // Nothing changed anywhere.
      expect(await changeCount(at("/"))).toBe(rootChanges);
      expect(await childPaths(at("/"))).toEqual(["/aws", "/mpaas"]);
      expect((await show(at("/aws"))).namespace.parent?.url).toBe(at("/").url);
      expect((await show(at("/mpaas"))).namespace.parent?.url).toBe(at("/").url);
    });

    it("refuses a registration whose schema the parent cannot serve, or without its token", async () => {
      const register = (input: Record<string, unknown>) =>
        at("/").query<{ registerChildRegistry: Payload }>(
          `mutation ($input: RegisterChildRegistryInput!) {
          registerChildRegistry(input: $input) { child { path } userErrors { code field message } } }`,
          {
            input: {
              registryId: "5b0c1e4e-8f3a-4c1e-9a57-0d6f3f0c2a11",
              name: "old",
              url: "http://127.0.0.1:9/graphql",
              version: "0.0.1",
              sdl: `type Query { namespace: String }`,
              token: TREE_TOKEN,
              ...input,
            },
          },
        );
      expect((await register({})).registerChildRegistry.userErrors).toEqual([
        expect.objectContaining({
          code: "INCOMPATIBLE",
          field: ["input", "sdl"],
          message: expect.stringMatching(/cannot serve the child's schema: .*(was removed|changed type)/),
        }),
      ]);
      expect((await register({ sdl: "type Query {" })).registerChildRegistry.userErrors).toEqual([
        expect.objectContaining({
          code: "INCOMPATIBLE",
          message: expect.stringContaining("not a valid subgraph schema"),
        }),
      ]);
      expect((await register({ token: "" })).registerChildRegistry.userErrors).toEqual([
        expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "token"] }),
      ]);
      expect(await childPaths(at("/"))).toEqual(["/aws", "/mpaas"]);
    });

    it("lets no other token holder move, take over or unregister a child: that takes its credential", async () => {
      const aws = (await show(at("/"))).namespace.children.find((c) => c.name === "aws")!;
      const hijack = await at("/").query<{ registerChildRegistry: Payload }>(
        `mutation ($input: RegisterChildRegistryInput!) {
          registerChildRegistry(input: $input) { child { url } userErrors { code field message } } }`,
        {
          input: {
            registryId: aws.registryId,
            name: "aws",
            url: "http://127.0.0.1:9/graphql",
            version: "0.1.0",
            sdl: (await at("/").query<{ _service: { sdl: string } }>(`{ _service { sdl } }`))._service.sdl,
            token: TREE_TOKEN,
            credential: "a guess",
          },
        },
      );
      expect(hijack.registerChildRegistry.userErrors).toEqual([
        expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "credential"] }),
      ]);
      const removed = await at("/").query<{ unregisterChildRegistry: Payload }>(
        `mutation ($input: UnregisterChildRegistryInput!) {
          unregisterChildRegistry(input: $input) { child { path } userErrors { code field message } } }`,
        { input: { registryId: aws.registryId, token: TREE_TOKEN, credential: "another guess" } },
      );
      expect(removed.unregisterChildRegistry.userErrors).toEqual([
        expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "credential"] }),
      ]);
      expect((await show(at("/"))).namespace.children.find((c) => c.name === "aws")?.url).toBe(
        at("/aws").url,
      );
    });

    it("refuses a parent whose answer would make the registry its own ancestor", async () => {
      const self = (await show(at("/mpaas"))).registry.id;
      // A parent that says this registry is among its ancestors (a cycle formed elsewhere).
      const liar = await jsonServer({
        data: {
          registerChildRegistry: {
            parent: {
              id: "6f1c1e4e-8f3a-4c1e-9a57-0d6f3f0c2a11",
              namespace: "/x",
              version: "0.1.0",
              ancestors: [self],
            },
            credential: "c",
            userErrors: [],
          },
        },
      });
      expect((await declareParent(at("/mpaas"), liar)).userErrors).toEqual([
        expect.objectContaining({
          code: "INVALID_INPUT",
          message: expect.stringContaining("would make a cycle"),
        }),
      ]);
      expect((await show(at("/mpaas"))).namespace.path).toBe("/mpaas");
    });

    it("re-parents a leaf: its path changes, the new parent lists it and the old one forgets it", async () => {
      const leaf = at("/mpaas/us-aus1-dc01");
      const moved = await declareParent(leaf, at("/aws").url);
      expect(moved).toMatchObject({ namespace: { path: "/aws/us-aus1-dc01" }, userErrors: [] });
      expect(await childPaths(at("/aws"))).toEqual(["/aws/us-aus1-dc01", "/aws/us-reg1-xyz"]);
      await eventually(
        async () => ((await childPaths(at("/mpaas"))).length === 0 ? true : undefined),
        15_000,
        "/mpaas to forget it",
      );
      expect((await show(leaf)).registry.namespace).toBe("/aws/us-aus1-dc01");
    });

    it("moves a subtree with its root: a grandchild's path follows its parent's", async () => {
      // /aws (with us-reg1-xyz and us-aus1-dc01) below /mpaas: /mpaas/aws/...
      expect((await declareParent(at("/aws"), at("/mpaas").url)).namespace?.path).toBe("/mpaas/aws");
      for (const leaf of ["/aws/us-reg1-xyz", "/mpaas/us-aus1-dc01"]) {
        await eventually(
          async () => {
            const { registry } = await show(at(leaf));
            return registry.namespace.startsWith("/mpaas/aws/") ? registry : undefined;
          },
          15_000,
          `${leaf} to follow its parent`,
        );
      }
      expect(await childPaths(at("/mpaas"))).toEqual(["/mpaas/aws"]);
      await eventually(
        async () => ((await childPaths(at("/"))).join() === "/mpaas" ? true : undefined),
        15_000,
        "/ to forget /aws",
      );
      // And back, as it was built.
      expect((await declareParent(at("/aws"), at("/").url)).namespace?.path).toBe("/aws");
      await eventually(
        async () => {
          const { registry } = await show(at("/aws/us-reg1-xyz"));
          return registry.namespace === "/aws/us-reg1-xyz" ? true : undefined;
        },
        15_000,
        "the leaf to follow /aws back",
      );
    });

    it("keeps parents and children across restarts, and shows a stopped child DOWN until it is back", async () => {
      const root = at("/");
      const before = await show(root);
      await root.stop();
      await root.start();
      expect((await show(root)).namespace.children).toEqual(
        before.namespace.children.map((c) => ({ ...c, health: expect.anything() })),
      );
      const leaf = at("/aws/us-reg1-xyz");
      await leaf.stop();
      const down = await eventually(
        async () => {
          const child = (await show(at("/aws"))).namespace.children.find((c) => c.name === "us-reg1-xyz");
          return child?.health.status === "DOWN" ? child : undefined;
        },
        15_000,
        "/aws to see its child DOWN",
      );
      expect(down.health.lastError).toMatch(/does not answer/);
      // A list at the root is the others' items, with an error naming the namespace left out.
      const partial = await root.request<StreamPage>(STREAMS_PAGE, { first: 100 });
      expect(partial.errors).toEqual([
        expect.objectContaining({
          path: ["streams"],
          extensions: expect.objectContaining({ code: "CHILD_UNAVAILABLE", namespace: "/aws/us-reg1-xyz" }),
        }),
      ]);
      const namespaces = new Set(partial.data?.streams.nodes.map((s) => s.namespace));
      // (us-aus1-dc01 moved below /aws earlier.)
      expect([...namespaces]).toEqual(["/", "/aws", "/aws/us-aus1-dc01"]);
      // What is sent to it through the root fails as unavailable, naming its namespace.
      const unavailable = await root.request(
        `{ stream(name: "widgets_v0", namespace: "/aws/us-reg1-xyz") { name } }`,
      );
      expect(unavailable.errors?.[0]).toMatchObject({
        message: expect.stringContaining("cannot be reached"),
        extensions: { code: "CHILD_UNAVAILABLE", namespace: "/aws/us-reg1-xyz" },
      });
      await leaf.start();
      expect((await show(leaf)).namespace).toMatchObject({
        path: "/aws/us-reg1-xyz",
        parent: { url: at("/aws").url, status: { phase: "ONLINE" } },
      });
      await eventually(
        async () => {
          const child = (await show(at("/aws"))).namespace.children.find((c) => c.name === "us-reg1-xyz");
          return child?.health.status === "UP" ? true : undefined;
        },
        15_000,
        "/aws to see its child UP again",
      );
    });

    it("registers again with a parent that lost the registration (a restore), within one check", async () => {
      const leaf = await show(at("/aws/us-reg1-xyz"));
      // /aws restored from a backup that lacks the leaf (its database, behind its back).
      const deleted = await queryDatabase(
        at("/aws").databaseUrl!,
        `DELETE FROM child_registry WHERE registry_id = $1`,
        [leaf.registry.id],
      );
      expect(deleted).toBe(1);
      expect(await childPaths(at("/aws"))).not.toContain("/aws/us-reg1-xyz");
      await eventually(
        async () => ((await childPaths(at("/aws"))).includes("/aws/us-reg1-xyz") ? true : undefined),
        15_000,
        "the leaf to register again",
      );
    });

    it("names a child that hangs below a healthy one, and still lists the healthy one's items", async () => {
      // A child of /aws that takes every request and never answers.
      const hung = createServer(() => {});
      await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/graphql`;
      const sdl = (await at("/aws").query<{ _service: { sdl: string } }>(`{ _service { sdl } }`))._service
        .sdl;
      const input = { registryId: randomUUID(), name: "hung", url, version: "0.1.0", sdl, token: TREE_TOKEN };
      const { credential } = await mutate<{ credential: string }>(
        at("/aws"),
        `mutation ($input: RegisterChildRegistryInput!) {
          registerChildRegistry(input: $input) { credential userErrors { code field message } } }`,
        { input },
      );
      onTestFinished(async () => {
        await mutate(
          at("/aws"),
          `mutation ($input: UnregisterChildRegistryInput!) {
            unregisterChildRegistry(input: $input) { child { path } userErrors { code field message } } }`,
          { input: { registryId: input.registryId, token: TREE_TOKEN, credential } },
        );
        hung.closeAllConnections();
        await new Promise<void>((resolve) => hung.close(() => resolve()));
      });
      // /aws waits for it a margin less than the root waits for /aws: /aws answers, naming it.
      const answer = await at("/").request<StreamPage>(STREAMS_PAGE, { first: 100 });
      expect(answer.errors).toEqual([
        expect.objectContaining({
          extensions: expect.objectContaining({ code: "CHILD_UNAVAILABLE", namespace: "/aws/hung" }),
        }),
      ]);
      const namespaces = new Set(answer.data?.streams.nodes.map((s) => s.namespace));
      expect(namespaces).toContain("/aws");
      expect(namespaces).toContain("/aws/us-reg1-xyz");
    });

    it("never shows the enrollment token or a credential: not in answers, the change log or logs", async () => {
      for (const node of [...tree.values(), impostor]) {
        const answers = JSON.stringify(
          await node.query(
            `{ namespace { parent { url namespace status { message } } } changes(first: 500) { nodes { data } } }`,
          ),
        );
        expect(answers).not.toContain(TREE_TOKEN);
        expect(node.logs().join("\n")).not.toContain(TREE_TOKEN);
      }
      const credentials = await queryDatabase(
        at("/").databaseUrl!,
        `SELECT credential_hash FROM child_registry`,
      );
      expect(credentials).toBeGreaterThan(0);
    });

    it("drops its parent: the registry becomes the root of its own tree, and the parent forgets it", async () => {
      const leaf = at("/mpaas/us-aus1-dc01");
      const dropped = await leaf.query<{
        dropParentRegistry: Payload & { parent: { status: { phase: string } } };
      }>(
        `mutation { dropParentRegistry { parent { status { phase } } namespace { path } userErrors { code field message } } }`,
      );
      expect(dropped.dropParentRegistry).toMatchObject({
        parent: { status: { phase: "DELETING" } },
        namespace: { path: "/us-aus1-dc01" },
        userErrors: [],
      });
      expect((await show(leaf)).namespace.parent).toBeNull();
      await eventually(
        async () => ((await childPaths(at("/aws"))).includes("/aws/us-aus1-dc01") ? undefined : true),
        15_000,
        "/aws to forget it",
      );
    });
  },
);

/** A server that answers every request with `body` as JSON. */
async function jsonServer(body: unknown): Promise<string> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

/** A web server that is not a registry: it answers every request with an HTML page. */
async function htmlServer(): Promise<string> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<html><body>Welcome</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}
