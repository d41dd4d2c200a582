import { composeServices } from "@apollo/composition";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { ErrorCode } from "@stream-registry/core";
import { databaseKinds, seed } from "@stream-registry/testkit";
import { useTestRegistry } from "./support/test-registry.ts";

/** A second subgraph that only references the registry's entities, as a consumer team would. */
const catalogSdl = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key"])
  type Stream @key(fields: "namespace name", resolvable: false) { namespace: String! name: String! }
  type Cluster @key(fields: "namespace name", resolvable: false) { namespace: String! name: String! }
  type Owner { team: String! streams: [Stream!]! }
  type Query { owners: [Owner!]! hotStreams: [Stream!]! }
`;

describe.each(databaseKinds)("federation (%s)", (kind) => {
  const registry = useTestRegistry(kind);

  it("serves an SDL that composes with another subgraph into a supergraph", async () => {
    const { _service } = await registry().query<{ _service: { sdl: string } }>("{ _service { sdl } }");
    const result = composeServices([
      { name: "registry", url: registry().url, typeDefs: parse(_service.sdl) },
      { name: "catalog", url: "http://catalog.invalid/graphql", typeDefs: parse(catalogSdl) },
    ]);
    expect(result.errors ?? []).toEqual([]);
    const supergraph = result.supergraphSdl ?? "";
    for (const entity of ["Stream", "Cluster", "Binding", "Namespace"]) {
      expect(supergraph).toMatch(new RegExp(`type ${entity}\\b[^{]*@join__type\\(graph: REGISTRY, key: `));
    }
    expect(supergraph).toMatch(/hotStreams: \[Stream!\]! @join__field\(graph: CATALOG\)/);
  });

  it("resolves _entities representations, and null for foreign namespaces and unknown names", async () => {
    const r = registry();
    const config = { "acme.kafka": { team: "widgets" } };
    await seed(r).binding({
      stream: await seed(r).stream({ name: "fed-s1", config }),
      cluster: await seed(r).cluster({ name: "fed-c1" }),
    });

    const { _entities } = await r.query<{ _entities: unknown[] }>(
      `query($representations: [_Any!]!) {
        _entities(representations: $representations) {
          ... on Stream { name config }
          ... on Cluster { name provider }
          ... on Binding { fqn isDefault stream { name } }
          ... on Namespace { path }
        } }`,
      {
        representations: [
          { __typename: "Stream", namespace: "/", name: "fed-s1" },
          { __typename: "Cluster", namespace: "/", name: "fed-c1" },
          { __typename: "Binding", fqn: "/fed-c1/fed-s1" },
          { __typename: "Namespace", path: "/" },
          { __typename: "Stream", namespace: "/other", name: "fed-s1" },
          { __typename: "Stream", namespace: "/", name: "no-such-stream" },
          { __typename: "Cluster", namespace: "/other", name: "fed-c1" },
          { __typename: "Binding", fqn: "/other/fed-c1/fed-s1" },
          { __typename: "Namespace", path: "/other" },
        ],
      },
    );
    expect(_entities).toEqual([
      { name: "fed-s1", config },
      { name: "fed-c1", provider: "registry-only" },
      { fqn: "/fed-c1/fed-s1", isDefault: true, stream: { name: "fed-s1" } },
      { path: "/" },
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("serves one ErrorCode enum, equal to the core's", async () => {
    const { __type } = await registry().query<{ __type: { enumValues: { name: string }[] } }>(
      `{ __type(name: "ErrorCode") { enumValues { name } } }`,
    );
    expect(__type.enumValues.map((v) => v.name)).toEqual(Object.values(ErrorCode));
  });
});
