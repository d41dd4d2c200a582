import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import { outcome, USER_ERRORS, type Outcome, type StatementContext } from "./context.ts";
import { runMutation } from "./mutation.ts";

interface TokenData {
  name: string;
  subject: string;
  groups: string[];
  state: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

const TOKEN = "name subject groups state createdBy createdAt expiresAt revokedAt lastUsedAt";

/** CREATE TOKEN: the value is printed here, once; the registry keeps only its hash. */
export async function createToken(
  s: StatementOf<"createToken">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ token: TokenData; secret: string }>(
    context,
    "CREATE TOKEN",
    "createApiToken",
    { name: s.token, groups: s.groups ?? [], expiresInDays: s.expiresInDays ?? null },
    `token { ${TOKEN} } secret`,
  );
  const { token, secret } = answer.value;
  const expires = token.expiresAt ? `, expires ${token.expiresAt}` : "";
  return outcome(
    {
      type: "mutation",
      message:
        `token ${token.name}: created${expires}. Its value, shown this once (send it as ` +
        `Authorization: Bearer <value>, or SRCTL_TOKEN):\n${secret}`,
      object: { kind: "token", ...token, secret },
    },
    answer.warnings,
  );
}

export async function revokeToken(
  s: StatementOf<"revokeToken">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ token: TokenData }>(
    context,
    "REVOKE TOKEN",
    "revokeApiToken",
    { name: s.token },
    `token { ${TOKEN} }`,
  );
  const { token } = answer.value;
  return outcome(
    {
      type: "mutation",
      message: `token ${token.name}: revoked at ${token.revokedAt}`,
      object: { kind: "token", ...token },
    },
    answer.warnings,
  );
}

export async function showTokens(_s: StatementOf<"showTokens">, context: StatementContext): Promise<Outcome> {
  const answer = await execute<TokenData[]>(context, {
    statement: "SHOW TOKENS",
    root: "Query",
    field: "apiTokens",
    query: `query SrctlShowTokens { apiTokens { ${TOKEN} } }`,
  });
  const rows = answer.value.map((t) => ({
    token: t.name,
    groups: t.groups.join(", "),
    state: t.state,
    createdBy: t.createdBy,
    createdAt: t.createdAt,
    expiresAt: t.expiresAt ?? "",
    lastUsedAt: t.lastUsedAt ?? "",
  }));
  return outcome(
    {
      type: "table",
      columns: [
        { key: "token", header: "token" },
        { key: "groups", header: "groups" },
        { key: "state", header: "state" },
        { key: "createdBy", header: "created by" },
        { key: "createdAt", header: "created" },
        { key: "expiresAt", header: "expires" },
        { key: "lastUsedAt", header: "last used" },
      ],
      rows,
    },
    answer.warnings,
  );
}

/** ROTATE REGISTRY KEY: the registry's new signing key; its parent is told at once. */
export async function rotateRegistryKey(
  _s: StatementOf<"rotateRegistryKey">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await execute<{ kid: string; keys: { kid: string }[] }>(context, {
    statement: "ROTATE REGISTRY KEY",
    root: "Mutation",
    field: "rotateRegistryKey",
    query: `mutation SrctlRotateRegistryKey { rotateRegistryKey { kid keys ${USER_ERRORS} } }`,
  });
  const { kid, keys } = answer.value;
  return outcome(
    {
      type: "mutation",
      message: `registry key rotated: ${kid} signs from now on (published: ${keys.map((k) => k.kid).join(", ")})`,
      object: { kind: "registryKey", kid, keys: keys.map((k) => k.kid) },
    },
    answer.warnings,
  );
}
