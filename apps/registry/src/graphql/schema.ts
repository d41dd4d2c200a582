import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse, type GraphQLSchema } from "graphql";
import { resolvers } from "./resolvers/index.ts";

/** schema.graphql at the repository root: the single source of truth for the API. */
export const schemaPath = fileURLToPath(new URL("../../../../schema.graphql", import.meta.url));

export function buildSchema(): GraphQLSchema {
  const typeDefs = parse(readFileSync(schemaPath, "utf8"));
  // The generated Resolvers type is checked against schema.graphql; Apollo's own map type is looser.
  return buildSubgraphSchema({ typeDefs, resolvers: resolvers as never });
}
