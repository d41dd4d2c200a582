import type { GrantRole, Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";

/** The principals a grant names, by the keyword that says which kind: GROUP "devs" is "group:devs". */
const PRINCIPAL_KINDS = { USER: "user", GROUP: "group", TOKEN: "token" } as const;

/**
 * GRANT <READER | WRITER | ADMIN> [ON NAMESPACE "<path>"] [STREAMS "<prefix>"]
 *   TO <USER | GROUP | TOKEN> "<name>", after GRANT.
 */
export function parseGrant(tokens: TokenStream, start: Token): Statement {
  return { kind: "grant", ...parseGrantBody(tokens, "TO"), span: tokens.spanFrom(start) };
}

/** REVOKE <role> [ON NAMESPACE "<path>"] [STREAMS "<prefix>"] FROM <USER | GROUP | TOKEN> "<name>", after REVOKE. */
export function parseRevoke(tokens: TokenStream, start: Token): Statement {
  return { kind: "revoke", ...parseGrantBody(tokens, "FROM"), span: tokens.spanFrom(start) };
}

/** SHOW GRANTS [ON NAMESPACE "<path>"] [FOR <USER | GROUP | TOKEN> "<name>"], after SHOW GRANTS. */
export function parseShowGrants(tokens: TokenStream, start: Token): Statement {
  const namespace = tokens.acceptKeyword("ON") ? parseNamespace(tokens) : undefined;
  const principal = tokens.acceptKeyword("FOR") ? parsePrincipal(tokens) : undefined;
  return {
    kind: "showGrants",
    ...(namespace === undefined ? {} : { namespace }),
    ...(principal === undefined ? {} : { principal }),
    span: tokens.spanFrom(start),
  };
}

function parseGrantBody(
  tokens: TokenStream,
  preposition: "TO" | "FROM",
): { role: GrantRole; namespace?: string; streamPrefix?: string; principal: string } {
  const role = tokens.expectKeyword("READER", "WRITER", "ADMIN").text.toLowerCase() as GrantRole;
  const namespace = tokens.acceptKeyword("ON") ? parseNamespace(tokens) : undefined;
  const streamPrefix = tokens.acceptKeyword("STREAMS") ? tokens.expectName("stream prefix").value : undefined;
  tokens.expectKeyword(preposition);
  return {
    role,
    ...(namespace === undefined ? {} : { namespace }),
    ...(streamPrefix === undefined ? {} : { streamPrefix }),
    principal: parsePrincipal(tokens),
  };
}

/** NAMESPACE "<path>", after ON. */
function parseNamespace(tokens: TokenStream): string {
  tokens.expectKeyword("NAMESPACE");
  return tokens.expectName("namespace path").value;
}

/** USER "alice" | GROUP "devs" | TOKEN "ci", as the API names them ("user:alice"). */
function parsePrincipal(tokens: TokenStream): string {
  const kind = tokens
    .expectKeyword("USER", "GROUP", "TOKEN")
    .text.toUpperCase() as keyof typeof PRINCIPAL_KINDS;
  const name = tokens.expectName(`${PRINCIPAL_KINDS[kind]} name`).value;
  return `${PRINCIPAL_KINDS[kind]}:${name}`;
}

/** How a principal is written back: "group:devs" as GROUP "devs". */
export function principalKeywords(principal: string): { keyword: string; name: string } {
  const colon = principal.indexOf(":");
  const kind = principal.slice(0, colon);
  const keyword = Object.entries(PRINCIPAL_KINDS).find(([, k]) => k === kind)?.[0] ?? "USER";
  return { keyword, name: principal.slice(colon + 1) };
}
