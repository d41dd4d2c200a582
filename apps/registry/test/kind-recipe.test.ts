import { beforeAll, describe, expect, it, vi } from "vitest";
import type * as Core from "@stream-registry/core";
import type * as Sdl from "../src/graphql/sdl.ts";
import type * as Resolvers from "../src/graphql/resolvers/index.ts";
import { attach, TREE_TOKEN, eventually } from "@stream-registry/testkit";
import { useTestRegistry } from "./support/test-registry.ts";
import { createWidget } from "./support/widget-kind.ts";

// docs/architecture.md's recipe "Adding a kind", walked by a kind of the test's own, Widget, with
// nothing else changed: its row of ENTITY_KINDS (support/widget-row.ts), its types beside
// schema.graphql's and its resolvers and writes (support/widget-kind.ts). Two registries of this
// process, a root and its child /aws, talking real HTTP: the root routes a look-up of the child's
// widgets, indexes them from the child's feed, and lists and pages them from its index.
vi.mock("@stream-registry/core", async (importOriginal) => {
  const core = await importOriginal<typeof Core>();
  const { WIDGET_KIND } = await import("./support/widget-row.ts");
  return { ...core, ENTITY_KINDS: [...core.ENTITY_KINDS, WIDGET_KIND] };
});
vi.mock("../src/graphql/sdl.ts", async (importOriginal) => {
  const sdl = await importOriginal<typeof Sdl>();
  const { WIDGET_SDL } = await import("./support/widget-kind.ts");
  return { ...sdl, subgraphSdl: () => `${sdl.subgraphSdl()}\n${WIDGET_SDL}` };
});
vi.mock("../src/graphql/resolvers/index.ts", async (importOriginal) => {
  const { resolvers } = await importOriginal<typeof Resolvers>();
  const { withWidgets } = await import("./support/widget-kind.ts");
  return { resolvers: withWidgets(resolvers) };
});

const env = { REGISTRY_ENROLLMENT_TOKEN: TREE_TOKEN };
const root = useTestRegistry("pglite", env);
const aws = useTestRegistry("pglite", env);

const WIDGETS = `query ($first: Int, $after: String, $consistency: Consistency) {
  widgets(first: $first, after: $after, consistency: $consistency) {
    totalCount pageInfo { hasNextPage endCursor } nodes { namespace name colour } lag { namespace } } }`;
interface WidgetPage {
  widgets: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: { namespace: string; name: string; colour: string }[];
    lag: { namespace: string }[];
  };
}

describe("a kind added through the recipe alone", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    await attach({ ...aws(), path: "/aws" }, root());
    for (const [name, colour] of [
      ["w1", "red"],
      ["w2", "green"],
      ["w3", "blue"],
    ] as const)
      await createWidget(aws().db, "/aws", name, colour);
  });

  it("is routed to its owner by the look-up of its row", async () => {
    const { widget } = await root().query<{ widget: unknown }>(
      `{ widget(namespace: "/aws", name: "w2") { namespace name colour } }`,
    );
    expect(widget).toEqual({ namespace: "/aws", name: "w2", colour: "green" });
  });

  it("is indexed at the parent, and listed and paged from its index", async () => {
    const all = await eventually(async () => {
      const page = await root().query<WidgetPage>(WIDGETS, { first: 10 });
      return page.widgets.nodes.length === 3 ? page : undefined;
    });
    expect(all.widgets).toMatchObject({
      totalCount: 3,
      nodes: [
        { namespace: "/aws", name: "w1", colour: "red" },
        { namespace: "/aws", name: "w2", colour: "green" },
        { namespace: "/aws", name: "w3", colour: "blue" },
      ],
      // Answered by the index: it says how far behind the child it is.
      lag: [{ namespace: "/aws" }],
    });
    const first = await root().query<WidgetPage>(WIDGETS, { first: 2 });
    expect(first.widgets.nodes.map((widget) => widget.name)).toEqual(["w1", "w2"]);
    expect(first.widgets.pageInfo.hasNextPage).toBe(true);
    const next = await root().query<WidgetPage>(WIDGETS, {
      first: 2,
      after: first.widgets.pageInfo.endCursor,
    });
    expect(next.widgets.nodes.map((widget) => widget.name)).toEqual(["w3"]);
    expect(next.widgets.pageInfo.hasNextPage).toBe(false);
  });

  it("is listed live from its owner as it is from the index", async () => {
    const live = await root().query<WidgetPage>(WIDGETS, { first: 10, consistency: "LIVE" });
    expect(live.widgets.nodes.map((widget) => widget.name)).toEqual(["w1", "w2", "w3"]);
    expect(live.widgets.lag).toEqual([]);
  });
});
