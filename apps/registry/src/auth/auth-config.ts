import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isApiTokenShape } from "./api-token-value.ts";

/** How a registry authenticates its callers (docs/security.md). */
export interface AuthConfig {
  /** "on": every /graphql request needs a credential; "none": every request is anonymous (local experiments only). */
  mode: "on" | "none";
  /** The first admin token's value (REGISTRY_ADMIN_TOKEN or REGISTRY_ADMIN_TOKEN_FILE), for automation. */
  adminToken: string | undefined;
  /** OIDC: the issuer whose JWTs are accepted; undefined: none are. */
  oidc: OidcConfig | undefined;
}

export interface OidcConfig {
  /** The issuer's URL, as its tokens' `iss` claim says it. */
  issuer: string;
  /** What the tokens' `aud` claim must hold. */
  audience: string;
  /** Where the issuer's keys are; undefined: its discovery document's jwks_uri. */
  jwksUrl: string | undefined;
  /** The claim that lists the user's groups. */
  groupsClaim: string;
}

const ADMIN_TOKEN_RULE =
  'must be "srt_" followed by at least 32 base64url characters, e.g. the output of ' +
  `node -e 'console.log("srt_" + require("crypto").randomBytes(32).toString("base64url"))'`;

/** The environment variables of authentication, merged into config.ts's schema. */
export const authEnv = {
  REGISTRY_AUTH: z.enum(["on", "none"]).default("on"),
  // Empty is unset: a test, or a shell, may clear an inherited value so.
  REGISTRY_ADMIN_TOKEN: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().refine(isApiTokenShape, ADMIN_TOKEN_RULE).optional(),
  ),
  REGISTRY_ADMIN_TOKEN_FILE: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().optional(),
  ),
  REGISTRY_OIDC_ISSUER: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  REGISTRY_OIDC_AUDIENCE: z.string().min(1).optional(),
  REGISTRY_OIDC_JWKS_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  REGISTRY_OIDC_GROUPS_CLAIM: z.string().min(1).default("groups"),
};

type AuthEnv = z.infer<z.ZodObject<typeof authEnv>>;

/**
 * The auth settings from the parsed environment; throws naming the variable and its rule for a
 * combination no single variable's rule can see (REGISTRY_AUTH=none in production,
 * REGISTRY_OIDC_ISSUER without its audience, both forms of the admin token, a token file that
 * cannot be read or holds no token).
 */
export function authConfigFrom(e: AuthEnv, cwd: string, production: boolean): AuthConfig {
  if (e.REGISTRY_AUTH === "none" && production) {
    throw new Error(
      "invalid configuration:\n  REGISTRY_AUTH: none is refused when NODE_ENV=production: every request would be anonymous, with every right",
    );
  }
  if (e.REGISTRY_ADMIN_TOKEN !== undefined && e.REGISTRY_ADMIN_TOKEN_FILE !== undefined) {
    throw new Error(
      "invalid configuration:\n  REGISTRY_ADMIN_TOKEN_FILE: set it or REGISTRY_ADMIN_TOKEN, not both",
    );
  }
  if (e.REGISTRY_OIDC_ISSUER !== undefined && e.REGISTRY_OIDC_AUDIENCE === undefined) {
    throw new Error(
      "invalid configuration:\n  REGISTRY_OIDC_AUDIENCE: required with REGISTRY_OIDC_ISSUER: the `aud` this registry's tokens carry",
    );
  }
  return {
    mode: e.REGISTRY_AUTH,
    adminToken:
      e.REGISTRY_ADMIN_TOKEN ??
      (e.REGISTRY_ADMIN_TOKEN_FILE && readTokenFile(e.REGISTRY_ADMIN_TOKEN_FILE, cwd)),
    oidc: e.REGISTRY_OIDC_ISSUER
      ? {
          issuer: e.REGISTRY_OIDC_ISSUER,
          audience: e.REGISTRY_OIDC_AUDIENCE!,
          jwksUrl: e.REGISTRY_OIDC_JWKS_URL,
          groupsClaim: e.REGISTRY_OIDC_GROUPS_CLAIM,
        }
      : undefined,
  };
}

function readTokenFile(file: string, cwd: string): string {
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), "utf8").trim();
  } catch (error) {
    throw new Error(
      `invalid configuration:\n  REGISTRY_ADMIN_TOKEN_FILE: cannot read ${file}: ${(error as Error).message}`,
    );
  }
  if (!isApiTokenShape(text)) {
    throw new Error(
      `invalid configuration:\n  REGISTRY_ADMIN_TOKEN_FILE: the file's content ${ADMIN_TOKEN_RULE}`,
    );
  }
  return text;
}
