import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, onTestFinished } from "vitest";
import {
  AsyncDisposableStack,
  mutate,
  registryNode,
  startRegistryTree,
  TREE_TOKEN,
  type RegistryClient,
  type RegistryNode,
} from "@stream-registry/testkit";

// The seed's "Namespaces" with its Acme example: registries in separate processes, each with its
// own database, that talk only GraphQL over HTTP. Parents check their children and children their
// parents every half second here (RECONCILER_RESYNC_MS, REGISTRY_HEALTH_INTERVAL_MS).
export const TREE = ["/", "/aws", "/aws/us-reg1-xyz", "/mpaas", "/mpaas/us-aus1-dc01"];
export const ENV = {
  RECONCILER_RESYNC_MS: "500",
  REGISTRY_HEALTH_INTERVAL_MS: "500",
  REGISTRY_HEALTH_TIMEOUT_MS: "2000",
};

const SHOW = `{
  namespace { path parent { url namespace status { phase message } }
    children { path name url registryId health { status lastError } } }
  registry { id namespace ancestors }
}`;
export interface Shown {
  namespace: {
    path: string;
    parent: {
      url: string;
      namespace: string | null;
      status: { phase: string; message: string | null };
    } | null;
    children: {
      path: string;
      name: string;
      url: string;
      registryId: string;
      health: { status: string; lastError: string | null };
    }[];
  };
  registry: { id: string; namespace: string; ancestors: string[] };
}
export const show = (r: RegistryClient) => r.query<Shown>(SHOW);
export const childPaths = async (r: RegistryClient) => (await show(r)).namespace.children.map((c) => c.path);

const DECLARE_PARENT = `mutation ($input: DeclareParentRegistryInput!) {
  declareParentRegistry(input: $input) { parent { url namespace status { phase } } namespace { path } userErrors { code field message } } }`;
export type Payload = {
  namespace: { path: string } | null;
  userErrors: { code: string; field: string[]; message: string }[];
};
export async function declareParent(r: RegistryClient, url: string, token = TREE_TOKEN): Promise<Payload> {
  const answer = await r.query<{ declareParentRegistry: Payload }>(DECLARE_PARENT, { input: { url, token } });
  return answer.declareParentRegistry;
}
/** A page of streams, live unless `consistency` says INDEX. */
export const STREAMS_PAGE = `query ($first: Int, $after: String, $filter: StreamFilter, $consistency: Consistency = LIVE) {
  streams(first: $first, after: $after, filter: $filter, consistency: $consistency) {
    totalCount pageInfo { hasNextPage endCursor } nodes { namespace name } } }`;
export interface StreamPage {
  streams: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: { namespace: string; name: string }[];
  };
}
/**
 * How many changes the registry made in its own namespace. Its feed also republishes what the
 * registries below it changed, as its index catches up with them, which a test cannot hold still.
 */
export async function changeCount(r: RegistryClient): Promise<number> {
  let count = 0;
  let after: string | null = null;
  for (;;) {
    const { registry, changes }: OwnChanges = await r.query<OwnChanges>(
      `query ($after: String) { registry { namespace }
        changes(first: 500, after: $after) { pageInfo { hasNextPage endCursor } nodes { namespace } } }`,
      { after },
    );
    count += changes.nodes.filter((c) => c.namespace === registry.namespace).length;
    if (!changes.pageInfo.hasNextPage) return count;
    after = changes.pageInfo.endCursor;
  }
}
interface OwnChanges {
  registry: { namespace: string };
  changes: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: { namespace: string }[] };
}

/** The seed's tree for a test file, and another registry named "aws" outside it. */
export interface SeedTree {
  /** The registry built to own `path`. */
  at(path: string): RegistryNode;
  /** A registry named "aws", outside the tree, started without REGISTRY_ENROLLMENT_TOKEN. */
  impostor(): RegistryNode;
}

/**
 * Starts the seed's tree for the test file (the inner registries on PostgreSQL, the others on the
 * embedded PGlite) and, with `impostor`, a registry outside it; all are disposed after the file.
 * Each is put on the file's stack as soon as it exists, so one that fails to start, or a start
 * that outlasts beforeAll, leaves none of them running.
 */
export function useSeedTree(options: { impostor?: boolean } = {}): SeedTree {
  const stack = new AsyncDisposableStack();
  let tree: Map<string, RegistryNode> | undefined;
  let impostor: RegistryNode | undefined;
  beforeAll(async () => {
    const starting: Promise<void>[] = [
      startRegistryTree(TREE, { kinds: { "/": "postgres", "/aws": "postgres" }, env: ENV, stack }).then(
        (started) => void (tree = started),
      ),
    ];
    if (options.impostor) {
      starting.push(
        registryNode("/aws", "pglite", ENV, stack).then(async (node) => {
          impostor = node;
          await node.start();
        }),
      );
    }
    // Both settle before a failure is reported: nothing is still starting when the stack is disposed.
    const failed = (await Promise.allSettled(starting)).find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
  }, 300_000);
  afterAll(() => stack.disposeAsync());
  return {
    at: (path) => tree!.get(path)!,
    impostor: () => impostor!,
  };
}

/** A server that answers every request with `body` as JSON. */
export async function jsonServer(body: unknown): Promise<string> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

/** A web server that is not a registry: it answers every request with an HTML page. */
export async function htmlServer(): Promise<string> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<html><body>Welcome</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

/** A fresh Ed25519 public key as a registry publishes it (a JWK with a key id). */
export function publicJwk(): Record<string, string> {
  const jwk = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }) as Record<string, string>;
  return { ...jwk, kid: randomUUID() };
}

/** A call a hung child took: the operation named in its body, and whether its caller hung up. */
export interface HungCall {
  operationName: string | undefined;
  closed: boolean;
}

/**
 * Registers, as a child "hung" of `parent`, a server that takes every request and never answers;
 * unregistered and closed when the test ends. `calls` are the requests it took, in order: the
 * parent's fan-outs, but also its index follower's and its health probes, so a test looks for the
 * operation it means.
 */
export async function hungChild(parent: RegistryClient): Promise<{ calls: HungCall[] }> {
  const calls: HungCall[] = [];
  const registryId = randomUUID();
  const keys = [publicJwk()];
  const hung = createServer((req, res) => {
    const call: HungCall = { operationName: undefined, closed: false };
    calls.push(call);
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
      call.operationName = /query\s+(\w+)/.exec(body)?.[1];
      // Who it is, the parent asks when it registers: that alone is answered.
      if (call.operationName === "RegistryIdentity" && !res.headersSent) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: { registry: { id: registryId, keys } } }));
      }
    });
    req.socket.on("close", () => (call.closed = true));
  });
  await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/graphql`;
  const sdl = (await parent.query<{ _service: { sdl: string } }>(`{ _service { sdl } }`))._service.sdl;
  const input = { registryId, name: "hung", url, version: "0.1.0", sdl, token: TREE_TOKEN, keys };
  await mutate(
    parent,
    `mutation ($input: RegisterChildRegistryInput!) {
      registerChildRegistry(input: $input) { child { name } userErrors { code field message } } }`,
    { input },
  );
  // Removed by the parent's admin: it holds no key to prove itself with and unregister.
  const { registry } = await parent.query<{ registry: { namespace: string } }>(`{ registry { namespace } }`);
  onTestFinished(async () => {
    await mutate(
      parent,
      `mutation ($input: DropChildRegistryInput!) {
        dropChildRegistry(input: $input) { child { path } userErrors { code field message } } }`,
      { input: { path: registry.namespace === "/" ? "/hung" : `${registry.namespace}/hung` } },
    );
    hung.closeAllConnections();
    await new Promise<void>((resolve) => hung.close(() => resolve()));
  });
  return { calls };
}
