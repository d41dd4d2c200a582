import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";

/** REPLICATE BINDING "<cluster>/<stream>" [FROM NAMESPACE "/a/b"] TO CLUSTER "c". */
export function parseReplicate(tokens: TokenStream, start: Token): Statement {
  tokens.expectKeyword("BINDING");
  const { value: binding, token } = tokens.expectName("binding");
  const slash = binding.indexOf("/");
  if (slash <= 0 || slash === binding.length - 1 || binding.includes("/", slash + 1)) {
    throw tokens.failAt(
      token,
      `the binding to replicate must read "<cluster>/<stream>" (e.g. "cluster001/widgets_v0"), found ${token.text}`,
      ['"<cluster>/<stream>"'],
    );
  }
  let namespace: string | undefined;
  if (tokens.acceptKeyword("FROM")) {
    tokens.expectKeyword("NAMESPACE");
    namespace = tokens.expectName("namespace").value;
  }
  tokens.expectKeyword("TO");
  tokens.expectKeyword("CLUSTER");
  const cluster = tokens.expectName("cluster name").value;
  return {
    kind: "replicateBinding",
    sourceCluster: binding.slice(0, slash),
    stream: binding.slice(slash + 1),
    ...(namespace === undefined ? {} : { namespace }),
    cluster,
    span: tokens.spanFrom(start),
  };
}
