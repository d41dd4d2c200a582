/**
 * The tree of bench:federation: a root, three inner registries and three leaves under each, real
 * processes built with the testkit (registryNode, attach). Every node is handed to `track` as soon
 * as it exists, so that an error or a Ctrl-C at any point can stop and dispose of what was started.
 */
import { forEachConcurrently } from "./federation-measure.ts";
import {
  attach,
  parentOf,
  registryNode,
  TREE_TOKEN,
  type DatabaseKind,
  type RegistryNode,
} from "@stream-registry/testkit";

export const INNER = ["/aws", "/azure", "/gcp"] as const;
export const REGIONS = ["us-reg1", "eu-reg1", "ap-reg1"] as const;
export const LEAVES = INNER.flatMap((inner) => REGIONS.map((region) => `${inner}/${region}`));
export const PATHS = ["/", ...INNER, ...LEAVES];

/**
 * Starts the 13 registries (three at a time) and registers the inner ones with the root; the
 * leaves are linked by `linkLeaves`. The registries run as the testkit starts them (no periodic
 * resyncs or probes adding work at random moments) with `env` on top. Nothing is made or started
 * once `signal` is aborted.
 */
export async function startTree(
  kind: DatabaseKind,
  env: Record<string, string>,
  track: (node: RegistryNode) => void,
  log: (message: string) => void,
  signal: AbortSignal,
): Promise<Map<string, RegistryNode>> {
  const nodes = new Map<string, RegistryNode>();
  for (const path of PATHS) {
    signal.throwIfAborted();
    const node = await registryNode(path, kind, { REGISTRY_ENROLLMENT_TOKEN: TREE_TOKEN, ...env });
    if (signal.aborted) await node.dispose(); // made while the clean-up ran: not in its list
    signal.throwIfAborted();
    track(node);
    nodes.set(path, node);
  }
  // A few at a time: a PGlite registry's start-up (initdb, migrations) costs about 14 s of CPU, and
  // 13 at once on two cores take longer than the testkit waits for one.
  const since = performance.now();
  const all = [...nodes.values()];
  await forEachConcurrently(all.length, 3, (i) => {
    signal.throwIfAborted(); // no registry is started after the clean-up began
    return all[i]!.start();
  });
  log(`${nodes.size} registries started in ${((performance.now() - since) / 1000).toFixed(1)} s`);
  await link(nodes, INNER);
  return nodes;
}

/** Names each leaf and registers it with its inner registry. */
export function linkLeaves(nodes: Map<string, RegistryNode>): Promise<void> {
  return link(nodes, LEAVES);
}

async function link(nodes: Map<string, RegistryNode>, paths: readonly string[]): Promise<void> {
  // One registration at a time: a parent registering several children at once on a loaded machine
  // took longer than the child waits for it (10 s).
  for (const path of paths) await attach(nodes.get(path)!, nodes.get(parentOf(path))!);
}

/** The registry process's own pid, from its start-up log line. */
export function registryPid(node: RegistryNode): number | undefined {
  for (const line of node.logs()) {
    if (!line.includes('"registry started"')) continue;
    try {
      return (JSON.parse(line) as { pid?: number }).pid;
    } catch {
      // not JSON
    }
  }
  return undefined;
}
