import { describe, expect, it } from "vitest";
import { attach, eventually, freePort, queryDatabase, queryRows, TREE_TOKEN } from "@stream-registry/testkit";
import {
  changeCount,
  childPaths,
  declareParent,
  htmlServer,
  jsonServer,
  publicJwk,
  show,
  TREE,
  useSeedTree,
  type Payload,
} from "./support/seed-tree.ts";

// The seed's "Namespaces" with its Acme example (/, /aws, /aws/us-reg1-xyz, /mpaas,
// /mpaas/us-aus1-dc01): registries in separate processes, each with its own database, that talk
// only GraphQL over HTTP. Registration, refusals, re-parenting, restarts and leaving a parent.
describe("a tree of registries: registration, and what keeps the tree right", { timeout: 120_000 }, () => {
  const seed = useSeedTree({ impostor: true });
  const at = (path: string) => seed.at(path);

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

  it("refuses a taken name, a cycle, a wrong token and a parent that is not a registry, changing nothing", async () => {
    const rootChanges = await changeCount(at("/"));
    // The root has a child named "aws" already.
    await expect(attach(seed.impostor(), at("/"))).rejects.toThrow(
      /ALREADY_EXISTS.*namespace \/aws is owned by another child registry/s,
    );
    expect((await show(seed.impostor())).namespace).toMatchObject({ path: "/aws", parent: null });

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
    const noChildren = await declareParent(at("/mpaas/us-aus1-dc01"), seed.impostor().url);
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
            keys: [publicJwk()],
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

  it("lets no other token holder move, take over or unregister a child: that takes a proof signed with its key", async () => {
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
          keys: [publicJwk()],
          proof: "a guess",
        },
      },
    );
    expect(hijack.registerChildRegistry.userErrors).toEqual([
      expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "proof"] }),
    ]);
    const removed = await at("/").query<{ unregisterChildRegistry: Payload }>(
      `mutation ($input: UnregisterChildRegistryInput!) {
          unregisterChildRegistry(input: $input) { child { path } userErrors { code field message } } }`,
      { input: { registryId: aws.registryId, proof: TREE_TOKEN } },
    );
    expect(removed.unregisterChildRegistry.userErrors).toEqual([
      expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "proof"] }),
    ]);
    expect((await show(at("/"))).namespace.children.find((c) => c.name === "aws")?.url).toBe(at("/aws").url);
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

  it("with a parent that lost the registration (a restore), fails saying so; declared again, it is back", async () => {
    const leaf = await show(at("/aws/us-reg1-xyz"));
    // /aws restored from a backup that lacks the leaf (its database, behind its back).
    const deleted = await queryDatabase(
      at("/aws").databaseUrl!,
      `DELETE FROM child_registry WHERE registry_id = $1`,
      [leaf.registry.id],
    );
    expect(deleted).toBe(1);
    expect(await childPaths(at("/aws"))).not.toContain("/aws/us-reg1-xyz");
    // The enrollment token is not kept after the first registration: an operator gives it again.
    const failed = await eventually(
      async () => {
        const { parent } = (await show(at("/aws/us-reg1-xyz"))).namespace;
        return parent?.status.phase === "FAILED" ? parent.status : undefined;
      },
      15_000,
      "the leaf's link to fail",
    );
    expect(failed.message).toContain("its first registration takes this registry's enrollment token");
    expect(await declareParent(at("/aws/us-reg1-xyz"), at("/aws").url)).toMatchObject({ userErrors: [] });
    expect(await childPaths(at("/aws"))).toContain("/aws/us-reg1-xyz");
  });

  it("never shows the enrollment token or a credential: not in answers, the change log or logs", async () => {
    for (const node of [...TREE.map(at), seed.impostor()]) {
      const answers = JSON.stringify(
        await node.query(
          `{ namespace { parent { url namespace status { message } } } changes(first: 500) { nodes { data } } }`,
        ),
      );
      expect(answers).not.toContain(TREE_TOKEN);
      expect(node.logs().join("\n")).not.toContain(TREE_TOKEN);
    }
    // Nor at rest: a child keeps no secret of its parent's (tree-registration-proof.test.ts).
    const links = await queryRows<{ row: string }>(
      at("/aws").databaseUrl!,
      `SELECT row_to_json(l)::text AS row FROM parent_link l`,
    );
    expect(links).toHaveLength(1);
    expect(JSON.stringify(links)).not.toContain(TREE_TOKEN);
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
});
