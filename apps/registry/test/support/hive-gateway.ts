import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createGatewayRuntime } from "@graphql-hive/gateway-runtime";

export interface HiveGateway extends AsyncDisposable {
  url: string;
}

/**
 * Serves `supergraph` with Hive Gateway's runtime on node:http on a free port, passing the client's
 * Authorization on to the subgraphs. Errors are not masked, so that a failing test shows what a
 * subgraph answered.
 */
export async function startHiveGateway(supergraph: string): Promise<HiveGateway> {
  const gateway = createGatewayRuntime({
    supergraph,
    logging: false,
    maskedErrors: false,
    // The client's token goes on to each subgraph: the registry authenticates every request.
    propagateHeaders: {
      fromClientToSubgraphs: ({ request }) => {
        const authorization = request.headers.get("authorization");
        return authorization ? { authorization } : {};
      },
    },
  });
  const server = createServer((request, response) => void gateway(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    async [Symbol.asyncDispose]() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.dispose();
    },
  };
}
