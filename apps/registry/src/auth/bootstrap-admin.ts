import {
  apiTokenHashMatches,
  countApiTokens,
  createFirstApiToken,
  writeTransaction,
  type Database,
  type Tx,
} from "@stream-registry/store";
import type { Logger } from "../logger.ts";
import type { AuthConfig } from "./auth-config.ts";
import { hashApiToken, newApiTokenValue } from "./api-token-value.ts";

/** The name of the token a registry makes at its first start. */
export const ADMIN_TOKEN_NAME = "admin";
/** Its grant: admin of this registry's own namespace (scope ""), every stream. */
export const FIRST_ADMIN_GRANT = {
  principal: `token:${ADMIN_TOKEN_NAME}`,
  role: "admin",
  scope: "",
  streamPrefix: null,
} as const;
/** Who the change log says made it. */
const BOOTSTRAP_ACTOR = "registry:bootstrap";

/**
 * Gives the first admin token (`subject`, "token:admin") the admin grant on this registry's own
 * namespace, in the transaction that makes the token. Authorization's to write (grants.ts); until
 * it is wired in registry.ts, the token is made without a grant.
 */
export type GrantFirstAdmin = (tx: Tx, subject: string) => Promise<void>;

/**
 * The first start's admin token: with REGISTRY_ADMIN_TOKEN (or _FILE), a token "admin" of that
 * value unless one named so exists; else, with authentication on, no OIDC issuer and no token at
 * all, a new one. Returns the value of a token made anew (to be shown once, not logged); undefined
 * when none was made or its value came from the environment.
 */
export async function bootstrapAdminToken(
  db: Database,
  config: AuthConfig,
  grantFirstAdmin: GrantFirstAdmin | undefined,
  logger: Logger,
): Promise<string | undefined> {
  const make = async (value: string) =>
    writeTransaction(db.prisma, async (tx) => {
      const made = await createFirstApiToken(tx, {
        name: ADMIN_TOKEN_NAME,
        hash: hashApiToken(value),
        groups: [],
        createdBy: BOOTSTRAP_ACTOR,
        expiresAt: null,
      });
      if (made) await grantFirstAdmin?.(tx, `token:${ADMIN_TOKEN_NAME}`);
      return made;
    });
  if (config.adminToken !== undefined) {
    const matches = await apiTokenHashMatches(db.prisma, ADMIN_TOKEN_NAME, hashApiToken(config.adminToken));
    if (matches === false) {
      logger.warn(
        "REGISTRY_ADMIN_TOKEN is not the value of the token admin, which exists already: the variable is ignored",
      );
    } else if (matches === null && (await make(config.adminToken))) {
      logger.info({ token: ADMIN_TOKEN_NAME }, "admin token made from REGISTRY_ADMIN_TOKEN");
    }
    return undefined;
  }
  if (config.mode !== "on" || config.oidc || (await countApiTokens(db.prisma)) > 0) return undefined;
  const value = newApiTokenValue();
  if (!(await make(value))) return undefined;
  logger.info(
    { token: ADMIN_TOKEN_NAME },
    "first start: admin token made (its value is printed once, not logged)",
  );
  return value;
}

/** What the first start prints on stdout, outside the JSON log: the token and how to use it. */
export function adminTokenNotice(value: string, url: string): string {
  const rule = "=".repeat(78);
  return [
    rule,
    "Stream Registry, first start: the admin token. It is shown this once; keep it safe.",
    "",
    `    ${value}`,
    "",
    "Use it as a bearer token:",
    `  srctl:          SRCTL_TOKEN=${value} srctl --registry ${url}`,
    `  Apollo Sandbox: open ${url}, Connection settings > Headers:`,
    `                  Authorization: Bearer ${value}`,
    `  curl:           curl -H 'Authorization: Bearer ${value}' -H 'content-type: application/json' \\`,
    `                    -d '{"query":"{ namespace { path } }"}' ${url}`,
    "Make more (and revoke this one) with CREATE TOKEN / REVOKE TOKEN; see docs/security.md.",
    rule,
    "",
  ].join("\n");
}
