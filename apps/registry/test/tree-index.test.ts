import { describe, expect, it } from "vitest";
import {
  eventually,
  mutate,
  queryDatabase,
  seedChain,
  TREE_TOKEN,
  type RegistryClient,
} from "@stream-registry/testkit";
import { declareParent, STREAMS_PAGE, useSeedTree, type StreamPage } from "./support/seed-tree.ts";
import { comparedSelection, discoveryLists, registrySchema } from "./support/indexed-schema.ts";

// The aggregated discovery index of the seed's tree: the root (and every inner registry) follows
// its children's change feeds, grandchildren through the child, and answers lists from what it
// indexed, the same as a live fan-out would, with each registry's lag.
const LEAVES = ["/aws/us-reg1-xyz", "/mpaas/us-aus1-dc01"];
const GRANT = `mutation ($input: GrantInput!) { grant(input: $input) { userErrors { code field message } } }`;

// Every field the index answers, nested entities included, through the index or live: derived
// from the schema, so that a field added to Stream (or a list added to the index) is compared too.
// One query per list: together they would cost more than a request may (QUERY_MAX_COST).
const RICH = discoveryLists(registrySchema()).map(({ name, node }) => {
  const [variable, filter] = name === "streams" ? [", $filter: StreamFilter", ", filter: $filter"] : ["", ""];
  return `query ($consistency: Consistency${variable}) {
  ${name}(first: 50, consistency: $consistency${filter}) { totalCount nodes ${comparedSelection(node)} }
}`;
});
type Node = { namespace?: string; name?: string; fqn?: string };
type Rich = Record<string, { totalCount: number; nodes: Node[] }> & {
  streams: { totalCount: number; nodes: { namespace: string; name: string }[] };
};
interface Lag {
  namespace: string;
  entriesBehind: number;
  secondsBehind: number;
  syncedAt: string | null;
  lastError: string | null;
}
const LAG = `{ indexLag { namespace entriesBehind secondsBehind syncedAt lastError } }`;
const lagOf = async (r: RegistryClient) => (await r.query<{ indexLag: Lag[] }>(LAG)).indexLag;

/** Every list's nodes in one order, whatever order the list gave them in. */
function sorted(rich: Rich): Rich {
  const key = (node: Node) => node.fqn ?? `${node.namespace} ${node.name}`;
  const order = (a: Node, b: Node) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  return Object.fromEntries(
    Object.entries(rich).map(([list, page]) => [list, { ...page, nodes: [...page.nodes].sort(order) }]),
  ) as Rich;
}

/** Every list of RICH at `r`, in one object. */
async function rich(r: RegistryClient, consistency: string, filter?: Record<string, unknown>): Promise<Rich> {
  const lists = {};
  for (const query of RICH) {
    const answer = await r.request<Rich>(query, { consistency, filter });
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    Object.assign(lists, answer.data);
  }
  return lists as Rich;
}

/** Waits until the index answers at `r` as the live fan-out does (all ONLINE first), and returns it. */
async function indexMatchesLive(r: RegistryClient, filter?: Record<string, unknown>): Promise<Rich> {
  return eventually(
    async () => {
      const [a, b] = [sorted(await rich(r, "LIVE", filter)), sorted(await rich(r, "INDEX", filter))];
      const settled = JSON.stringify(a).includes('"PENDING"') === false;
      return settled && JSON.stringify(a) === JSON.stringify(b) ? b : undefined;
    },
    30_000,
    "the index to answer as the live fan-out does",
  );
}

/** Streams at `ns`, made through `root`, each with its team (the namespace) and bound on `cluster`. */
async function createStreams(
  root: RegistryClient,
  ns: string,
  names: string[],
  cluster = "c1",
): Promise<void> {
  let streams = seedChain(root).at(ns);
  for (const name of names) {
    streams = streams.stream({ name, config: { "acme.kafka": { team: ns } } }).binding({ cluster });
  }
  await streams;
}

/** Sends `step` until it succeeds or what it makes exists already (an earlier attempt landed). */
async function sentUntilLanded(step: () => PromiseLike<unknown>): Promise<void> {
  await eventually(
    async () => {
      try {
        await step();
        return true;
      } catch (error) {
        return /"code": "ALREADY_EXISTS"/.test(String(error)) ? true : undefined;
      }
    },
    30_000,
    "the leaf to be asked again",
  );
}

async function namesAt(r: RegistryClient, namespace: string): Promise<string[]> {
  const page = await r.query<StreamPage>(STREAMS_PAGE, {
    first: 500,
    consistency: "INDEX",
    filter: { namespace },
  });
  return page.streams.nodes.map((node) => `${node.namespace} ${node.name}`);
}

describe("the aggregated discovery index of a tree of registries", { timeout: 180_000 }, () => {
  const seed = useSeedTree();
  const at = (path: string) => seed.at(path);

  it("answers the root's lists from its index as the live fan-out does, nested entities included", async () => {
    const root = at("/");
    for (const ns of ["/aws", ...LEAVES]) {
      await seedChain(root).at(ns).cluster({ name: "c1" });
      await createStreams(root, ns, ["orders", "widgets"]);
    }
    const index = await indexMatchesLive(root);
    expect(index.streams.totalCount).toBe(6);
    expect(index.streams.nodes.map((n) => `${n.namespace} ${n.name}`)).toEqual([
      "/aws orders",
      "/aws widgets",
      "/aws/us-reg1-xyz orders",
      "/aws/us-reg1-xyz widgets",
      "/mpaas/us-aus1-dc01 orders",
      "/mpaas/us-aus1-dc01 widgets",
    ]);
    expect(index.bindings!.nodes).toHaveLength(6);
    // The index's own order: this registry's items, then by namespace path, then name.
    const page = await root.query<StreamPage>(STREAMS_PAGE, { first: 500, consistency: "INDEX" });
    expect(page.streams.nodes.map((n) => n.namespace)).toEqual([
      "/aws",
      "/aws",
      "/aws/us-reg1-xyz",
      "/aws/us-reg1-xyz",
      "/mpaas/us-aus1-dc01",
      "/mpaas/us-aus1-dc01",
    ]);
    // Every registry below, with how far behind it the index is: nothing, once it caught up.
    const lag = await eventually(async () => {
      const lags = await lagOf(root);
      return lags.every((l) => l.entriesBehind === 0 && l.syncedAt !== null && l.lastError === null)
        ? lags
        : undefined;
    });
    expect(lag.map((l) => l.namespace)).toEqual([
      "/aws",
      "/aws/us-reg1-xyz",
      "/mpaas",
      "/mpaas/us-aus1-dc01",
    ]);
    for (const l of lag) expect(l.secondsBehind).toBeLessThan(10);
    const withLag = await root.query<{ streams: { lag: Lag[] } }>(
      `{ streams(first: 1, filter: { namespace: "/aws/us-reg1-xyz" }) { lag { namespace } } }`,
    );
    expect(withLag.streams.lag.map((l) => l.namespace)).toEqual(["/aws", "/aws/us-reg1-xyz"]);
    const live = await root.query<{ streams: { lag: Lag[] } }>(
      `{ streams(consistency: LIVE) { lag { namespace } } }`,
    );
    expect(live.streams.lag).toEqual([]);
    // /aws's feed holds its leaf's entries under the leaf's namespace, each the object it indexed.
    const feed = await at("/aws").query<{
      changes: {
        nodes: { namespace: string; entityType: string; entityKey: string; data: { name?: string } }[];
      };
    }>(`{ changes(first: 500) { nodes { namespace entityType entityKey data } } }`);
    const leafStreams = feed.changes.nodes.filter(
      (c) => c.namespace === "/aws/us-reg1-xyz" && c.entityType === "stream",
    );
    expect(leafStreams.map((c) => [c.entityKey, c.data.name])).toEqual([
      ["orders", "orders"],
      ["widgets", "widgets"],
    ]);
  });

  it("filters and pages the index: each item once while items are added, cursors kept to their consistency", async () => {
    const root = at("/");
    await indexMatchesLive(root, { namespace: "/aws/us-reg1-xyz" });
    const seen: string[] = [];
    let after: string | null = null;
    let added = 0;
    do {
      const page: StreamPage = await root.query<StreamPage>(STREAMS_PAGE, {
        first: 2,
        after,
        consistency: "INDEX",
      });
      seen.push(...page.streams.nodes.map((n) => `${n.namespace} ${n.name}`));
      after = page.streams.pageInfo.hasNextPage ? page.streams.pageInfo.endCursor : null;
      // Items added behind and ahead of the position, while paging.
      if (added < 2) {
        await createStreams(root, LEAVES[added]!, [`aaa_paged_${added}`, `zzz_paged_${added}`]);
        added++;
      }
    } while (after);
    expect(new Set(seen).size).toBe(seen.length);
    for (const item of ["/aws orders", "/aws/us-reg1-xyz widgets", "/mpaas/us-aus1-dc01 orders"]) {
      expect(seen).toContain(item);
    }
    const filtered = await root.query<{ streams: { totalCount: number; nodes: { name: string }[] } }>(
      `{ streams(filter: { namespace: "/mpaas", nameStartsWith: "wid", config: [{ map: "acme.kafka", key: "team", value: "/mpaas/us-aus1-dc01" }] }) { totalCount nodes { name } } }`,
    );
    expect(filtered.streams).toEqual({ totalCount: 1, nodes: [{ name: "widgets" }] });
    const online = await root.query<{ bindings: { nodes: { fqn: string }[] } }>(
      `{ bindings(filter: { namespace: "/aws/us-reg1-xyz", stream: "orders", phase: ONLINE }) { nodes { fqn } } }`,
    );
    expect(online.bindings.nodes).toEqual([{ fqn: "/aws/us-reg1-xyz/c1/orders" }]);
    // A cursor goes on in the consistency that gave it; anything else is refused, naming `after`.
    const first = await root.query<StreamPage>(STREAMS_PAGE, { first: 3, consistency: "INDEX" });
    const other = await root.request(STREAMS_PAGE, {
      after: first.streams.pageInfo.endCursor,
      consistency: "LIVE",
    });
    expect(other.errors?.[0]).toMatchObject({ extensions: { code: "INVALID_INPUT", field: ["after"] } });
    const forged = `subtree:${Buffer.from(JSON.stringify(["*", "[1,2]"])).toString("base64url")}`;
    const bad = await root.request(STREAMS_PAGE, { after: forged, consistency: "INDEX" });
    expect(bad.errors?.[0]).toMatchObject({ extensions: { code: "INVALID_INPUT", field: ["after"] } });
  });

  it("keeps answering for a stopped leaf from the index, with its lag growing, and catches up when it is back", async () => {
    const [root, leaf] = [at("/"), at("/aws/us-reg1-xyz")];
    await indexMatchesLive(root);
    await leaf.stop();
    try {
      const live = await root.request<StreamPage>(STREAMS_PAGE, { first: 500 });
      expect(live.errors?.[0]).toMatchObject({ extensions: { code: "CHILD_UNAVAILABLE" } });
      // The index still has the leaf's items, with no error; its lag says since when.
      const index = await root.request<StreamPage>(STREAMS_PAGE, { first: 500, consistency: "INDEX" });
      expect(index.errors).toBeUndefined();
      expect(index.data!.streams.nodes).toContainEqual({ namespace: "/aws/us-reg1-xyz", name: "orders" });
      const stale = await eventually(
        async () => {
          const lag = (await lagOf(root)).find((l) => l.namespace === "/aws/us-reg1-xyz");
          return lag?.lastError && lag.secondsBehind > 1 ? lag : undefined;
        },
        20_000,
        "the root to report the leaf's lag",
      );
      expect(stale.lastError).toContain("does not answer");
    } finally {
      await leaf.start();
    }
    // A write through /aws may find the leaf still starting: each step is sent again until it
    // lands. One the root gave up on may have landed all the same: then it exists, which is landed.
    const leafPath = "/aws/us-reg1-xyz";
    const config = { "acme.kafka": { team: leafPath } };
    await sentUntilLanded(() => seedChain(root).at(leafPath).stream({ name: "after_restart", config }));
    await sentUntilLanded(() =>
      seedChain(root).at(leafPath).binding({ stream: "after_restart", cluster: "c1" }),
    );
    await indexMatchesLive(root);
    expect(await namesAt(root, "/aws/us-reg1-xyz")).toContain("/aws/us-reg1-xyz after_restart");
  });

  it("catches up a child that was down from its position, without reading its feed again", async () => {
    const [root, inner] = [at("/"), at("/mpaas")];
    await indexMatchesLive(root);
    await inner.stop();
    try {
      // Written at the leaf while the registry between it and the root is down.
      await createStreams(at("/mpaas/us-aus1-dc01"), "/mpaas/us-aus1-dc01", ["while_down"]);
      const lag = await eventually(
        async () => {
          const found = (await lagOf(root)).find((l) => l.namespace === "/mpaas");
          return found?.lastError ? found : undefined;
        },
        20_000,
        "the root to report /mpaas unreachable",
      );
      expect(lag.lastError).toContain("does not answer");
      expect(await namesAt(root, "/mpaas")).not.toContain("/mpaas/us-aus1-dc01 while_down");
    } finally {
      await inner.start();
    }
    await eventually(async () =>
      (await namesAt(root, "/mpaas")).includes("/mpaas/us-aus1-dc01 while_down") ? true : undefined,
    );
    await indexMatchesLive(root);
    // It went on from where it was: the root never dropped /mpaas to read it from the start.
    expect(await queryDatabase(at("/").databaseUrl!, "SELECT 1 FROM index_follow WHERE resets > 0")).toBe(0);
  });

  it("moves a re-parented leaf's rows to its new path, at every ancestor", async () => {
    const [root, leaf] = [at("/"), at("/mpaas/us-aus1-dc01")];
    // Streams of its own at the leaf, so the case holds alone (vitest -t) as in the whole file.
    await seedChain(root).at(leaf.path).cluster({ name: "c1" });
    await createStreams(root, leaf.path, ["moving_orders", "moving_widgets"]);
    await indexMatchesLive(root);
    expect(await namesAt(root, "/mpaas")).toContain("/mpaas/us-aus1-dc01 moving_orders");
    expect((await declareParent(leaf, at("/aws").url)).userErrors).toEqual([]);
    // Its new parent's admin token is a stranger to the leaf until the leaf grants it (issue 19):
    // a live list at /aws would leave the leaf's streams out.
    await mutate(leaf, GRANT, { input: { principal: "token:admin@/aws", role: "admin" } });
    try {
      const moved = await eventually(
        async () => {
          const [under, gone] = [await namesAt(root, "/aws/us-aus1-dc01"), await namesAt(root, "/mpaas")];
          return under.includes("/aws/us-aus1-dc01 moving_orders") && gone.length === 0 ? under : undefined;
        },
        30_000,
        "the leaf's rows to move under /aws",
      );
      expect(moved).toContain("/aws/us-aus1-dc01 moving_widgets");
      await indexMatchesLive(root);
      await indexMatchesLive(at("/aws"));
      expect(await namesAt(at("/mpaas"), "/mpaas")).toEqual([]);
    } finally {
      expect((await declareParent(leaf, at("/mpaas").url, TREE_TOKEN)).userErrors).toEqual([]);
    }
    await eventually(async () =>
      (await namesAt(root, "/mpaas")).includes("/mpaas/us-aus1-dc01 moving_orders") ? true : undefined,
    );
    await indexMatchesLive(root);
  });

  it("drops and re-indexes a child whose feed started over (restored from a backup), keeping no stale rows", async () => {
    const [root, aws] = [at("/"), at("/aws")];
    await indexMatchesLive(root);
    // The backup: a copy of /aws's database, taken while it is stopped. Then a stream the backup
    // lacks, which the root indexes.
    const name = new URL(aws.databaseUrl!).pathname.slice(1);
    const admin = new URL(aws.databaseUrl!);
    admin.pathname = "/postgres";
    await aws.stop();
    await queryDatabase(admin.href, `CREATE DATABASE "${name}_backup" TEMPLATE "${name}"`);
    await aws.start();
    await createStreams(aws, "/aws", ["after_backup"]);
    await eventually(async () =>
      (await namesAt(root, "/aws")).includes("/aws after_backup") ? true : undefined,
    );
    // The restore: /aws's database is the backup again, its feed shorter than the root has read.
    await aws.stop();
    await queryDatabase(admin.href, `DROP DATABASE "${name}"`);
    await queryDatabase(admin.href, `ALTER DATABASE "${name}_backup" RENAME TO "${name}"`);
    await aws.start();
    await createStreams(aws, "/aws", ["after_restore"]);
    const names = await eventually(
      async () => {
        const found = await namesAt(root, "/aws");
        return found.includes("/aws after_restore") && !found.includes("/aws after_backup")
          ? found
          : undefined;
      },
      30_000,
      "the root to index /aws again",
    );
    expect(names).toContain("/aws/us-reg1-xyz orders");
    await indexMatchesLive(root);
    expect(await queryDatabase(root.databaseUrl!, "SELECT 1 FROM index_follow WHERE resets > 0")).toBe(1);
  });
});
