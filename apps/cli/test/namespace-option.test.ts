import { describe, expect, it } from "vitest";
import { createSrctl, ExitCode } from "../src/index.ts";
import { withNamespaceColumn } from "../src/statements/namespaced.ts";
import { startFakeRegistry } from "./support/fake-registry.ts";

// What --namespace sends, and how partial pages are reported, without starting registries
// (tree.test.ts runs the same against real ones).

const fields = { Query: ["namespace", "streams", "stream"], Mutation: ["createStream"] };
const columns = [{ key: "stream", header: "stream" }];

describe("--namespace and the namespace column", () => {
  it("shows the namespace column only when a row is not the registry's own", () => {
    expect(withNamespaceColumn(columns, [{ namespace: "/" }, { namespace: "/" }], "/")).toEqual(columns);
    expect(withNamespaceColumn(columns, [], "/")).toEqual(columns);
    expect(withNamespaceColumn(columns, [{ namespace: "/aws" }], "/")[0]?.key).toBe("namespace");
    expect(withNamespaceColumn(columns, [{ namespace: "/" }, { namespace: "/aws" }], "/")[0]?.key).toBe(
      "namespace",
    );
    // A registry that did not say which namespace is its own: only a mix shows it.
    expect(withNamespaceColumn(columns, [{ namespace: "/aws" }], undefined)).toEqual(columns);
  });

  it("sends the namespace in a mutation's input and a list's filter", async () => {
    await using registry = await startFakeRegistry(fields, (request) => ({
      body: {
        data: request.query.includes("createStream")
          ? {
              createStream: {
                stream: { namespace: "/aws", name: "s", generation: 1, deleting: false, bindings: [] },
                userErrors: [],
              },
            }
          : {
              registryNamespace: { path: "/" },
              streams: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
            },
      },
    }));
    const srctl = createSrctl({ registry: registry.url, namespace: "/aws" });
    const report = await srctl.run('CREATE STREAM "s"; SHOW STREAMS LIKE "s%";');
    expect(report.exitCode).toBe(ExitCode.OK);
    expect(report.results[0]?.output).toMatchObject({ object: { namespace: "/aws", name: "s" } });
    const [create, list] = registry.requests.filter((r) => !r.query.includes("__schema"));
    expect(create?.variables?.input).toEqual({ namespace: "/aws", name: "s" });
    expect(list?.variables?.filter).toEqual({ nameStartsWith: "s", namespace: "/aws" });
  });

  it("warns once per namespace left out, however many pages name it", async () => {
    const page = (name: string, endCursor: string | null) => ({
      registryNamespace: { path: "/" },
      streams: {
        nodes: [{ namespace: "/", name, bindings: [], defaultBinding: null }],
        pageInfo: { hasNextPage: endCursor !== null, endCursor },
      },
    });
    const down = {
      message: "the child registry that owns /aws cannot be reached",
      extensions: { code: "CHILD_UNAVAILABLE", namespace: "/aws" },
    };
    await using registry = await startFakeRegistry(fields, (request) => ({
      body: { data: request.variables?.after ? page("b", null) : page("a", "c1"), errors: [down] },
    }));
    const report = await createSrctl({ registry: registry.url }).run("SHOW STREAMS;");
    expect(report.exitCode).toBe(ExitCode.PARTIAL);
    const [result] = report.results;
    expect(result?.warnings).toEqual([
      { code: "CHILD_UNAVAILABLE", namespace: "/aws", message: down.message },
    ]);
    // Only the registry's own rows came back: the seed's table, without a namespace column.
    expect(result?.output).toMatchObject({
      columns: [{ key: "stream" }, { key: "bindings" }, { key: "defaultCluster" }],
      rows: [
        { namespace: "/", stream: "a" },
        { namespace: "/", stream: "b" },
      ],
    });
  });
});
