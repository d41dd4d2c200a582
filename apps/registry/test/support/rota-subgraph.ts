import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import { startStandaloneServer } from "@apollo/server/standalone";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse } from "graphql";

/**
 * A company's own subgraph beside the registry: an on-call rota that adds `onCall` to the
 * registry's `Stream` and lists shifts, each pointing at a stream the registry owns.
 */
export const rotaSdl = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key"])
  type Stream @key(fields: "namespace name") {
    namespace: String!
    name: String!
    "Who answers the pager for this stream."
    onCall: String
  }
  type Shift { person: String! stream: Stream! }
  type Query { shifts: [Shift!]! }
`;

export interface StreamKey {
  namespace: string;
  name: string;
}

/** The person on call for the streams of `namespace`. */
export const onCallFor = (namespace: string) => `alice@${namespace}`;

export interface RotaSubgraph extends AsyncDisposable {
  url: string;
}

/** Serves the rota subgraph on node:http (Apollo Server standalone) on a free port. */
export async function startRotaSubgraph(streams: readonly StreamKey[]): Promise<RotaSubgraph> {
  const resolvers = {
    Query: {
      shifts: () => streams.map((stream) => ({ person: onCallFor(stream.namespace), stream })),
    },
    Stream: {
      __resolveReference: (key: StreamKey) => key,
      onCall: (key: StreamKey) => onCallFor(key.namespace),
    },
  };
  const server = new ApolloServer({
    schema: buildSubgraphSchema({ typeDefs: parse(rotaSdl), resolvers }),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  const { url } = await startStandaloneServer(server, { listen: { port: 0, host: "127.0.0.1" } });
  return { url, [Symbol.asyncDispose]: () => server.stop() };
}
