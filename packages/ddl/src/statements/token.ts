import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";

/** The longest EXPIRES IN a token may have (the registry refuses more, too). */
const MAX_EXPIRES_IN_DAYS = 3_650;

/**
 * CREATE TOKEN "name" [GROUPS ("a", "b")] [EXPIRES IN n DAYS], after CREATE: an API token, its
 * value shown once by the registry.
 */
export function parseCreateToken(tokens: TokenStream, start: Token): Statement {
  tokens.expectKeyword("TOKEN");
  const token = tokens.expectName("token name").value;
  let groups: string[] | undefined;
  let expiresInDays: number | undefined;
  for (;;) {
    if (groups === undefined && tokens.acceptKeyword("GROUPS")) {
      groups = parseGroups(tokens);
    } else if (expiresInDays === undefined && tokens.acceptKeyword("EXPIRES")) {
      tokens.expectKeyword("IN");
      expiresInDays = parseDays(tokens);
      tokens.expectKeyword("DAYS", "DAY");
    } else {
      break;
    }
  }
  return {
    kind: "createToken",
    token,
    ...(groups === undefined ? {} : { groups }),
    ...(expiresInDays === undefined ? {} : { expiresInDays }),
    span: tokens.spanFrom(start),
  };
}

/** REVOKE TOKEN "name", after REVOKE. */
export function parseRevokeToken(tokens: TokenStream, start: Token): Statement {
  tokens.expectKeyword("TOKEN");
  const token = tokens.expectName("token name").value;
  return { kind: "revokeToken", token, span: tokens.spanFrom(start) };
}

/** ROTATE REGISTRY KEY, after ROTATE. */
export function parseRotateRegistryKey(tokens: TokenStream, start: Token): Statement {
  tokens.expectKeyword("REGISTRY");
  tokens.expectKeyword("KEY");
  return { kind: "rotateRegistryKey", span: tokens.spanFrom(start) };
}

/** ("a", "b"): at least one quoted group name. */
function parseGroups(tokens: TokenStream): string[] {
  tokens.expectPunct("(");
  const groups = [tokens.expectName("group name").value];
  while (tokens.isPunct(",")) {
    tokens.advance();
    groups.push(tokens.expectName("group name").value);
  }
  tokens.expectPunct(")");
  return groups;
}

function parseDays(tokens: TokenStream): number {
  const token = tokens.peek();
  const days = Number(token.value);
  if (token.kind !== "number" || !Number.isInteger(days) || days < 1 || days > MAX_EXPIRES_IN_DAYS) {
    tokens.expecting(`a whole number of days from 1 to ${MAX_EXPIRES_IN_DAYS}`);
    throw tokens.fail();
  }
  tokens.advance();
  return days;
}
