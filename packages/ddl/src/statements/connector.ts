import type { ConfigBlock, Span, Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";
import type { Verb } from "./stream.ts";
import { parseWithClauses } from "./with-clauses.ts";

type Role = "source" | "sink";

/** What the source and sink statements have in common, before it is named for its role. */
type ConnectorParts =
  | { verb: "DESCRIBE" | "DELETE"; name: string; span: Span }
  | { verb: "UPDATE"; name: string; config: ConfigBlock; span: Span }
  | { verb: "CREATE"; name: string; type: string; config?: ConfigBlock; cluster: string; span: Span };

/**
 * The rest of `<verb> STREAM SOURCE|SINK "x" ...`. Sources and sinks share one grammar:
 * CREATE ... WITH TYPE "t" [WITH CONFIG {...}] ON CLUSTER "c"; UPDATE ... WITH CONFIG {...};
 * DESCRIBE / DELETE take just the name.
 */
export function parseConnectorRest(tokens: TokenStream, start: Token, verb: Verb, role: Role): Statement {
  const parts = parseParts(tokens, start, verb, role);
  return role === "source" ? toSource(parts) : toSink(parts);
}

function parseParts(tokens: TokenStream, start: Token, verb: Verb, role: Role): ConnectorParts {
  const name = tokens.expectName(`stream ${role} name`).value;
  if (verb === "DESCRIBE" || verb === "DELETE") return { verb, name, span: tokens.spanFrom(start) };
  if (verb === "UPDATE") {
    const { config } = parseWithClauses(tokens, ["config"]);
    if (config === undefined) throw tokens.fail();
    return { verb, name, config, span: tokens.spanFrom(start) };
  }
  const { type, config } = parseWithClauses(tokens, ["type", "config"]);
  if (type === undefined) throw tokens.fail(`CREATE STREAM ${role.toUpperCase()} needs WITH TYPE "<type>"`);
  tokens.expectKeyword("ON");
  tokens.expectKeyword("CLUSTER");
  const cluster = tokens.expectName("cluster name").value;
  return {
    verb,
    name,
    type,
    ...(config === undefined ? {} : { config }),
    cluster,
    span: tokens.spanFrom(start),
  };
}

function toSource(parts: ConnectorParts): Statement {
  switch (parts.verb) {
    case "CREATE": {
      const { verb: _verb, name, ...rest } = parts;
      return { kind: "createStreamSource", source: name, ...rest };
    }
    case "UPDATE": {
      const { verb: _verb, name, ...rest } = parts;
      return { kind: "updateStreamSource", source: name, ...rest };
    }
    case "DESCRIBE":
      return { kind: "describeStreamSource", source: parts.name, span: parts.span };
    case "DELETE":
      return { kind: "deleteStreamSource", source: parts.name, span: parts.span };
  }
}

function toSink(parts: ConnectorParts): Statement {
  switch (parts.verb) {
    case "CREATE": {
      const { verb: _verb, name, ...rest } = parts;
      return { kind: "createStreamSink", sink: name, ...rest };
    }
    case "UPDATE": {
      const { verb: _verb, name, ...rest } = parts;
      return { kind: "updateStreamSink", sink: name, ...rest };
    }
    case "DESCRIBE":
      return { kind: "describeStreamSink", sink: parts.name, span: parts.span };
    case "DELETE":
      return { kind: "deleteStreamSink", sink: parts.name, span: parts.span };
  }
}
