import { Lexer, Source, TokenKind, type GraphQLError } from "graphql";
import { queryLimitError } from "./limit-error.ts";

/**
 * Refuses query text of more than `maxTokens` lexical tokens before it is parsed, counting them
 * all so the refusal says how many. Text that does not lex is left to the parser to report.
 */
export function checkTokens(query: string, maxTokens: number): GraphQLError | undefined {
  const lexer = new Lexer(new Source(query));
  let tokens = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) tokens += 1;
  } catch {
    // A syntax error: the parser reports it with its location.
  }
  return tokens > maxTokens ? queryLimitError("tokens", maxTokens, tokens, "tokens") : undefined;
}
