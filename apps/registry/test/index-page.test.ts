import { expect, it } from "vitest";
import type { FeedEntry } from "@stream-registry/federation";
import type { IndexFollow } from "@stream-registry/store";
import { descendantLag, fingerprint, indexPage, ownKeys } from "../src/discovery/index-page.ts";

// What a page of a child's feed makes of the index, without a database: the child "aws", which
// now owns /aws, with a child of its own, /aws/dc1.
const follow: IndexFollow = {
  childId: "child-id",
  name: "aws",
  url: "http://aws/graphql",
  registryId: "r-aws",
  feedRegistryId: "r-aws",
  seq: 10n,
  fingerprint: "f",
  latestSeq: 10n,
  readAt: null,
  caughtUpAt: null,
  lastError: null,
  resets: 0,
  registeredAt: new Date(0),
  descendantLag: [],
  descendantHealth: [],
};
const registry = { id: "r-aws", namespace: "/aws" };
let seq = 10;
const entry = (namespace: string, entityType: string, entityKey: string, data: unknown = {}): FeedEntry => ({
  seq: String(++seq),
  namespace,
  entityType,
  entityKey,
  action: "created",
  generation: 1,
  actor: "alice",
  at: "2026-12-01T00:00:00.000Z",
  data,
});
const doc = (name: string) => ({ name, createdAt: "2026-12-01T00:00:00.000Z" });
const read = { latestSeq: 20n, caughtUp: true, descendantLag: [], descendantHealth: [] };

it("asks the child for the objects of its own entries, once each, a binding by its fqn under the child's path now", () => {
  const entries = [
    entry("/aws", "stream", "orders"),
    entry("/aws", "stream", "orders"),
    // Written when the child was still "/us-east": its fqn names that path.
    entry("/aws", "binding", "/us-east/c1/orders"),
    entry("/aws/dc1", "stream", "deeper", doc("deeper")),
    entry("/aws", "registry", "/aws"),
  ];
  expect(ownKeys(entries, "/aws")).toEqual([
    { __typename: "Stream", namespace: "/aws", name: "orders" },
    { __typename: "Binding", fqn: "/aws/c1/orders" },
  ]);
});

it("makes rows of the child's objects and of those it indexed below it, and passes every entry on", () => {
  const entries = [
    entry("/aws", "stream", "orders"),
    entry("/aws", "stream", "gone"),
    entry("/aws/dc1", "stream", "deeper", doc("deeper")),
    entry("/aws/dc1", "stream", "removed", {}),
    entry("/elsewhere", "stream", "stray", doc("stray")),
  ];
  const keys = ownKeys(entries, "/aws");
  const page = indexPage(follow, registry, entries, keys, [doc("orders"), null], read);
  expect(page.put.map((row) => [row.namespace, row.name])).toEqual([
    ["aws", "orders"],
    ["aws/dc1", "deeper"],
  ]);
  expect(page.removed).toEqual([
    { kind: "stream", namespace: "aws", name: "gone", cluster: "" },
    { kind: "stream", namespace: "aws/dc1", name: "removed", cluster: "" },
  ]);
  // Not of the child's subtree as it answered: neither indexed nor passed on.
  expect(page.republish.map((change) => change.below)).toEqual(["aws", "aws", "aws/dc1", "aws/dc1"]);
  expect(page.republish[0]!.data).toEqual(doc("orders"));
  expect(page.republish[1]!.data).toEqual({});
  expect(page.from).toBe(10n);
  expect(page.to).toMatchObject({
    seq: BigInt(entries.at(-1)!.seq),
    fingerprint: fingerprint(entries.at(-1)!),
  });
});

it("drops a namespace the child dropped, with the rows the page put there before, not those after", () => {
  const entries = [
    entry("/aws/dc1", "stream", "before", doc("before")),
    entry("/aws/dc1", "index", "dc1"),
    entry("/aws/dc1", "stream", "after", doc("after")),
    entry("/aws/dc10", "stream", "sibling", doc("sibling")),
  ];
  entries[1]!.action = "dropped";
  const page = indexPage(follow, registry, entries, [], [], read);
  expect(page.dropped).toEqual(["aws/dc1"]);
  expect(page.put.map((row) => `${row.namespace} ${row.name}`)).toEqual([
    "aws/dc1 after",
    "aws/dc10 sibling",
  ]);
});

it("keeps the lag the child reported of its own children, by their paths here", () => {
  const lag = { entriesBehind: 3, secondsBehind: 1.5, syncedAt: null, lastError: "down" };
  expect(
    descendantLag("aws", "/aws", [
      { namespace: "/aws/dc1", ...lag },
      { namespace: "/gcp", ...lag },
    ]),
  ).toEqual([{ below: "aws/dc1", ...lag }]);
});
