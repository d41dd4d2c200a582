import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

/** What this test uses of @graphql-hive/gateway-runtime's `createGatewayRuntime`. */
interface HiveGatewayRuntime {
  (request: IncomingMessage, response: ServerResponse): unknown;
  dispose(): Promise<void> | void;
}
interface GatewayRuntimeModule {
  createGatewayRuntime(config: {
    supergraph: string;
    logging?: boolean;
    maskedErrors?: boolean;
  }): HiveGatewayRuntime;
}

// Loaded untyped: its type declarations pull in lib "dom" (through @whatwg-node/fetch), and in this
// program DOM's ReadableStream, which has no async iterator in TypeScript's lib.dom, would replace
// Node's and fail the typecheck of packages/federation. Users import it as usual (docs/federation.md).
const { createGatewayRuntime } = createRequire(import.meta.url)(
  "@graphql-hive/gateway-runtime",
) as GatewayRuntimeModule;

export interface HiveGateway extends AsyncDisposable {
  url: string;
}

/**
 * Serves `supergraph` with Hive Gateway's runtime on node:http on a free port. Errors are not
 * masked, so that a failing test shows what a subgraph answered.
 */
export async function startHiveGateway(supergraph: string): Promise<HiveGateway> {
  const gateway = createGatewayRuntime({ supergraph, logging: false, maskedErrors: false });
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
