import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";
import { parseShowGrants } from "./grant.ts";

/** SHOW NAMESPACE | NAMESPACES | CLUSTERS | STREAMS [LIKE] | STREAM SOURCES/SINKS [LIKE] | REPLICATIONS [ON CLUSTER] | SOURCE/SINK TYPES FOR CLUSTER | TOKENS | CHILD REGISTRIES. */
export function parseShow(tokens: TokenStream, start: Token): Statement {
  if (tokens.acceptKeyword("NAMESPACE")) return { kind: "showNamespace", span: tokens.spanFrom(start) };
  if (tokens.acceptKeyword("NAMESPACES")) return { kind: "showNamespaces", span: tokens.spanFrom(start) };
  if (tokens.acceptKeyword("CLUSTERS")) return { kind: "showClusters", span: tokens.spanFrom(start) };
  if (tokens.acceptKeyword("GRANTS")) return parseShowGrants(tokens, start);
  if (tokens.acceptKeyword("TOKENS")) return { kind: "showTokens", span: tokens.spanFrom(start) };
  if (tokens.acceptKeyword("CHILD")) {
    tokens.expectKeyword("REGISTRIES");
    return { kind: "showChildRegistries", span: tokens.spanFrom(start) };
  }
  if (tokens.acceptKeyword("STREAM")) {
    const kind =
      tokens.expectKeyword("SOURCES", "SINKS").text.toUpperCase() === "SOURCES"
        ? "showStreamSources"
        : "showStreamSinks";
    if (!tokens.acceptKeyword("LIKE")) return { kind, span: tokens.spanFrom(start) };
    const like = tokens.expectName("LIKE pattern").value;
    return { kind, like, span: tokens.spanFrom(start) };
  }
  if (tokens.acceptKeyword("STREAMS")) {
    if (!tokens.acceptKeyword("LIKE")) return { kind: "showStreams", span: tokens.spanFrom(start) };
    const like = tokens.expectName("LIKE pattern").value;
    return { kind: "showStreams", like, span: tokens.spanFrom(start) };
  }
  if (tokens.acceptKeyword("REPLICATIONS")) {
    if (!tokens.acceptKeyword("ON")) return { kind: "showReplications", span: tokens.spanFrom(start) };
    tokens.expectKeyword("CLUSTER");
    const cluster = tokens.expectName("cluster name").value;
    return { kind: "showReplications", cluster, span: tokens.spanFrom(start) };
  }
  for (const [keyword, kind] of [
    ["SOURCE", "showSourceTypes"],
    ["SINK", "showSinkTypes"],
  ] as const) {
    if (tokens.acceptKeyword(keyword)) {
      tokens.expectKeyword("TYPES");
      tokens.expectKeyword("FOR");
      tokens.expectKeyword("CLUSTER");
      const cluster = tokens.expectName("cluster name").value;
      return { kind, cluster, span: tokens.spanFrom(start) };
    }
  }
  throw tokens.fail();
}
