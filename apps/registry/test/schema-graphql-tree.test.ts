import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, settled, startRegistryTree, type RegistryNode } from "@stream-registry/testkit";
import { createStream, record, registerKey, registerType, SUBJECTS } from "./support/schema-graphql.ts";

/**
 * A stream's schemas through a parent (issue 12, Must 5): registered at the root for a namespace
 * below, they go to the registry that owns the stream, and its Stream fields come back through
 * `stream(name, namespace)` at the parent as the child gave them, and in lists, live or from the
 * discovery index (which asks the owners for them).
 */
describe("schemas through a parent", { timeout: 120_000 }, () => {
  let tree: Map<string, RegistryNode>;
  beforeAll(async () => {
    tree = await startRegistryTree(["/", "/aws", "/aws/us"]);
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

  it("lists streams with their schemas from the root's index, asking the owners once per child", async () => {
    const [root, aws, us] = [tree.get("/")!, tree.get("/aws")!, tree.get("/aws/us")!];
    expect(await createStream(root, "gadgets_v0", undefined, "/aws/us")).toEqual([]);
    const key = await registerKey(root, { stream: "gadgets_v0", schema: '"long"', namespace: "/aws/us" });
    expect(key.userErrors).toEqual([]);
    const list = (consistency: string) =>
      root.request<{ streams: { nodes: { namespace: string; name: string }[] } }>(
        `query IndexedSchemas { streams(filter: { namespace: "/aws" }, consistency: ${consistency}) {
          nodes { namespace name keySchema { subject versions { version id } } kinds: typeSchemas { typeName } } } }`,
      );
    // widgets_v0 (the test above, at /aws) and gadgets_v0 at /aws/us, once the index holds both.
    const indexed = await eventually(async () => {
      const answer = await list("INDEX");
      return answer.data?.streams.nodes.length === 2 ? answer : undefined;
    }, 30_000);
    const live = await list("LIVE");
    expect(indexed).toEqual(live);
    expect(indexed.data?.streams.nodes).toEqual([
      {
        namespace: "/aws",
        name: "widgets_v0",
        keySchema: { subject: "widgets_v0-key", versions: [{ version: 1, id: expect.any(Number) }] },
        kinds: [{ typeName: "Widget" }],
      },
      {
        namespace: "/aws/us",
        name: "gadgets_v0",
        keySchema: { subject: "gadgets_v0-key", versions: [{ version: 1, id: key.schema!.id }] },
        kinds: [],
      },
    ]);
    // From the index: /aws is asked once for each field, for both streams; it asks /aws/us.
    const asked = (node: RegistryNode, operation: string) =>
      node.logs().filter((line) => line.includes(`"operationName":"${operation}"`)).length;
    // Each registry logs a request once it has answered: the lines come in their own time, so the
    // counts are read once they stopped changing.
    const counts = () => [
      asked(aws, "Forwarded_keySchema"),
      asked(aws, "Forwarded_typeSchemas"),
      asked(us, "Forwarded_entities"),
    ];
    const before = await settled(counts, 500);
    expect(await list("INDEX")).toEqual(indexed);
    const expected = [before[0]! + 1, before[1]! + 1, before[2]! + 2];
    await eventually(async () => counts().every((count, i) => count >= expected[i]!) || undefined);
    expect(await settled(counts, 500)).toEqual(expected);

    // The owner gone, its stream still listed from the index, its schemas null, named as such.
    await us.stop();
    const partial = await list("INDEX");
    expect(partial.data?.streams.nodes[1]).toEqual({
      namespace: "/aws/us",
      name: "gadgets_v0",
      keySchema: null,
      kinds: null,
    });
    expect(partial.data?.streams.nodes[0]).toEqual(indexed.data?.streams.nodes[0]);
    expect(partial.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: ["streams", "nodes", 1, "keySchema"],
          extensions: expect.objectContaining({ code: "CHILD_UNAVAILABLE", namespace: "/aws/us" }),
        }),
      ]),
    );
  });
});
