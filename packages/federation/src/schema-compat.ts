import { buildSubgraphSchema } from "@apollo/subgraph";
import { findBreakingChanges, parse, type GraphQLSchema } from "graphql";

/** At most this many gaps are named: a registry of another generation may have dozens. */
const NAMED = 5;

/**
 * What a parent whose own subgraph SDL is `ownSdl` could not ask of a child that serves `childSdl`:
 * the changes from its schema to the child's that break an operation it sends (a type or field the
 * child lacks, an argument it would refuse). A child may have more than the parent (a newer
 * version); it may not have less. Empty when the parent can serve the child. A `childSdl` that is
 * not a valid subgraph SDL is one gap saying why.
 */
export function schemaGaps(ownSdl: string, childSdl: string): string[] {
  // A child of the same version serves the same SDL: nothing to build (two schemas of this size
  // take a loaded machine seconds, inside the child's registration call).
  if (childSdl === ownSdl) return [];
  let child: GraphQLSchema;
  try {
    child = buildSubgraphSchema(parse(childSdl));
  } catch (error) {
    return [
      `its SDL is not a valid subgraph schema: ${error instanceof Error ? error.message : String(error)}`,
    ];
  }
  const own = buildSubgraphSchema(parse(ownSdl));
  const gaps = findBreakingChanges(own, child).map((change) => change.description);
  return gaps.length > NAMED ? [...gaps.slice(0, NAMED), `and ${gaps.length - NAMED} more`] : gaps;
}
