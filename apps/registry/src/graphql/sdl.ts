import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** schema.graphql at the repository root: the single source of truth for the API. */
export const schemaPath = fileURLToPath(new URL("../../../../schema.graphql", import.meta.url));

/** The subgraph SDL this registry serves: what its parent checks it can serve. */
export function subgraphSdl(): string {
  return readFileSync(schemaPath, "utf8");
}
