import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CREATE_STREAM,
  eventually,
  mutate,
  seedChain,
  startRegistryTree,
  TREE_TOKEN,
  type RegistryClient,
  type RegistryNode,
} from "@stream-registry/testkit";
import { ENV, publicJwk, STREAMS_PAGE, type StreamPage } from "./support/seed-tree.ts";

const CHILD = "path url registryId suspendedAt suspendedBy";
const ADMINISTER = (field: string) => `mutation ($path: String!) {
  ${field}(input: { path: $path }) { child { ${CHILD} } userErrors { code field message } } }`;
const REGISTER = `mutation ($input: RegisterChildRegistryInput!) {
  registerChildRegistry(input: $input) { child { path } userErrors { code field message } } }`;
const INDEX_LAG = `{ indexLag { namespace lastError } }`;

interface Child {
  path: string;
  url: string;
  registryId: string;
  suspendedAt: string | null;
  suspendedBy: string | null;
}
interface UserErrorView {
  code: string;
  field: string[];
  message: string;
}
type Administered = Record<string, { child: Child | null; userErrors: UserErrorView[] }>;

/**
 * Children are managed (issue 19, Must 3), in a production tree (/, /mpaas, /mpaas/us-aus1-dc01): a registration shows keys and a URL that answers as the registering
 * registry; an admin lists, suspends, resumes and drops a child, and the root's lists follow.
 */
describe("managing child registries (production tree)", { timeout: 180_000 }, () => {
  let nodes: Map<string, RegistryNode>;
  const at = (path: string) => nodes.get(path)!;
  const administer = async (node: RegistryClient, field: string, path: string) =>
    (await node.query<Administered>(ADMINISTER(field), { path }))[field]!;
  const namespacesOf = (page: StreamPage | null | undefined) =>
    [...new Set(page?.streams.nodes.map((s) => s.namespace))].sort();
  const indexed = async (node: RegistryClient) =>
    namespacesOf((await node.request<StreamPage>(STREAMS_PAGE, { first: 100, consistency: "INDEX" })).data);

  beforeAll(async () => {
    nodes = await startRegistryTree(["/", "/mpaas", "/mpaas/us-aus1-dc01"], {
      // A suspended child's link retries its registration: at most 2 s apart here.
      env: { ...ENV, NODE_ENV: "production", RECONCILER_RETRY_MAX_MS: "2000" },
    });
    await seedChain(at("/"))
      .at("/")
      .stream({ name: "s_1" })
      .at("/mpaas")
      .stream({ name: "s_1" })
      .at("/mpaas/us-aus1-dc01")
      .stream({ name: "s_1" });
    await eventually(
      async () => ((await indexed(at("/"))).length === 3 ? true : undefined),
      60_000,
      "the root's index to hold every namespace",
    );
  }, 240_000);
  afterAll(async () => {
    await Promise.all([...(nodes?.values() ?? [])].map((node) => node.dispose()));
  });

  it("refuses a registration without keys, or whose URL does not answer as the registering registry", async () => {
    const root = at("/");
    const sdl = (await root.query<{ _service: { sdl: string } }>(`{ _service { sdl } }`))._service.sdl;
    const register = async (input: Record<string, unknown>) =>
      (
        await root.query<{ registerChildRegistry: { userErrors: UserErrorView[] } }>(REGISTER, {
          input: {
            registryId: randomUUID(),
            name: "intruder",
            url: at("/mpaas/us-aus1-dc01").url,
            version: "0.1.0",
            sdl,
            token: TREE_TOKEN,
            keys: [publicJwk()],
            ...input,
          },
        })
      ).registerChildRegistry.userErrors;
    expect(await register({ keys: [] })).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "keys"],
        message: expect.stringMatching(/none were given/),
      }),
    ]);
    expect(await register({ keys: null })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "keys"] }),
    ]);
    // Nothing answers there.
    expect(await register({ url: "http://127.0.0.1:9/graphql" })).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "url"],
        message: expect.stringMatching(/^url must answer as the registering registry .*does not answer/),
      }),
    ]);
    // Another registry answers there: /mpaas/us-aus1-dc01, not the registering one.
    expect(await register({})).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "url"],
        message: expect.stringMatching(/answers as registry [0-9a-f-]{36}$/),
      }),
    ]);
    // The registry there is the one registering, but it does not publish the key presented. The
    // leaf's id, which the root has not registered: a registered id (/mpaas's) must first show a
    // proof signed with its pinned key (issue 19, Must 2), refused before its URL is asked.
    const leaf = (await at("/mpaas/us-aus1-dc01").query<{ registry: { id: string } }>(`{ registry { id } }`))
      .registry;
    expect(await register({ registryId: leaf.id })).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "url"],
        message: expect.stringContaining("does not publish the key"),
      }),
    ]);
    const children = await root.query<{ childRegistries: Child[] }>(`{ childRegistries { ${CHILD} } }`);
    expect(children.childRegistries.map((c) => [c.path, c.url, c.suspendedAt])).toEqual([
      ["/mpaas", at("/mpaas").url, null],
    ]);
  });

  it("refuses a caller that is not an admin, and a child that is not one, changing nothing", async () => {
    const root = at("/");
    const { secret } = await mutate<{ secret: string }>(
      root,
      `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret userErrors { code field message } } }`,
      { input: { name: "reader" } },
    );
    await mutate(
      root,
      `mutation ($input: GrantInput!) { grant(input: $input) { created userErrors { code field message } } }`,
      {
        input: { principal: "token:reader", role: "reader" },
      },
    );
    const asReader = { authorization: `Bearer ${secret}` };
    const suspend = await root.request<Administered>(
      ADMINISTER("suspendChildRegistry"),
      { path: "/mpaas" },
      asReader,
    );
    expect(suspend.errors?.[0]).toMatchObject({
      message: expect.stringContaining("suspending a child registry needs the admin role on namespace /"),
      extensions: { code: "FORBIDDEN" },
    });
    const list = await root.request(`{ childRegistries { path } }`, {}, asReader);
    expect(list.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" });
    for (const [path, code, message] of [
      ["/gcp", "NOT_FOUND", "no child registry owns /gcp here; the child registries are /mpaas"],
      ["/mpaas/us-aus1-dc01", "INVALID_INPUT", "it is below /mpaas: ask the registry that owns that"],
      ["mpaas", "INVALID_INPUT", 'must start with "/"'],
      ["/", "INVALID_INPUT", "is not the namespace of a child of this registry"],
    ] as const) {
      const refused = await administer(root, "suspendChildRegistry", path);
      expect(refused).toEqual({
        child: null,
        userErrors: [
          expect.objectContaining({
            code,
            field: ["input", "path"],
            message: expect.stringContaining(message),
          }),
        ],
      });
    }
    const children = await root.query<{ childRegistries: Child[] }>(`{ childRegistries { ${CHILD} } }`);
    expect(children.childRegistries.every((c) => c.suspendedAt === null)).toBe(true);
  });

  it("suspends a child: not called, its index not read, its tokens refused; resumed, it is all back", async () => {
    const [root, mpaas] = [at("/"), at("/mpaas")];
    const suspended = await administer(root, "suspendChildRegistry", "/mpaas");
    expect(suspended.userErrors).toEqual([]);
    expect(suspended.child).toMatchObject({ path: "/mpaas", suspendedBy: "token:admin" });
    expect(Date.parse(suspended.child!.suspendedAt!)).not.toBeNaN();
    // Suspending it again changes nothing.
    expect((await administer(root, "suspendChildRegistry", "/mpaas")).child?.suspendedAt).toBe(
      suspended.child!.suspendedAt,
    );
    // A LIVE list leaves its subtree out, saying why.
    const live = await root.request<StreamPage>(STREAMS_PAGE, { first: 100 });
    expect(namespacesOf(live.data)).toEqual(["/"]);
    expect(live.errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("the child registry /mpaas is suspended here"),
        extensions: expect.objectContaining({ code: "CHILD_UNAVAILABLE", namespace: "/mpaas" }),
      }),
    ]);
    // A look-up for its namespace is not forwarded.
    const lookUp = await root.request(`{ stream(name: "s_1", namespace: "/mpaas/us-aus1-dc01") { name } }`);
    expect(lookUp.errors?.[0]).toMatchObject({
      message: expect.stringContaining("suspended"),
      extensions: { code: "CHILD_UNAVAILABLE", namespace: "/mpaas" },
    });
    // Its index rows stay, not read on: the index says why.
    await eventually(
      async () => {
        const { indexLag } = await root.query<{
          indexLag: { namespace: string; lastError: string | null }[];
        }>(INDEX_LAG);
        return (
          indexLag.find((lag) => lag.namespace === "/mpaas")?.lastError?.includes("is suspended here") ||
          undefined
        );
      },
      30_000,
      "the root's index to say /mpaas is suspended",
    );
    await mutate(mpaas, CREATE_STREAM, { input: { name: "while_suspended" } });
    // Its own calls to the root are refused: it asks to register again, which is refused too.
    await eventually(
      async () => {
        const { namespace } = await mpaas.query<{
          namespace: { parent: { status: { phase: string; message: string | null } } };
        }>(`{ namespace { parent { status { phase message } } } }`);
        return namespace.parent.status.message?.includes("suspended") ? namespace.parent.status : undefined;
      },
      30_000,
      "/mpaas to be told it is suspended",
    );
    const index = await root.request<StreamPage>(STREAMS_PAGE, { first: 100, consistency: "INDEX" });
    expect(index.data?.streams.nodes.map((s) => s.name)).not.toContain("while_suspended");
    expect(namespacesOf(index.data)).toEqual(["/", "/mpaas", "/mpaas/us-aus1-dc01"]);

    const resumed = await administer(root, "resumeChildRegistry", "/mpaas");
    expect(resumed).toEqual({
      child: expect.objectContaining({ suspendedAt: null, suspendedBy: null }),
      userErrors: [],
    });
    const whole = await root.request<StreamPage>(STREAMS_PAGE, { first: 100 });
    expect(whole.errors).toBeUndefined();
    expect(namespacesOf(whole.data)).toEqual(["/", "/mpaas", "/mpaas/us-aus1-dc01"]);
    await eventually(
      async () => {
        const page = await root.request<StreamPage>(STREAMS_PAGE, { first: 100, consistency: "INDEX" });
        return page.data?.streams.nodes.some((s) => s.name === "while_suspended") ? true : undefined;
      },
      30_000,
      "the root's index to read /mpaas on",
    );
    await eventually(
      async () => {
        const { namespace } = await mpaas.query<{ namespace: { parent: { status: { phase: string } } } }>(
          `{ namespace { parent { status { phase } } } }`,
        );
        return namespace.parent.status.phase === "ONLINE" ? true : undefined;
      },
      30_000,
      "/mpaas's link to be ONLINE again",
    );
  });

  it("drops a child that is down: LIVE lists are whole again, and its items leave every index", async () => {
    const [root, mpaas, leaf] = [at("/"), at("/mpaas"), at("/mpaas/us-aus1-dc01")];
    await leaf.stop();
    const partial = await root.request<StreamPage>(STREAMS_PAGE, { first: 100 });
    expect(partial.errors?.[0]?.extensions).toMatchObject({
      code: "CHILD_UNAVAILABLE",
      namespace: "/mpaas/us-aus1-dc01",
    });
    const dropped = await administer(mpaas, "dropChildRegistry", "/mpaas/us-aus1-dc01");
    expect(dropped).toEqual({
      child: expect.objectContaining({ path: "/mpaas/us-aus1-dc01", url: leaf.url }),
      userErrors: [],
    });
    // Dropping it twice finds nothing to drop.
    expect((await administer(mpaas, "dropChildRegistry", "/mpaas/us-aus1-dc01")).userErrors).toEqual([
      expect.objectContaining({ code: "NOT_FOUND", field: ["input", "path"] }),
    ]);
    expect(
      (await mpaas.query<{ childRegistries: Child[] }>(`{ childRegistries { path } }`)).childRegistries,
    ).toEqual([]);
    const whole = await root.request<StreamPage>(STREAMS_PAGE, { first: 100 });
    expect(whole.errors).toBeUndefined();
    expect(namespacesOf(whole.data)).toEqual(["/", "/mpaas"]);
    // Its items leave /mpaas's index at once, and the root's through /mpaas's feed.
    expect(await indexed(mpaas)).toEqual(["/mpaas"]);
    await eventually(
      async () => ((await indexed(root)).includes("/mpaas/us-aus1-dc01") ? undefined : true),
      30_000,
      "the root's index to drop /mpaas/us-aus1-dc01",
    );
    expect(await indexed(root)).toEqual(["/", "/mpaas"]);
    const { changes } = await mpaas.query<{
      changes: { nodes: { entityType: string; entityKey: string; action: string; actor: string }[] };
    }>(`{ changes(first: 500) { nodes { entityType entityKey action actor } } }`);
    expect(changes.nodes).toContainEqual({
      entityType: "child_registry",
      entityKey: "/mpaas/us-aus1-dc01",
      action: "deleted",
      actor: "token:admin",
    });
  });
});
