import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mutate, startRegistryTree, type RegistryNode } from "@stream-registry/testkit";
import { LISTS, page, type List } from "./support/cursor-lists.ts";

// Issue 19, finding 10: a cursor was accepted by another list (clusters(after: <a streams
// cursor>)) and at the other consistency (streams(consistency: LIVE, after: <an INDEX cursor>)).
// Every cursor names its list and consistency; any other list refuses it, naming `after` and the
// list it belongs to.

const names = Object.keys(LISTS) as List[];

describe("cursors carry their list and consistency (production tree / and /aws)", { timeout: 60_000 }, () => {
  let tree: Map<string, RegistryNode>;
  let root: RegistryNode;
  const cursors = {} as Record<List, string>;

  beforeAll(async () => {
    tree = await startRegistryTree(["/", "/aws"], { env: { NODE_ENV: "production" } });
    root = tree.get("/")!;
    for (const node of [root, tree.get("/aws")!]) {
      await mutate(
        node,
        'mutation { declareCluster(input: { name: "c1", provider: "registry-only" }) { userErrors { code } } }',
      );
      await mutate(node, 'mutation { createStream(input: { name: "s1" }) { userErrors { code } } }');
      await mutate(
        node,
        'mutation { createBinding(input: { stream: "s1", cluster: "c1" }) { userErrors { code } } }',
      );
    }
    for (const list of names) {
      const { page: found } = await root.query<{ page: { pageInfo: { endCursor: string | null } } }>(
        page(list),
      );
      expect(found.pageInfo.endCursor, list).toEqual(expect.any(String));
      cursors[list] = found.pageInfo.endCursor!;
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
  });

  it.each(names)("%s pages on with its own cursor", async (list) => {
    const response = await root.request(page(list), { after: cursors[list] });
    expect(response.errors).toBeUndefined();
  });

  it.each(names)("%s refuses every other list's cursor, naming after and the cursor's list", async (list) => {
    for (const other of names.filter((name) => name !== list)) {
      const response = await root.request(page(list), { after: cursors[other] });
      expect(response.data ?? null, `${other} in ${list}`).toBeNull();
      expect(response.errors, `${other} in ${list}`).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(
            new RegExp(`^after is a cursor of the list "${other.replace(/[()]/g, "\\$&")}", not of `),
          ),
          extensions: expect.objectContaining({ code: "INVALID_INPUT" }),
        }),
      ]);
    }
  });

  it.each(names)("%s refuses a tampered cursor", async (list) => {
    const tampered = `${cursors[list].slice(0, -2)}x_`;
    const response = await root.request(page(list), { after: tampered });
    expect(response.errors?.[0]?.extensions?.code).toBe("INVALID_INPUT");
  });
});
