import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegistryTree, type RegistryNode } from "@stream-registry/testkit";
import { createStream, record, registerKey, registerType, SUBJECTS } from "./support/schema-graphql.ts";

/**
 * A stream's schemas through a parent (issue 12, Must 5): registered at the root for a namespace
 * below, they go to the registry that owns the stream, and its Stream fields come back through
 * `stream(name, namespace)` at the parent as the child gave them.
 */
describe("schemas through a parent", { timeout: 120_000 }, () => {
  let tree: Map<string, RegistryNode>;
  beforeAll(async () => {
    tree = await startRegistryTree(["/", "/aws"]);
  }, 300_000);
  afterAll(async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
  });

  it("registers at the root for /aws, and reads the stream's subjects through the root", async () => {
    const [root, aws] = [tree.get("/")!, tree.get("/aws")!];
    expect(await createStream(root, "widgets_v0", undefined, "/aws")).toEqual([]);
    const key = await registerKey(root, { stream: "widgets_v0", schema: '"string"', namespace: "/aws" });
    expect(key).toMatchObject({ userErrors: [], schema: { subject: "widgets_v0-key", version: 1 } });
    const type = await registerType(root, {
      stream: "widgets_v0",
      typeName: "Widget",
      schema: record("Widget", ["name"]),
      namespace: "/aws",
    });
    expect(type.schema?.subject).toBe("widgets_v0-Widget");
    // Not at the root: the stream and its schemas are the child's.
    expect(await root.query(`{ stream(name: "widgets_v0") { name } }`)).toEqual({ stream: null });

    const query = `query ($ns: String) { stream(name: "widgets_v0", namespace: $ns) { namespace ${SUBJECTS} } }`;
    const throughRoot = await root.query<{ stream: unknown }>(query, { ns: "/aws" });
    const atChild = await aws.query<{ stream: unknown }>(query, { ns: null });
    expect(throughRoot).toEqual(atChild);
    expect(throughRoot.stream).toMatchObject({
      namespace: "/aws",
      keySchema: { subject: "widgets_v0-key", versions: [{ version: 1, id: key.schema!.id }] },
      typeSchemas: [{ subject: "widgets_v0-Widget", typeName: "Widget", compatibility: "BACKWARD" }],
    });
    const byVersion = await root.query<{ schemaVersion: { id: number } }>(
      `{ schemaVersion(subject: "widgets_v0-Widget", stream: "widgets_v0", namespace: "/aws") { id } }`,
    );
    expect(byVersion.schemaVersion.id).toBe(type.schema!.id);

    // A list asked live gets them from the owner; the discovery index does not hold them.
    const live = await root.query<{ streams: { nodes: unknown[] } }>(
      `{ streams(filter: { namespace: "/aws" }, consistency: LIVE) { nodes { name keySchema { subject } typeSchemas { subject } } } }`,
    );
    expect(live.streams.nodes).toEqual([
      {
        name: "widgets_v0",
        keySchema: { subject: "widgets_v0-key" },
        typeSchemas: [{ subject: "widgets_v0-Widget" }],
      },
    ]);
  });
});
