import { Q, type CorpusCase, type TokenName } from "./security-corpus.ts";
import {
  ADMIN,
  as,
  bearer,
  caseList,
  FORBIDDEN,
  forUser,
  forwarded,
  input,
  type Op,
  op,
} from "./security-corpus-ops.ts";

// The corpus's changes only admins make, and escalations past what an admin has.

/** Only admins make the registry connect somewhere new, or change its settings. */
export function adminOnlyCases(): CorpusCase[] {
  const { cases, add } = caseList();
  const ADMIN_ONLY: Op[] = [
    input("declareCluster", Q.declareCluster, { name: "c9", provider: "registry-only" }),
    input("declareCluster (kafka at an internal host)", Q.declareCluster, {
      name: "scan",
      provider: "kafka",
      config: { "apache.kafka": { "bootstrap.servers": "10.0.0.1:5432" } },
    }),
    input("redeclare a cluster elsewhere", Q.declareCluster, {
      name: "c1",
      config: { vault: { host: "evil.example" } },
    }),
    input("deleteCluster", Q.deleteCluster, { name: "c2" }),
    input("declareParentRegistry", Q.declareParent, { url: "http://127.0.0.1:9/graphql", token: "x" }),
    op("dropParentRegistry", Q.dropParent),
    input("declareDefaultNamespace", Q.declareName, { name: "hijacked" }),
    op("rotateRegistryKey", Q.rotateKey),
    input("createApiToken", Q.createApiToken, { name: "by_writer" }),
    input("revokeApiToken", Q.revokeApiToken, { name: "reader" }),
    input("grant", Q.grant, { principal: "token:nobody", role: "reader" }),
  ];
  for (const o of ADMIN_ONLY) add("admin only", `a writer, ${o.label}`, "/", as("writer"), o, FORBIDDEN);
  add(
    "admin only",
    "a writer of /aws, declareCluster at /aws (forwarded)",
    "/",
    as("aws-writer"),
    input("declareCluster", Q.declareCluster, { namespace: "/aws", name: "c9" }),
    FORBIDDEN,
  );
  add(
    "admin only",
    "a writer of /aws, dropParentRegistry at /aws (forwarded for it by the parent)",
    "/aws",
    forwarded("token:aws-writer"),
    op("dropParentRegistry", Q.dropParent),
    FORBIDDEN,
  );
  add("admin only", "a writer, SHOW TOKENS", "/", as("writer"), op("apiTokens", Q.apiTokens), FORBIDDEN);
  return cases;
}

/** Escalation: nobody grants more than it has, where it has it; the last admin stays. */
export function escalationCases(): CorpusCase[] {
  const { cases, add } = caseList();
  const grant = (principal: string, role: string, more: Record<string, unknown> = {}) =>
    input("grant", Q.grant, { principal, role, ...more });
  const escalation: [string, TokenName, Op][] = [
    ["a writer grants itself admin", "writer", grant("token:writer", "admin")],
    ["a prefixed writer widens its own prefix", "prefixed", grant("token:prefixed", "writer")],
    [
      "an admin of /aws grants itself admin at /",
      "aws-admin",
      grant("token:aws-admin", "admin", { scope: "/" }),
    ],
    [
      "an admin of /aws grants itself admin with no scope (the root's)",
      "aws-admin",
      grant("token:aws-admin", "admin"),
    ],
    ["an admin of /aws grants at /aws2", "aws-admin", grant("token:nobody", "reader", { scope: "/aws2" })],
    [
      "an admin of /aws grants at /aws2/x",
      "aws-admin",
      grant("token:nobody", "writer", { scope: "/aws2/x" }),
    ],
    ["an admin of /aws grants at /aw", "aws-admin", grant("token:nobody", "writer", { scope: "/aw" })],
    [
      "an admin of /aws revokes the root's admin",
      "aws-admin",
      input("revoke", Q.revoke, { principal: "token:admin", role: "admin" }),
    ],
    [
      "an admin of /aws revokes a reader of /",
      "aws-admin",
      input("revoke", Q.revoke, { principal: "token:reader", role: "reader" }),
    ],
    [
      "an admin of /aws makes an API token at the root",
      "aws-admin",
      input("createApiToken", Q.createApiToken, { name: "aws_backdoor" }),
    ],
    [
      "an admin of /aws revokes an API token at the root",
      "aws-admin",
      input("revokeApiToken", Q.revokeApiToken, { name: "writer" }),
    ],
    [
      "an admin of /aws declares a cluster at /",
      "aws-admin",
      input("declareCluster", Q.declareCluster, { name: "c9" }),
    ],
    ["an admin of /aws rotates the root's key", "aws-admin", op("rotateRegistryKey", Q.rotateKey)],
    [
      "an admin of /aws writes a stream at /",
      "aws-admin",
      input("createStream", Q.createStream, { name: "aws_admin_s" }),
    ],
    [
      "an admin of /aws grants at /aws2 through the root (forwarded)",
      "aws-admin",
      grant("token:aws-admin", "admin", { namespace: "/aws2" }),
    ],
    [
      "a writer of /aws grants itself admin at /aws (forwarded)",
      "aws-writer",
      grant("token:aws-writer", "admin", { namespace: "/aws" }),
    ],
    // Issue 19: groups count only from the registry's own tokens and OIDC issuer.
    [
      "a root token in an admin group of /aws grants itself admin at /aws (forwarded)",
      "grouped",
      grant("token:grouped@/", "admin", { namespace: "/aws" }),
    ],
    [
      "a root token in an admin group of /aws writes a stream there (forwarded)",
      "grouped",
      input("createStream", Q.createStream, { namespace: "/aws", name: "grouped_s" }),
    ],
  ];
  for (const [name, token, o] of escalation) add("escalation", name, "/", as(token), o, FORBIDDEN);
  add(
    "escalation",
    "the root signs a token of its own for /aws with /aws's admin group",
    "/aws",
    async (w) =>
      bearer(
        await w.asRoot.sign({
          ...forUser("token:grouped")(w),
          sub_iss: `registry:${w.ids.root}`,
          groups: ["aws-admins"],
        }),
      ),
    grant("token:grouped@/", "admin"),
    FORBIDDEN,
  );
  // The last admin grant of a registry stays, whoever revokes it.
  const revokeLast = (namespace?: string) =>
    input("revoke", Q.revoke, {
      principal: "token:admin",
      role: "admin",
      ...(namespace ? { namespace } : {}),
    });
  const IN_USE = { status: 200, code: "IN_USE" };
  add("escalation", "the admin revokes the last admin of the root", "/", ADMIN, revokeLast(), IN_USE);
  add(
    "escalation",
    "the admin revokes the last admin of /aws2 (forwarded)",
    "/",
    ADMIN,
    revokeLast("/aws2"),
    IN_USE,
  );
  return cases;
}
