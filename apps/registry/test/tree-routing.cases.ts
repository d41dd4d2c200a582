import { describe, expect, it } from "vitest";
import {
  DECLARE_CLUSTER,
  eventually,
  mutate,
  seedChain,
  withAuthorization,
  type RegistryClient,
} from "@stream-registry/testkit";
import { STREAMS_PAGE, type Payload, type SeedTree, type StreamPage } from "./support/seed-tree.ts";

// The seed's tree (/, /aws, /aws/us-reg1-xyz, /mpaas, /mpaas/us-aus1-dc01) as a client sees it from
// the root: mutations and look-ups for a namespace below, lists of the whole subtree, entity keys.
// What a child that is down or hangs does to these: tree-partial-answers.cases.ts. Run on the tree
// tree-shared.test.ts starts, before those.
export function routingCases(seed: SeedTree): void {
  describe(
    "a tree of registries: routing, discovery over the subtree and entity keys",
    { timeout: 120_000 },
    () => {
      const at = (path: string) => seed.at(path);

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
          {
            input: { name: "widgets_v0", namespace: ns, config: { "acme.kafka": { team: "widgets-team" } } },
          },
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
        // It lives at the leaf, written by the caller the root verified: an x-actor header is no one.
        const atLeaf = await leaf.query<{
          stream: { namespace: string } | null;
          changes: { nodes: { entityType: string; actor: string }[] };
        }>(`{ stream(name: "widgets_v0") { namespace } changes(first: 50) { nodes { entityType actor } } }`);
        expect(atLeaf.stream).toEqual({ namespace: ns });
        // Forwarded by the root to /aws, and by /aws to the leaf: each hop a token it signed. The
        // root's admin token is the root's (issue 19), which the leaf was granted by the testkit.
        expect(atLeaf.changes.nodes.filter((c) => c.entityType === "stream")).toEqual([
          { entityType: "stream", actor: "token:admin@/ via /aws" },
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
            message:
              "no child registry owns namespace /gcp, so none owns /gcp/us-east; the child registries of / own /aws, /mpaas",
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
        // Deeper than a child's own namespace the index cannot tell, so the registries below are
        // asked: from the index (the default) as live, NOT_FOUND names the level nobody owns.
        for (const consistency of ["INDEX", "LIVE"]) {
          const deep = (namespace: string) =>
            at("/").request(
              `query ($ns: String, $c: Consistency) { streams(filter: { namespace: $ns }, consistency: $c) { totalCount } }`,
              { ns: namespace, c: consistency },
            );
          expect((await deep("/aws/nowhere")).errors).toEqual([
            expect.objectContaining({
              // Said once (no "so none owns" of itself), with what exists there instead.
              message:
                "no child registry owns namespace /aws/nowhere; the child registries of /aws own /aws/us-reg1-xyz",
              extensions: expect.objectContaining({ code: "NOT_FOUND", field: ["filter", "namespace"] }),
            }),
          ]);
          expect((await deep("/aws/us-reg1-xyz/deeper")).errors?.[0]).toMatchObject({
            message:
              "no child registry owns namespace /aws/us-reg1-xyz/deeper; /aws/us-reg1-xyz has no child registries",
            extensions: { code: "NOT_FOUND", field: ["filter", "namespace"] },
          });
          // One that exists and is empty is just empty.
          const empty = await deep("/mpaas/us-aus1-dc01");
          expect(empty.errors).toBeUndefined();
          expect(empty.data).toEqual({ streams: { totalCount: 0 } });
        }
      });

      it("lists the whole subtree at the root, live: each item once, in tree order, paged and filtered", async () => {
        const root = at("/");
        const made: [string, string][] = [["/aws/us-reg1-xyz", "widgets_v0"]];
        let streams = seedChain(root);
        for (const [ns, names] of [
          ["/", ["root_s"]],
          ["/aws", ["aws_a", "aws_b"]],
          ["/aws/us-reg1-xyz", ["xyz_a", "xyz_b", "xyz_c"]],
          ["/mpaas/us-aus1-dc01", ["dc01_a", "dc01_b"]],
        ] as const) {
          streams = streams.at(ns);
          for (const name of names) {
            streams = streams.stream({ name });
            made.push([ns, name]);
          }
        }
        await streams;
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
            await seedChain(root).at("/mpaas/us-aus1-dc01").stream({ name: "dc01_late" });
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
        }>(
          `{ clusters(consistency: LIVE) { nodes { namespace name } } bindings(consistency: LIVE) { nodes { fqn } } }`,
        );
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

      it("passes a look-up through the registries between the client and its owner, each asked once", async () => {
        const [root, ns] = [at("/"), "/aws/us-reg1-xyz"];
        const asked = (path: string, operation: string) =>
          at(path)
            .logs()
            .filter(
              (line) => line.includes('"msg":"request"') && line.includes(`"operationName":"${operation}"`),
            ).length;
        await seedChain(at(ns)).stream({ name: "passed_v0" });
        const lookup = `query PassedLookup($ns: String) {
        stream(name: "passed_v0", namespace: $ns) { namespace name generation bindings { fqn } } }`;
        const direct = await at(ns).request(lookup, { ns });
        const response = await fetch(root.url, {
          method: "POST",
          headers: withAuthorization({ "content-type": "application/json" }),
          body: JSON.stringify({ query: lookup, variables: { ns } }),
        });
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        // The owner's answer, byte for byte as it gave it.
        expect(await response.json()).toEqual({ data: direct.data });
        expect(direct.data).toEqual({
          stream: { namespace: ns, name: "passed_v0", generation: 1, bindings: [] },
        });
        // /aws passed the client's operation on (named as the client named it), and the leaf ran it.
        await eventually(
          async () =>
            (asked("/", "PassedLookup") === 1 &&
              asked("/aws", "PassedLookup") === 1 &&
              asked(ns, "PassedLookup") === 2) ||
            undefined,
          5_000,
          "the request log lines",
        );
        // An answer with errors is this registry's as before, from the one answer it was given:
        // /aws refuses a namespace below it that no registry owns.
        const missing = await root.request(
          `query PassedMissing { stream(name: "x", namespace: "/aws/nowhere") { name } }`,
        );
        expect(missing.data).toEqual({ stream: null });
        expect(missing.errors?.[0]).toMatchObject({
          message: expect.stringContaining("/aws/nowhere"),
          extensions: { code: "NOT_FOUND", namespace: "/aws" },
        });
        await eventually(
          async () => asked("/aws", "PassedMissing") === 1 || undefined,
          5_000,
          "the log line",
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(asked("/aws", "PassedMissing")).toBe(1);
      });
    },
  );
}
