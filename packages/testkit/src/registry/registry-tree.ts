import { rm } from "node:fs/promises";
import { AsyncDisposableStack } from "../disposable-stack.ts";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "../databases.ts";
import { freePort } from "../kafka/ports.ts";
import { registryClient, type RegistryClient } from "./graphql-client.ts";
import { mutate } from "./mutate.ts";
import { migratedDataDir } from "./migrated-data-dir.ts";
import { launchRegistry, type LaunchedRegistry } from "./registry-process.ts";
import { databaseEnv } from "./secret-keys.ts";
import { testRegistryEnv } from "./test-env.ts";

/** The enrollment token every registry of a test tree accepts its children with. */
export const TREE_TOKEN = "test-tree-enrollment-token";

/** A registry process of a tree: a fixed port and its own database, so that it can be restarted. */
export interface RegistryNode extends RegistryClient {
  /** The namespace it was built to own, e.g. "/aws/us-reg1-xyz". */
  path: string;
  kind: DatabaseKind;
  /** Its PostgreSQL database (kind "postgres"), for a test that changes it behind its back. */
  databaseUrl: string | undefined;
  /**
   * Starts it (again) on the same port and database, with `env` on top of its own for this start
   * (a benchmark comparing settings); resolves once it serves.
   */
  start(env?: Record<string, string>): Promise<void>;
  /** SIGTERM (SIGKILL after 10 s), or `signal` at once; resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  running(): boolean;
  /** What the current (or last) process logged. */
  logs(): string[];
  /** Stops it and drops its database. */
  dispose(): Promise<void>;
}

/**
 * One registry on a port of its own and a new database of `kind`; not started. With `stack`, it is
 * disposed with the stack, and refused (its database dropped) if the stack was disposed meanwhile.
 */
export async function registryNode(
  path: string,
  kind: DatabaseKind,
  env: Record<string, string> = {},
  stack?: AsyncDisposableStack,
): Promise<RegistryNode> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/graphql`;
  const database: TestDatabase = await createTestDatabase(kind, "tree");
  const dataDir = database.url
    ? undefined
    : await migratedDataDir("tree").catch(async (error: unknown) => {
        await database.drop();
        throw error;
      });
  const where = databaseEnv(database.url, dataDir);
  let current: LaunchedRegistry | undefined;
  const node: RegistryNode = {
    ...registryClient(url),
    path,
    kind,
    databaseUrl: database.url,
    async start(more = {}) {
      if (current?.running()) return;
      current = launchRegistry({ ...testRegistryEnv, ...env, ...more, ...where, PORT: String(port) });
      if (!(await current.started))
        throw new Error(`registry ${path} exited during start-up:\n${current.logs.join("\n")}`);
    },
    async stop(signal) {
      if (!current?.running()) return;
      current.kill(signal ?? "SIGTERM");
      const killer = setTimeout(() => current?.kill("SIGKILL"), 10_000);
      await current.exited;
      clearTimeout(killer);
    },
    running: () => current?.running() ?? false,
    logs: () => current?.logs ?? [],
    async dispose() {
      await node.stop();
      await database.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  if (stack?.disposed) {
    await node.dispose();
    throw new Error(`registry ${path}: its stack was disposed while it was made`);
  }
  stack?.defer(() => node.dispose());
  return node;
}

/** The last segment of a path: the name its registry declares ("/aws/us-reg1-xyz": "us-reg1-xyz"). */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The path of the namespace above `path` ("/aws/us-reg1-xyz": "/aws"; "/aws": "/"). */
export function parentOf(path: string): string {
  const at = path.lastIndexOf("/");
  return at === 0 ? "/" : path.slice(0, at);
}

const DECLARE_NAME = `mutation ($input: DeclareDefaultNamespaceInput!) {
  declareDefaultNamespace(input: $input) { userErrors { code field message } } }`;
const DECLARE_PARENT = `mutation ($input: DeclareParentRegistryInput!) {
  declareParentRegistry(input: $input) { namespace { path } userErrors { code field message } } }`;

const GRANT = `mutation ($input: GrantInput!) { grant(input: $input) { userErrors { code field message } } }`;

/**
 * Makes the admin token of each registry above `node` (the testkit's, named "admin" everywhere)
 * an admin of `node` too: a parent's admin is not its child's unless the child grants it
 * (docs/security.md, "Across the tree"), and tests that drive a tree from its root are written
 * as an operator who granted it.
 */
export async function trustAncestorAdmins(node: RegistryClient & { path: string }): Promise<void> {
  for (let path = node.path; path !== "/";) {
    path = parentOf(path);
    await mutate(node, GRANT, { input: { principal: `token:admin@${path}`, role: "admin" } });
  }
}

/**
 * Names `node` and registers it with `parent`, as an administrator does (DECLARE DEFAULT
 * NAMESPACE, then DECLARE PARENT REGISTRY ... WITH TOKEN), then grants its ancestors' admin tokens
 * admin there (trustAncestorAdmins) unless `ancestorAdmins` is false; fails on any userError.
 */
export async function attach(
  node: RegistryClient & { path: string },
  parent: RegistryClient,
  options: { ancestorAdmins?: boolean } = {},
): Promise<void> {
  await mutate(node, DECLARE_NAME, { input: { name: nameOf(node.path) } });
  await mutate(node, DECLARE_PARENT, { input: { url: parent.url, token: TREE_TOKEN } });
  if (options.ancestorAdmins !== false) await trustAncestorAdmins(node);
}

/** The registries of a tree by path; disposing it stops them all and drops their databases. */
export interface RegistryTree extends Map<string, RegistryNode>, AsyncDisposable {}

/**
 * Starts one registry per path (parents before children, all accepting children with TREE_TOKEN)
 * and builds the tree: each registry but "/" is named for its last segment and registered with the
 * registry of the path above it (attach, with `ancestorAdmins`). `kinds` picks a database per path
 * (default PGlite). Each registry is disposed as soon as it exists: with `stack` when given (so a
 * caller that stops waiting, e.g. a timed-out beforeAll, still disposes all of them), otherwise
 * here when the build fails, or with the returned tree.
 */
export async function startRegistryTree(
  paths: readonly string[],
  options: {
    kinds?: Record<string, DatabaseKind>;
    env?: Record<string, string>;
    ancestorAdmins?: boolean;
    stack?: AsyncDisposableStack;
  } = {},
): Promise<RegistryTree> {
  const setup = new AsyncDisposableStack();
  options.stack?.defer(() => setup.disposeAsync());
  try {
    const nodes = new Map<string, RegistryNode>();
    for (const path of paths) {
      const env = { REGISTRY_ENROLLMENT_TOKEN: TREE_TOKEN, ...options.env };
      nodes.set(path, await registryNode(path, options.kinds?.[path] ?? "pglite", env, setup));
    }
    await Promise.all([...nodes.values()].map((node) => node.start()));
    for (const path of paths) {
      if (path === "/") continue;
      const parent = nodes.get(parentOf(path));
      if (!parent)
        throw new Error(`registry tree: ${path} has no parent ${parentOf(path)} among ${paths.join(", ")}`);
      await attach(nodes.get(path)!, parent, options);
    }
    const built = setup.move();
    options.stack?.defer(() => built.disposeAsync());
    return Object.assign(nodes, { [Symbol.asyncDispose]: () => built.disposeAsync() });
  } finally {
    await setup.disposeAsync();
  }
}
