import { beforeAll, describe, expect, it } from "vitest";
import { databaseKinds, seed } from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const STREAM_PAGE = `query($first: Int, $after: String, $filter: StreamFilter) {
  streams(first: $first, after: $after, filter: $filter) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage endCursor }
    nodes { name bindings { fqn isDefault cluster { name provider } status { phase } } }
  } }`;

interface StreamPage {
  streams: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null };
    nodes: { name: string; bindings: { fqn: string; cluster: { name: string } }[] }[];
  };
}

const teams = ["widgets", "gadgets", "gizmos"];

async function seedStreams(r: TestRegistry, count: number): Promise<void> {
  const [c1, c2] = [await seed(r).cluster({ name: "page-c1" }), await seed(r).cluster({ name: "page-c2" })];
  for (let i = 0; i < count; i++) {
    const stream = await seed(r).stream({
      name: `page_${String(i).padStart(3, "0")}`,
      config: { "acme.kafka": { team: teams[i % 3]!, tier: i % 2 } },
    });
    await seed(r).binding({ stream, cluster: c1 });
    if (i % 2 === 0) await seed(r).binding({ stream, cluster: c2 });
  }
}

/**
 * The SQL statements Prisma sends while `work` runs (transaction markers excluded): the fewest of
 * three runs, since the registry's own loops (the discovery index's supervisor, re-reading its
 * settings) may query the database meanwhile.
 */
async function countQueries(r: TestRegistry, work: () => Promise<unknown>): Promise<number> {
  const counts: number[] = [];
  for (let run = 0; run < 3; run++) counts.push(await countQueriesOnce(r, work));
  return Math.min(...counts);
}

async function countQueriesOnce(r: TestRegistry, work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const stop = r.db.onQuery((sql) => {
    // Verifying the API token is cached for a few seconds: whether it is asked depends on timing.
    if (!/^\s*(BEGIN|COMMIT|ROLLBACK|-- Implicit)/i.test(sql) && !/"api_token"/.test(sql)) count++;
  });
  try {
    await work();
  } finally {
    stop();
  }
  return count;
}

describe.each(databaseKinds)("pagination and filters on %s", (kind) => {
  const registry = useTestRegistry(kind, { RECONCILER_ENABLED: "false" });
  beforeAll(() => seedStreams(registry(), 120));

  it("pages through every stream once, in name order, with stable cursors", async () => {
    const r = registry();
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; ; pages++) {
      const { streams }: StreamPage = await r.query<StreamPage>(STREAM_PAGE, { first: 50, after });
      expect(streams.totalCount).toBe(120);
      expect(streams.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...streams.nodes.map((n) => n.name));
      if (!streams.pageInfo.hasNextPage) {
        expect(pages).toBe(2);
        break;
      }
      after = streams.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(120);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(120);
  });

  it("costs the same number of SQL queries for 10 or 100 streams with their bindings and clusters", async () => {
    const r = registry();
    let pageOf100: StreamPage | undefined;
    const small = await countQueries(r, () => r.query(STREAM_PAGE, { first: 10 }));
    const large = await countQueries(
      r,
      async () => (pageOf100 = await r.query<StreamPage>(STREAM_PAGE, { first: 100 })),
    );
    expect(pageOf100!.streams.nodes).toHaveLength(100);
    expect(pageOf100!.streams.nodes.flatMap((n) => n.bindings)).toHaveLength(150);
    // streams page + totalCount + bindings of all streams with their clusters (one join); the
    // child registries to ask (none here) are read once a second and the caller's grants once in a
    // few seconds, so the fewest of three runs has neither
    expect(large).toBe(3);
    expect(small).toBe(large);
  });

  it("filters by name prefix, substring and config-map values", async () => {
    const r = registry();
    const names = async (filter: Record<string, unknown>) =>
      (await r.query<StreamPage>(STREAM_PAGE, { first: 500, filter })).streams.nodes.map((n) => n.name);
    expect(await names({ nameStartsWith: "page_11" })).toEqual(
      Array.from({ length: 10 }, (_, i) => `page_11${i}`),
    );
    expect(await names({ nameContains: "_05" })).toHaveLength(10);
    const gadgets = await names({ config: [{ map: "acme.kafka", key: "team", value: "gadgets" }] });
    expect(gadgets).toHaveLength(40);
    expect(gadgets[0]).toBe("page_001");
    const both = await names({
      nameStartsWith: "page_0",
      config: [
        { map: "acme.kafka", key: "team", value: "widgets" },
        { map: "acme.kafka", key: "tier", value: 1 },
      ],
    });
    expect(both).toEqual(["page_003", "page_009", "page_015"].concat(both.slice(3)));
    expect(both.every((n) => Number(n.slice(5)) % 6 === 3)).toBe(true);
  });

  it("pages through bindings in DESCRIBE BINDINGS order and filters them", async () => {
    const r = registry();
    const all: { stream: string; cluster: string }[] = [];
    let after: string | null = null;
    do {
      const data: {
        bindings: {
          nodes: { stream: { name: string }; cluster: { name: string } }[];
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
        };
      } = await r.query(
        `query($after: String) { bindings(first: 70, after: $after) {
            nodes { stream { name } cluster { name } } pageInfo { hasNextPage endCursor } } }`,
        { after },
      );
      all.push(...data.bindings.nodes.map((b) => ({ stream: b.stream.name, cluster: b.cluster.name })));
      after = data.bindings.pageInfo.hasNextPage ? data.bindings.pageInfo.endCursor : null;
    } while (after);
    expect(all).toHaveLength(180);
    expect(all.slice(0, 3)).toEqual([
      { stream: "page_000", cluster: "page-c1" },
      { stream: "page_000", cluster: "page-c2" },
      { stream: "page_001", cluster: "page-c1" },
    ]);
    const onC2 = await r.query<{ bindings: { totalCount: number } }>(
      `{ bindings(filter: { cluster: "page-c2" }) { totalCount } }`,
    );
    expect(onC2.bindings.totalCount).toBe(60);
    const pending = await r.query<{ bindings: { totalCount: number } }>(
      `{ bindings(filter: { phase: PENDING }) { totalCount } }`,
    );
    expect(pending.bindings.totalCount).toBe(180);
  });

  it("lists clusters as a connection filtered by provider", async () => {
    const r = registry();
    await seed(r).cluster({ name: "page-t1", provider: "test" });
    const data = await r.query<{ clusters: { totalCount: number; nodes: { name: string }[] } }>(
      `{ clusters(filter: { provider: "test" }) { totalCount nodes { name } } }`,
    );
    expect(data.clusters).toEqual({ totalCount: 1, nodes: [{ name: "page-t1" }] });
  });
});
