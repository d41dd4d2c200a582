import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";
import { parseWithClauses } from "./with-clauses.ts";

/** DECLARE DEFAULT NAMESPACE | PARENT REGISTRY | CLUSTER [WITH PROVIDER] [WITH CONFIG]. */
export function parseDeclare(tokens: TokenStream, start: Token): Statement {
  if (tokens.acceptKeyword("DEFAULT")) {
    tokens.expectKeyword("NAMESPACE");
    const namespace = tokens.expectName("namespace").value;
    return { kind: "declareDefaultNamespace", namespace, span: tokens.spanFrom(start) };
  }
  if (tokens.acceptKeyword("PARENT")) {
    tokens.expectKeyword("REGISTRY");
    const url = tokens.expectName("registry URL").value;
    return { kind: "declareParentRegistry", url, span: tokens.spanFrom(start) };
  }
  if (tokens.acceptKeyword("CLUSTER")) {
    const cluster = tokens.expectName("cluster name").value;
    const clauses = parseWithClauses(tokens, ["provider", "config"]);
    return { kind: "declareCluster", cluster, ...clauses, span: tokens.spanFrom(start) };
  }
  throw tokens.fail();
}
