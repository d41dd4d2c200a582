import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createTestDatabase, databaseKinds, mutate, seed } from "@stream-registry/testkit";
import { startTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const DECLARE = `mutation($input: DeclareDefaultNamespaceInput!) {
  declareDefaultNamespace(input: $input) { namespace { path } userErrors { code field message } } }`;
const NAMESPACE = `{ namespace { path } }`;

async function pathOf(r: TestRegistry): Promise<string> {
  return (await r.query<{ namespace: { path: string } }>(NAMESPACE)).namespace.path;
}

// DECLARE DEFAULT NAMESPACE (the seed's "Namespaces"): a vanilla registry owns "/", a named one
// "/<name>"; the name is the registry's own, kept in its database.
describe.each(databaseKinds)("the namespace a registry owns, on %s", (kind) => {
  async function start(dataDir?: string) {
    const database = await createTestDatabase(kind, "namespace");
    onTestFinished(() => database.drop());
    const registry = await startTestRegistry({ database, ...(dataDir ? { dataDir } : {}) });
    onTestFinished(() => registry.stop());
    return { database, registry };
  }

  it("is / until declared, then /<name>: SHOW NAMESPACE, fully qualified names and entity keys follow", async () => {
    const { registry: r } = await start();
    expect(await pathOf(r)).toBe("/");
    const binding = await seed(r).binding({
      stream: await seed(r).stream({ name: "widgets_v0" }),
      cluster: await seed(r).cluster({ name: "cluster001" }),
    });
    expect(binding.fqn).toBe("/cluster001/widgets_v0");

    const declared = await mutate<{ namespace: { path: string } }>(r, DECLARE, {
      input: { name: "us-reg1-xyz" },
    });
    expect(declared.namespace.path).toBe("/us-reg1-xyz");
    expect(await pathOf(r)).toBe("/us-reg1-xyz");
    const { stream } = await r.query<{ stream: { namespace: string; bindings: { fqn: string }[] } }>(
      `{ stream(name: "widgets_v0") { namespace bindings { fqn } } }`,
    );
    expect(stream).toEqual({
      namespace: "/us-reg1-xyz",
      bindings: [{ fqn: "/us-reg1-xyz/cluster001/widgets_v0" }],
    });

    // Federation: keys under the new path resolve here, keys under the old one no longer do.
    const { _entities } = await r.query<{ _entities: ({ name: string } | { path: string } | null)[] }>(
      `query($r: [_Any!]!) { _entities(representations: $r) {
        ... on Stream { name } ... on Namespace { path } } }`,
      {
        r: [
          { __typename: "Stream", namespace: "/us-reg1-xyz", name: "widgets_v0" },
          { __typename: "Stream", namespace: "/", name: "widgets_v0" },
          { __typename: "Namespace", path: "/us-reg1-xyz" },
          { __typename: "Namespace", path: "/" },
        ],
      },
    );
    expect(_entities).toEqual([{ name: "widgets_v0" }, null, { path: "/us-reg1-xyz" }, null]);

    // The change log says so, under the new path, with the old one.
    const { changes } = await r.query<{
      changes: { nodes: { entityType: string; entityKey: string; action: string; data: unknown }[] };
    }>(`{ changes(first: 100) { nodes { entityType entityKey action data } } }`);
    expect(changes.nodes.filter((c) => c.entityType === "namespace")).toEqual([
      {
        entityType: "namespace",
        entityKey: "/us-reg1-xyz",
        action: "updated",
        data: { name: "us-reg1-xyz", previousPath: "/" },
      },
    ]);

    // Declaring it again changes nothing: no second entry.
    await mutate(r, DECLARE, { input: { name: "us-reg1-xyz" } });
    const again = await r.query<{ changes: { nodes: { entityType: string }[] } }>(
      `{ changes(first: 100) { nodes { entityType } } }`,
    );
    expect(again.changes.nodes.filter((c) => c.entityType === "namespace")).toHaveLength(1);
  });

  it("refuses a name that is not a namespace segment, naming the field, and changes nothing", async () => {
    const { registry: r } = await start();
    for (const name of ["", "aws/us-reg1-xyz", "..", "us reg1", "x".repeat(250)]) {
      const { declareDefaultNamespace } = await r.query<{
        declareDefaultNamespace: {
          namespace: unknown;
          userErrors: { code: string; field: string[]; message: string }[];
        };
      }>(DECLARE, { input: { name } });
      expect(declareDefaultNamespace.namespace, name).toBeNull();
      expect(declareDefaultNamespace.userErrors, name).toEqual([
        expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "name"] }),
      ]);
      expect(declareDefaultNamespace.userErrors[0]!.message).toMatch(/namespace name/);
    }
    expect(await pathOf(r)).toBe("/");
  });

  it("keeps its namespace across a restart, and a second process on the same database sees it", async () => {
    const dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-namespace-")) : undefined;
    if (dataDir) onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const { database, registry: first } = await start(dataDir);
    await mutate(first, DECLARE, { input: { name: "us-aus1-dc01" } });
    await first.stop();
    const second = await startTestRegistry({ database, ...(dataDir ? { dataDir } : {}) });
    onTestFinished(() => second.stop());
    expect(await pathOf(second)).toBe("/us-aus1-dc01");
    if (kind !== "postgres") return;
    // PostgreSQL only (PGlite's directory is one process's): a declaration made by another
    // process sharing the database is seen within its refresh.
    const third = await startTestRegistry({ database });
    onTestFinished(() => third.stop());
    await mutate(third, DECLARE, { input: { name: "mpaas" } });
    await expect.poll(() => pathOf(second), { timeout: 15_000, interval: 250 }).toBe("/mpaas");
  });
});
