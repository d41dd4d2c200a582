import type { Statement } from "./ast.ts";
import { parseSuspendOrResume } from "./statements/child-registry.ts";
import { parseConnectorControl } from "./statements/connector-control.ts";
import { parseDeclare } from "./statements/declare.ts";
import { parseDrop } from "./statements/drop.ts";
import { parseRegister } from "./statements/schema.ts";
import { parseReplicate } from "./statements/replicate.ts";
import { parseGrant, parseRevoke } from "./statements/grant.ts";
import { parseShow } from "./statements/show.ts";
import { parseBindingStatement, parseStreamStatement, type Verb } from "./statements/stream.ts";
import { parseCreateToken, parseRevokeToken, parseRotateRegistryKey } from "./statements/token.ts";
import { STATEMENT_KEYWORDS, TokenStream } from "./token-stream.ts";
import type { Token } from "./tokens.ts";

export interface ParseOptions {
  /** Shown in error messages (`widgets.sql:3:14: ...`). */
  fileName?: string;
}

/**
 * Parses a DDL script into statements. A statement ends with `;`; the `;` may be left out at the
 * end of the input and before a statement that starts on a new line (as the seed does). Throws
 * DdlSyntaxError.
 */
export function parse(text: string, options: ParseOptions = {}): Statement[] {
  const tokens = new TokenStream(text, options.fileName);
  const statements: Statement[] = [];
  for (;;) {
    // Empty statements (`;;`) are skipped silently, as SQL shells do.
    while (tokens.peek().kind === "punct" && tokens.peek().text === ";") tokens.advance();
    if (tokens.peek().kind === "eof") return statements;
    const statement = parseStatement(tokens);
    endStatement(tokens);
    statement.span.endOffset = tokens.lastEnd;
    statements.push(statement);
  }
}

function parseStatement(tokens: TokenStream): Statement {
  const start = tokens.peek();
  for (const keyword of STATEMENT_KEYWORDS) {
    if (tokens.acceptKeyword(keyword)) return parseAfter(tokens, start, keyword);
  }
  throw tokens.fail();
}

function parseAfter(
  tokens: TokenStream,
  start: Token,
  keyword: (typeof STATEMENT_KEYWORDS)[number],
): Statement {
  switch (keyword) {
    case "SHOW":
      return parseShow(tokens, start);
    case "DECLARE":
      return parseDeclare(tokens, start);
    case "DROP":
      return parseDrop(tokens, start);
    case "REGISTER":
      return parseRegister(tokens, start);
    case "REPLICATE":
      return parseReplicate(tokens, start);
    case "GRANT":
      return parseGrant(tokens, start);
    case "REVOKE":
      return tokens.isKeyword("TOKEN") ? parseRevokeToken(tokens, start) : parseRevoke(tokens, start);
    case "ROTATE":
      return parseRotateRegistryKey(tokens, start);
    case "SUSPEND":
      return parseSuspendOrResume(tokens, start, keyword);
    case "RESUME":
      // RESUME STREAM SOURCE|SINK, or RESUME CHILD REGISTRY.
      if (tokens.isKeyword("STREAM")) return parseConnectorControl(tokens, start, keyword);
      return parseSuspendOrResume(tokens, start, keyword);
    case "PAUSE":
    case "STOP":
    case "RESTART":
      return parseConnectorControl(tokens, start, keyword);
    case "CREATE":
    case "UPDATE":
    case "DELETE":
    case "DESCRIBE":
      return parseVerbStatement(tokens, start, keyword);
  }
}

function parseVerbStatement(tokens: TokenStream, start: Token, verb: Verb): Statement {
  if (tokens.isKeyword("STREAM")) return parseStreamStatement(tokens, start, verb);
  if (verb === "CREATE" && tokens.isKeyword("TOKEN")) return parseCreateToken(tokens, start);
  if (tokens.isKeyword(verb === "DESCRIBE" ? "BINDINGS" : "BINDING")) {
    return parseBindingStatement(tokens, start, verb);
  }
  throw tokens.fail();
}

function endStatement(tokens: TokenStream): void {
  if (tokens.isPunct(";")) {
    tokens.advance();
    return;
  }
  const next = tokens.peek();
  if (next.kind === "eof" || tokens.atStatementOnNewLine()) return;
  throw tokens.fail(
    next.kind === "ellipsis" ? '"..." marks elided text in the seed; write the actual clauses' : undefined,
  );
}
