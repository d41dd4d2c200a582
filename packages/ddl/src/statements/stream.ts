import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";
import { parseConnectorRest } from "./connector.ts";
import { parseRelocationRest } from "./relocation.ts";
import { parseWithClauses, type WithClauseName } from "./with-clauses.ts";

export type Verb = "CREATE" | "UPDATE" | "DELETE" | "DESCRIBE";

const STREAM_CLAUSES: readonly WithClauseName[] = ["config", "producerConfig", "consumerConfig"];

/** `<verb> STREAM ...`: a stream itself, or a STREAM SOURCE / SINK / RELOCATION. */
export function parseStreamStatement(tokens: TokenStream, start: Token, verb: Verb): Statement {
  tokens.expectKeyword("STREAM");
  if (tokens.acceptKeyword("SOURCE")) return parseConnectorRest(tokens, start, verb, "source");
  if (tokens.acceptKeyword("SINK")) return parseConnectorRest(tokens, start, verb, "sink");
  if (verb !== "UPDATE" && tokens.acceptKeyword("RELOCATION"))
    return parseRelocationRest(tokens, start, verb);
  const stream = tokens.expectName("stream name").value;
  switch (verb) {
    case "CREATE":
    case "UPDATE": {
      const clauses = parseWithClauses(tokens, STREAM_CLAUSES);
      const kind = verb === "CREATE" ? "createStream" : "updateStream";
      return { kind, stream, ...clauses, span: tokens.spanFrom(start) };
    }
    case "DELETE": {
      const cascade = tokens.acceptKeyword("CASCADE");
      return { kind: "deleteStream", stream, cascade, span: tokens.spanFrom(start) };
    }
    case "DESCRIBE":
      return { kind: "describeStream", stream, span: tokens.spanFrom(start) };
  }
}

/**
 * CREATE / UPDATE BINDING "s" TO CLUSTER "c" [WITH ...]; DELETE BINDING "s" FROM CLUSTER "c"
 * (ON / TO CLUSTER read as well); DESCRIBE BINDINGS "s".
 */
export function parseBindingStatement(tokens: TokenStream, start: Token, verb: Verb): Statement {
  if (verb === "DESCRIBE") {
    tokens.expectKeyword("BINDINGS");
    const stream = tokens.expectName("stream name").value;
    return { kind: "describeBindings", stream, span: tokens.spanFrom(start) };
  }
  tokens.expectKeyword("BINDING");
  const stream = tokens.expectName("stream name").value;
  if (verb === "DELETE") tokens.expectKeyword("FROM", "ON", "TO");
  else tokens.expectKeyword("TO");
  tokens.expectKeyword("CLUSTER");
  const cluster = tokens.expectName("cluster name").value;
  if (verb === "DELETE") return { kind: "deleteBinding", stream, cluster, span: tokens.spanFrom(start) };
  const clauses = parseWithClauses(tokens, STREAM_CLAUSES);
  const kind = verb === "CREATE" ? "createBinding" : "updateBinding";
  return { kind, stream, cluster, ...clauses, span: tokens.spanFrom(start) };
}
