import { describe, expect, it } from "vitest";
import { eventually, type RegistryClient } from "@stream-registry/testkit";
import { TREE, type SeedTree } from "./support/seed-tree.ts";

// Issue 20, item 7: the health of the whole tree at its root. Each registry probes its children;
// what a child found of the registries below it reaches its parent with the child's change feed
// (the discovery index), so the root's Namespace.descendants holds every level.
const DESCENDANTS = `{ namespace { descendants { path url health { status checkedAt lastError } } } }`;
interface Descendant {
  path: string;
  url: string;
  health: { status: string; checkedAt: string | null; lastError: string | null };
}
const descendants = async (r: RegistryClient) =>
  (await r.query<{ namespace: { descendants: Descendant[] } }>(DESCENDANTS)).namespace.descendants;
const statusOf = (list: Descendant[]) => list.map((d) => [d.path, d.health.status]);

// Run on the tree tree-shared.test.ts starts, before the partial answers (which hang a child).
export function healthCases(seed: SeedTree): void {
  describe("the tree's health at its root", { timeout: 120_000 }, () => {
    it("shows every level, and a grandchild that is down, at the root", async () => {
      const root = seed.at("/");
      const below = TREE.filter((path) => path !== "/");
      const allUp = below.map((path) => [path, "UP"]);
      await eventually(async () => {
        const list = await descendants(root);
        return JSON.stringify(statusOf(list)) === JSON.stringify(allUp) ? list : undefined;
      }, 60_000);
      // Tree order, each with the URL its parent reaches it at.
      expect((await descendants(root)).map((d) => [d.path, d.url])).toEqual(
        below.map((path) => [path, seed.at(path).url]),
      );
      // An inner registry answers for its own subtree alone.
      expect(statusOf(await descendants(seed.at("/aws")))).toEqual([["/aws/us-reg1-xyz", "UP"]]);
      expect(await descendants(seed.at("/aws/us-reg1-xyz"))).toEqual([]);

      const leaf = seed.at("/aws/us-reg1-xyz");
      await leaf.stop();
      try {
        const down = await eventually(async () => {
          const found = (await descendants(root)).find((d) => d.path === "/aws/us-reg1-xyz");
          return found?.health.status === "DOWN" ? found : undefined;
        }, 60_000);
        expect(down.health.lastError).toBeTruthy();
        // The rest of the tree is still UP.
        expect(statusOf(await descendants(root))).toEqual(
          allUp.map(([path, status]) => [path, path === "/aws/us-reg1-xyz" ? "DOWN" : status]),
        );
      } finally {
        await leaf.start();
      }
      await eventually(async () => {
        const found = (await descendants(root)).find((d) => d.path === "/aws/us-reg1-xyz");
        return found?.health.status === "UP" ? true : undefined;
      }, 60_000);
    });
  });
}
