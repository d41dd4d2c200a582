/** Token kinds of the DDL. Keywords are `word` tokens, compared case-insensitively by the parser. */
export type TokenKind =
  | "word" // SHOW, CLUSTER, true, null ...: [A-Za-z_][A-Za-z0-9_]*
  | "string" // "double quoted", JSON escapes
  | "number" // JSON number, optionally negative
  | "path" // bare FILE path (only produced on request, after FILE)
  | "punct" // { } [ ] ( ) , : ;
  | "ellipsis" // `...`: lexed on its own so elided seed examples fail with a clear message
  | "eof";

export interface Token {
  kind: TokenKind;
  /** Source text of the token, exactly as written. */
  text: string;
  /** Decoded value: a string's contents, a word/punct/path's text. */
  value: string;
  offset: number;
  endOffset: number;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** True when a line break separates this token from the previous one (drives the `;` rule). */
  newlineBefore: boolean;
}

/** How a token is named in "found ..." of an error. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "end of input";
    case "string":
      return `string ${token.text}`;
    case "number":
      return `number ${token.text}`;
    default:
      return `"${token.text}"`;
  }
}

/** How a token is named without its text: for where what was written may be a secret. */
export function describeTokenKind(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "end of input";
    case "punct":
    case "ellipsis":
      return `"${token.text}"`;
    default:
      return `a ${token.kind}`;
  }
}
