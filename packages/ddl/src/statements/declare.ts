import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";
import { parseWithClauses } from "./with-clauses.ts";

/**
 * What a DECLARE PARENT REGISTRY without its token is told. The parent refuses a registration
 * without its enrollment token, so the statement cannot work without one.
 */
const TOKEN_REQUIRED =
  'the parent\'s enrollment token is required: DECLARE PARENT REGISTRY "<url>" WITH TOKEN "<token>", ' +
  "where <token> is the parent's REGISTRY_ENROLLMENT_TOKEN";

/** DECLARE DEFAULT NAMESPACE | PARENT REGISTRY WITH TOKEN | CLUSTER [WITH PROVIDER] [WITH CONFIG]. */
export function parseDeclare(tokens: TokenStream, start: Token): Statement {
  if (tokens.acceptKeyword("DEFAULT")) {
    tokens.expectKeyword("NAMESPACE");
    const namespace = tokens.expectName("namespace").value;
    return { kind: "declareDefaultNamespace", namespace, span: tokens.spanFrom(start) };
  }
  if (tokens.acceptKeyword("PARENT")) {
    tokens.expectKeyword("REGISTRY");
    const url = tokens.expectName("registry URL").value;
    // Errors from here on do not quote what was found: it may be the token, misplaced.
    if (!tokens.acceptKeyword("WITH") || !tokens.acceptKeyword("TOKEN")) {
      throw tokens.failHidingText(TOKEN_REQUIRED);
    }
    const token = tokens.expectSecret("enrollment token");
    return { kind: "declareParentRegistry", url, token, span: tokens.spanFrom(start) };
  }
  if (tokens.acceptKeyword("CLUSTER")) {
    const cluster = tokens.expectName("cluster name").value;
    const clauses = parseWithClauses(tokens, ["provider", "config"]);
    return { kind: "declareCluster", cluster, ...clauses, span: tokens.spanFrom(start) };
  }
  throw tokens.fail();
}
