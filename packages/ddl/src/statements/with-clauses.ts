import type { ConfigBlock } from "../ast.ts";
import { parseConfigBlock } from "../config-block.ts";
import type { TokenStream } from "../token-stream.ts";

/** The `WITH ...` clauses, by the field they fill. */
export interface WithClauses {
  provider?: string;
  type?: string;
  config?: ConfigBlock;
  producerConfig?: ConfigBlock;
  consumerConfig?: ConfigBlock;
}
export type WithClauseName = keyof WithClauses;

const CLAUSE_TEXT: Record<WithClauseName, string> = {
  provider: "WITH PROVIDER",
  type: "WITH TYPE",
  config: "WITH CONFIG",
  producerConfig: "WITH PRODUCER CONFIG",
  consumerConfig: "WITH CONSUMER CONFIG",
};

/**
 * Zero or more `WITH` clauses among `allowed`, in any order, each at most once. The printer writes
 * them in the order of `allowed`, which is the canonical order.
 */
export function parseWithClauses(tokens: TokenStream, allowed: readonly WithClauseName[]): WithClauses {
  const clauses: WithClauses = {};
  while (tokens.isKeyword("WITH")) {
    const withToken = tokens.advance();
    const name = parseClauseHead(tokens, allowed);
    if (clauses[name] !== undefined) {
      throw tokens.failAt(withToken, `${CLAUSE_TEXT[name]} is given twice`);
    }
    if (name === "provider" || name === "type") {
      clauses[name] = tokens.expectName(name === "provider" ? "provider kind" : "type").value;
    } else {
      clauses[name] = parseConfigBlock(tokens);
    }
  }
  return clauses;
}

function parseClauseHead(tokens: TokenStream, allowed: readonly WithClauseName[]): WithClauseName {
  for (const name of allowed) {
    if (name === "producerConfig" || name === "consumerConfig") {
      if (tokens.acceptKeyword(name === "producerConfig" ? "PRODUCER" : "CONSUMER")) {
        tokens.expectKeyword("CONFIG");
        return name;
      }
    } else if (tokens.acceptKeyword(name.toUpperCase())) {
      return name;
    }
  }
  throw tokens.fail();
}
