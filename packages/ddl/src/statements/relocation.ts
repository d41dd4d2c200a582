import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";
import type { Verb } from "./stream.ts";

/** The rest of `CREATE|DESCRIBE|DELETE STREAM RELOCATION "s" FROM CLUSTER "a" [TO CLUSTER "b"]`. */
export function parseRelocationRest(
  tokens: TokenStream,
  start: Token,
  verb: Exclude<Verb, "UPDATE">,
): Statement {
  const stream = tokens.expectName("stream name").value;
  tokens.expectKeyword("FROM");
  tokens.expectKeyword("CLUSTER");
  const fromCluster = tokens.expectName("cluster name").value;
  if (verb === "CREATE") {
    tokens.expectKeyword("TO");
    tokens.expectKeyword("CLUSTER");
    const toCluster = tokens.expectName("cluster name").value;
    return { kind: "createStreamRelocation", stream, fromCluster, toCluster, span: tokens.spanFrom(start) };
  }
  const kind = verb === "DESCRIBE" ? "describeStreamRelocation" : "deleteStreamRelocation";
  return { kind, stream, fromCluster, span: tokens.spanFrom(start) };
}
