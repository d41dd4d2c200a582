import type { Span } from "./ast.ts";
import type { DdlSyntaxError } from "./errors.ts";
import { Lexer } from "./lexer.ts";
import { describeToken, describeTokenKind, type Token } from "./tokens.ts";

/** First keywords of every statement; also what lets a statement on a new line end the previous one. */
export const STATEMENT_KEYWORDS = [
  "CREATE",
  "DECLARE",
  "DELETE",
  "DESCRIBE",
  "DROP",
  "GRANT",
  "PAUSE",
  "REGISTER",
  "REPLICATE",
  "RESTART",
  "RESUME",
  "REVOKE",
  "ROTATE",
  "SHOW",
  "STOP",
  "SUSPEND",
  "UPDATE",
] as const;

/**
 * One-token lookahead over the lexer, plus the bookkeeping that makes errors useful: every
 * alternative tested at the current position is remembered, so a failure lists all of them
 * (`expected one of "WITH", ";", found "..."`).
 */
export class TokenStream {
  private readonly lexer: Lexer;
  private current: Token;
  private expectedHere: string[] = [];
  /** End offset of the last consumed token. */
  lastEnd = 0;

  constructor(text: string, fileName: string | undefined) {
    this.lexer = new Lexer(text, fileName);
    this.current = this.lexer.next();
  }

  peek(): Token {
    return this.current;
  }

  advance(nextIsPath = false): Token {
    const token = this.current;
    this.lastEnd = token.endOffset;
    this.current = nextIsPath ? this.lexer.nextPath() : this.lexer.next();
    this.expectedHere = [];
    return token;
  }

  /** True (without consuming) when the next token is `keyword`; records it as an alternative otherwise. */
  isKeyword(keyword: string): boolean {
    const token = this.current;
    if (token.kind === "word" && token.text.toUpperCase() === keyword) return true;
    this.expectedHere.push(`"${keyword}"`);
    return false;
  }

  acceptKeyword(keyword: string): boolean {
    if (!this.isKeyword(keyword)) return false;
    this.advance();
    return true;
  }

  expectKeyword(...keywords: string[]): Token {
    for (const keyword of keywords) {
      if (this.isKeyword(keyword)) return this.advance();
    }
    throw this.fail();
  }

  isPunct(punct: string): boolean {
    if (this.current.kind === "punct" && this.current.text === punct) return true;
    this.expectedHere.push(`"${punct}"`);
    return false;
  }

  expectPunct(punct: string): Token {
    if (this.isPunct(punct)) return this.advance();
    throw this.fail();
  }

  /** A double-quoted name; `label` says what it names (`a quoted stream name`). */
  expectName(label: string): { value: string; token: Token } {
    const token = this.current;
    if (token.kind !== "string") {
      this.expectedHere.push(`a quoted ${label}`);
      throw this.fail(
        token.kind === "word" ? `names are written in double quotes: "${token.text}"` : undefined,
      );
    }
    if (token.value === "") {
      throw this.lexer.error(token.offset, {
        expected: [`a quoted ${label}`],
        found: describeToken(token),
        detail: `the ${label} must not be empty`,
      });
    }
    this.advance();
    return { value: token.value, token };
  }

  /**
   * A double-quoted secret (an enrollment token). Unlike expectName, its errors never quote back
   * what was found: a secret written in the wrong place must not end up in a message or a log.
   */
  expectSecret(label: string): string {
    const token = this.current;
    if (token.kind === "string" && token.value !== "") {
      this.advance();
      return token.value;
    }
    this.expectedHere.push(`a quoted ${label}`);
    throw this.failHidingText(token.kind === "string" ? `the ${label} must not be empty` : undefined);
  }

  /** Consumes the current token (FILE) and reads the one after it as a path (`FILE widget.avsc`). */
  advanceIntoPath(): Token {
    return this.advance(true);
  }

  /** Records an alternative that has no `isX` test of its own (e.g. `a string` in a JSON value). */
  expecting(description: string): void {
    this.expectedHere.push(description);
  }

  /** Error at the next token listing every alternative tested there. */
  fail(note?: string): DdlSyntaxError {
    const found = describeToken(this.current);
    const args = { expected: this.expectedHere, found, ...(note === undefined ? {} : { note }) };
    return this.lexer.error(this.current.offset, args);
  }

  /** Like fail(), but names what was found by its kind only (`a string`): it may be a secret. */
  failHidingText(note?: string): DdlSyntaxError {
    const found = describeTokenKind(this.current);
    const args = { expected: this.expectedHere, found, ...(note === undefined ? {} : { note }) };
    return this.lexer.error(this.current.offset, args);
  }

  /** Error at an already consumed token, e.g. a duplicate key. */
  failAt(token: Token, detail: string, expected: string[] = []): DdlSyntaxError {
    return this.lexer.error(token.offset, { expected, found: describeToken(token), detail });
  }

  position(offset: number): { line: number; column: number } {
    return this.lexer.position(offset);
  }

  /** Span from `start` to the end of the last consumed token. */
  spanFrom(start: Token): Span {
    return { line: start.line, column: start.column, offset: start.offset, endOffset: this.lastEnd };
  }

  /** Whether the next token starts a new statement on a new line (the missing-`;` rule). */
  atStatementOnNewLine(): boolean {
    const token = this.current;
    return (
      token.newlineBefore &&
      token.kind === "word" &&
      (STATEMENT_KEYWORDS as readonly string[]).includes(token.text.toUpperCase())
    );
  }
}
