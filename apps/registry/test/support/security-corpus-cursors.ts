import { expect } from "vitest";
import { encodeCursor } from "@stream-registry/core";
import { encodeSubtreeCursor } from "@stream-registry/federation";
import { type Answer, type CorpusCase } from "./security-corpus.ts";
import { ADMIN, as, caseList, op, type Headers } from "./security-corpus-ops.ts";

// Issue 19, finding 10: a cursor paged a list it did not come from (clusters after a streams
// cursor) and a consistency it did not come from (LIVE after an INDEX cursor). Cursors are opaque,
// not secret: these are made as a caller who decoded one would make them.

/** A cursor of the subtree list `list` at `consistency` (the root's, which has children). */
const subtree = (list: string, consistency: string, own: string) =>
  encodeSubtreeCursor({ list, consistency }, { source: "", cursor: own });
const streamsIndex = subtree("streams", "INDEX", encodeCursor("streams", { name: "widgets_a" }));
const streamsLive = subtree("streams", "LIVE", encodeCursor("streams", { name: "widgets_a" }));
const clustersIndex = subtree("clusters", "INDEX", encodeCursor("clusters", { name: "c1" }));
const changes = encodeCursor("changes", { seq: "1" });
const grants = encodeCursor("grants", { principal: "token:reader", role: "reader" });
const ownStreams = encodeCursor("streams", { name: "aws2_a" });

const page = (field: string) => `query ($after: String) { page: ${field} { pageInfo { endCursor } } }`;
/** Refused as INVALID_INPUT on `after`, naming the list the cursor came from. */
const foreign = (of: string) => ({
  status: 400,
  code: "INVALID_INPUT",
  check: (a: Answer) => {
    expect(a.json.data ?? null).toBeNull();
    expect(a.json.errors?.[0]?.message).toMatch(
      new RegExp(`^after is a cursor of the list "${of.replace(/[()]/g, "\\$&")}", not of `),
    );
  },
});

/** Each list given another list's cursor, or its own at the other consistency. */
export function cursorCases(): CorpusCase[] {
  const { cases, add } = caseList();
  const tries: [string, "/" | "/aws2", Headers, string, string, string][] = [
    // At the root, whose lists are its subtree's.
    [
      "a reader, streams LIVE after a streams INDEX cursor",
      "/",
      as("reader"),
      "streams(first: 1, after: $after, consistency: LIVE)",
      streamsIndex,
      "streams (INDEX)",
    ],
    [
      "a reader, streams INDEX after a streams LIVE cursor",
      "/",
      as("reader"),
      "streams(first: 1, after: $after, consistency: INDEX)",
      streamsLive,
      "streams (LIVE)",
    ],
    [
      "a reader, clusters after a streams cursor",
      "/",
      as("reader"),
      "clusters(first: 1, after: $after, consistency: INDEX)",
      streamsIndex,
      "streams (INDEX)",
    ],
    [
      "a reader, bindings after a clusters cursor",
      "/",
      as("reader"),
      "bindings(first: 1, after: $after, consistency: INDEX)",
      clustersIndex,
      "clusters (INDEX)",
    ],
    [
      "a reader, changes after a grants cursor",
      "/",
      as("reader"),
      "changes(first: 1, after: $after)",
      grants,
      "grants",
    ],
    [
      "an admin, grants after a changes cursor",
      "/",
      ADMIN,
      "grants(first: 1, after: $after)",
      changes,
      "changes",
    ],
    // At /aws2, which has no children: its own lists' cursors (its admin: it knows no root token).
    [
      "its admin, changes after a streams cursor at /aws2",
      "/aws2",
      ADMIN,
      "changes(first: 1, after: $after)",
      ownStreams,
      "streams",
    ],
    [
      "its admin, clusters after a streams cursor at /aws2",
      "/aws2",
      ADMIN,
      "clusters(first: 1, after: $after)",
      ownStreams,
      "streams",
    ],
  ];
  for (const [name, to, headers, field, after, of] of tries)
    add("cursors", name, to, headers, op(name, page(field), { after }), foreign(of));
  return cases;
}
