import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse, type GraphQLSchema } from "graphql";
import { redactDocument, type SecretKeyRule } from "@stream-registry/core";
import type { Resolvers } from "../generated/resolvers-types.ts";
import { passThroughRemote } from "@stream-registry/federation";
import { guardEntities } from "./guards/entities-guard.ts";
import { serveIndexed } from "./indexed-objects.ts";
import { routeEntities } from "./routed-entities.ts";
import { resolvers } from "./resolvers/index.ts";
import { configMapsScalar } from "./scalars.ts";
import { subgraphSdl } from "./sdl.ts";

/** `secrets` is the registry's rule of which config keys are secret (core's plus the providers'). */
export function buildSchema(secrets: SecretKeyRule): GraphQLSchema {
  const typeDefs = parse(subgraphSdl());
  // Everything that shows config maps redacts them here, once, by the one rule.
  const all: Resolvers = {
    ...resolvers,
    ConfigMaps: configMapsScalar(secrets),
    Change: { ...resolvers.Change, data: (change) => redactDocument(change.data, secrets) },
  };
  // The generated Resolvers type is checked against schema.graphql; Apollo's own map type is looser.
  // Representations are checked (guardEntities) before they are routed to their owners.
  // Objects another registry answered (passThroughRemote) or the discovery index holds
  // (serveIndexed) resolve from what they hold; this registry's own rows by its resolvers.
  return passThroughRemote(
    serveIndexed(guardEntities(routeEntities(buildSubgraphSchema({ typeDefs, resolvers: all as never })))),
  );
}
