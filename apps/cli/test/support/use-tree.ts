import { afterAll, beforeAll, beforeEach } from "vitest";
import { startRegistryTree, type RegistryNode } from "@stream-registry/testkit";

/**
 * A tree of registry processes for the file's tests (`paths` parents first), disposed after them;
 * every registry's log is printed when a test fails. Returns the node of a namespace path.
 */
export function useRegistryTree(
  paths: string[],
  env: Record<string, string>,
): (path: string) => RegistryNode {
  let tree: Map<string, RegistryNode> | undefined;
  beforeAll(async () => {
    tree = await startRegistryTree(paths, { env });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
  });
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      for (const node of tree?.values() ?? []) console.error(`--- ${node.path}\n${node.logs().join("\n")}`);
    });
  });
  return (path) => tree!.get(path)!;
}
