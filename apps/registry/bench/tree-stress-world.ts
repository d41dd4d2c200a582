import {
  attach,
  eventually,
  mutate,
  registryNode,
  TEST_ADMIN_TOKEN,
  TREE_TOKEN,
  type RegistryNode,
} from "@stream-registry/testkit";
import { AUDIENCE, Q, SECRET_VALUES, type CorpusWorld } from "../test/support/security-corpus.ts";

/** Where the tree's registries may connect: loopback's 127.0.0.1, every port (not 127.0.0.2). */
export const CONNECT_ALLOW = "127.0.0.1";

/** Run after the run, last pushed first, whatever happened. */
export type Cleanups = (() => Promise<unknown>)[];

/** The corpus's tree grown to /, /aws, /aws/us, /gcp (and the corpus's /aws2), with the findings' tokens. */
export interface TreeWorld {
  w: CorpusWorld;
  root: RegistryNode;
  aws: RegistryNode;
  us: RegistryNode;
  gcp: RegistryNode;
  ids: { root: string; aws: string; us: string; gcp: string };
  tokens: { usWriter: string; rootUsWriter: string; awsBot: string; rootPlatform: string };
  /** Every credential and secret the run used, by what it is: no log line may hold one. */
  used: Map<string, string>;
  /** The log lines of processes that were stopped and started again during the run. */
  earlierLogs: Map<string, string[]>;
}

const idOf = async (node: RegistryNode) =>
  (await node.query<{ registry: { id: string } }>("{ registry { id } }")).registry.id;

/**
 * Adds /aws/us (below the corpus's /aws) and /gcp (below its root), on PostgreSQL, with the
 * corpus's settings: they grant their ancestors' admins nothing (docs/security.md, "Across the
 * tree"), so what the root's admin may do there is what an attacker holding it may do. Then the
 * findings' principals: /aws/us's own writer, a root token of the same name, a token /aws made in
 * an admin group of /aws/us, and a root token in that group; /aws/us grants the group admin.
 */
export async function growTree(w: CorpusWorld, cleanups: Cleanups): Promise<TreeWorld> {
  const env = {
    REGISTRY_ENROLLMENT_TOKEN: TREE_TOKEN,
    NODE_ENV: "production",
    REGISTRY_AUTH: "on",
    REGISTRY_OIDC_ISSUER: w.issuer.issuer,
    REGISTRY_OIDC_AUDIENCE: AUDIENCE,
    REGISTRY_CONNECT_ALLOW: CONNECT_ALLOW,
    // A deadline a drained shutdown must stay well within (the shutdown category).
    SHUTDOWN_TIMEOUT_MS: "10000",
  };
  const us = await registryNode("/aws/us", "postgres", env);
  cleanups.push(() => us.dispose());
  const gcp = await registryNode("/gcp", "postgres", env);
  cleanups.push(() => gcp.dispose());
  await Promise.all([us.start(), gcp.start()]);
  await attach(us, w.aws, { ancestorAdmins: false });
  await attach(gcp, w.root, { ancestorAdmins: false });
  const ids = { root: w.ids.root, aws: w.ids.aws, us: await idOf(us), gcp: await idOf(gcp) };

  const token = async (at: RegistryNode, name: string, groups: string[] = []) =>
    (await mutate<{ secret: string }>(at, Q.createApiToken, { input: { name, groups } })).secret;
  const tokens = {
    usWriter: await token(us, "us-writer"),
    rootUsWriter: await token(w.root, "us-writer"),
    awsBot: await token(w.aws, "aws-bot", ["us-platform"]),
    rootPlatform: await token(w.root, "root-platform", ["us-platform"]),
  };
  await mutate(us, Q.grant, { input: { principal: "token:us-writer", role: "writer" } });
  await mutate(w.aws, Q.grant, { input: { principal: "token:aws-bot", role: "admin" } });
  await mutate(us, Q.grant, { input: { principal: "group:us-platform", role: "admin" } });
  await mutate(us, Q.grant, { input: { principal: "group:us-writers", role: "writer" } });
  await mutate(us, Q.createStream, { input: { name: "us_1" } });
  await mutate(gcp, Q.createStream, { input: { name: "gcp_1" } });

  // Both are followed: the root follows every descendant, /aws follows /aws/us.
  const followed = async (node: RegistryNode, children: number) => {
    const { indexLag } = await node.query<{ indexLag: { entriesBehind: number; syncedAt: string | null }[] }>(
      "{ indexLag { namespace entriesBehind syncedAt lastError } }",
    );
    const synced = indexLag.every((lag) => lag.entriesBehind === 0 && lag.syncedAt !== null);
    if (indexLag.length === children && synced) return true;
    throw new Error(`not yet: ${JSON.stringify(indexLag)}`);
  };
  await eventually(() => followed(w.root, 4), 120_000, "the root to follow /aws, /aws/us, /aws2 and /gcp");
  await eventually(() => followed(w.aws, 1), 120_000, "/aws to follow /aws/us");

  const used = new Map<string, string>([
    ["the testkit's admin token", TEST_ADMIN_TOKEN],
    ["the tree's enrollment token", TREE_TOKEN],
    ...Object.entries(w.tokens).map(([name, value]) => [`the root's ${name} token`, value] as const),
    ...Object.entries(tokens).map(([name, value]) => [`the ${name} token`, value] as const),
    ...SECRET_VALUES.map((value, i) => [`the corpus's planted secret ${i}`, value] as const),
  ]);
  return { w, root: w.root, aws: w.aws, us, gcp, ids, tokens, used, earlierLogs: new Map() };
}
