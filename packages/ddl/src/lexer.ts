import { DdlSyntaxError } from "./errors.ts";
import type { Token, TokenKind } from "./tokens.ts";

const PUNCTUATION = new Set(["{", "}", "[", "]", "(", ")", ",", ":", ";"]);
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

function isWordStart(ch: string): boolean {
  return (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || ch === "_";
}
function isWordPart(ch: string): boolean {
  return isWordStart(ch) || isDigit(ch);
}
function isDigit(ch: string): boolean {
  return ch >= "0" && ch <= "9";
}
function isSpace(ch: string): boolean {
  return (
    ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\f" || ch === "\v" || ch === "\uFEFF"
  );
}
/** A bare FILE path stops at whitespace and at characters that end the schema body. */
function isPathPart(ch: string): boolean {
  return !isSpace(ch) && !'();,"{}'.includes(ch);
}

/** Whether `path` reads back as a single bare `path` token (else the printer quotes it). */
export function isBarePath(path: string): boolean {
  if (path.length === 0 || path.includes("--")) return false;
  for (const ch of path) if (!isPathPart(ch)) return false;
  return true;
}

/**
 * Pull lexer: the parser asks for one token at a time, so it can ask for a bare path after FILE
 * (`FILE widget.avsc`) where ordinary tokenization would split the name at the dot.
 */
export class Lexer {
  private offset = 0;
  private line = 1;
  private lineStart = 0;

  constructor(
    private readonly text: string,
    private readonly fileName: string | undefined,
  ) {}

  next(): Token {
    const newlineBefore = this.skipTrivia();
    const start = this.offset;
    const ch = this.text[start];
    if (ch === undefined) return this.token("eof", start, "", newlineBefore);
    if (ch === '"') return this.string(newlineBefore);
    if (isWordStart(ch)) {
      let end = start + 1;
      while (end < this.text.length && isWordPart(this.text[end] as string)) end++;
      return this.take("word", end, newlineBefore);
    }
    if (isDigit(ch) || (ch === "-" && isDigit(this.text[start + 1] ?? ""))) return this.number(newlineBefore);
    if (this.text.startsWith("...", start)) return this.take("ellipsis", start + 3, newlineBefore);
    if (PUNCTUATION.has(ch)) return this.take("punct", start + 1, newlineBefore);
    const char = String.fromCodePoint(this.text.codePointAt(start) ?? 0);
    throw this.error(start, {
      expected: [],
      found: `"${char}"`,
      detail: `unexpected character "${char}"`,
      // SQL habit; what is inside is not quoted back, as it may be a secret (WITH TOKEN '...').
      ...(ch === "'" ? { note: `names and strings are written in double quotes, "...", not '...'` } : {}),
    });
  }

  /**
   * Reads the next token as a FILE path: a quoted string stays a string; otherwise the longest run of
   * path characters (`widget.avsc`, `../schemas/w-1.avsc`) becomes a `path` token.
   */
  nextPath(): Token {
    const newlineBefore = this.skipTrivia();
    const start = this.offset;
    let end = start;
    while (
      end < this.text.length &&
      isPathPart(this.text[end] as string) &&
      !this.text.startsWith("--", end)
    ) {
      end++;
    }
    if (end === start) {
      const token = this.next();
      token.newlineBefore ||= newlineBefore;
      return token;
    }
    return this.take("path", end, newlineBefore);
  }

  /** Skips whitespace and `--` comments; reports whether a line break was crossed. */
  private skipTrivia(): boolean {
    let newline = false;
    while (this.offset < this.text.length) {
      const ch = this.text[this.offset] as string;
      if (ch === "\n") {
        newline = true;
        this.offset++;
        this.line++;
        this.lineStart = this.offset;
      } else if (isSpace(ch)) {
        this.offset++;
      } else if (this.text.startsWith("--", this.offset)) {
        const eol = this.text.indexOf("\n", this.offset);
        this.offset = eol === -1 ? this.text.length : eol;
      } else {
        break;
      }
    }
    return newline;
  }

  private string(newlineBefore: boolean): Token {
    const start = this.offset;
    let value = "";
    let i = start + 1;
    for (;;) {
      const ch = this.text[i];
      if (ch === undefined || ch === "\n" || ch === "\r") {
        throw this.error(start, {
          expected: ['"\\""'],
          found: ch === undefined ? "end of input" : "end of line",
          detail: 'unterminated string: a string must close with " on the line where it starts',
          incomplete: false,
        });
      }
      if (ch === '"') break;
      if (ch === "\\") {
        const esc = this.text[i + 1] ?? "";
        const simple = ESCAPES[esc];
        if (simple !== undefined) {
          value += simple;
          i += 2;
          continue;
        }
        const hex = this.text.slice(i + 2, i + 6);
        if (esc === "u" && /^[0-9a-fA-F]{4}$/.test(hex)) {
          value += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        throw this.error(i, {
          expected: ['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\uXXXX"],
          found: `"\\${esc}"`,
          detail: `invalid escape "\\${esc}" in string (allowed: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`,
        });
      }
      value += ch;
      i++;
    }
    const token = this.take("string", i + 1, newlineBefore);
    token.value = value;
    return token;
  }

  private number(newlineBefore: boolean): Token {
    const start = this.offset;
    const end = this.scanNumber(start);
    // `10abc` or `1.` is neither a number nor a word: reject it whole rather than split it silently.
    const after = this.text[end] ?? "";
    if (isWordPart(after) || after === ".") {
      let stop = end;
      while (stop < this.text.length && (isWordPart(this.text[stop] as string) || this.text[stop] === "."))
        stop++;
      throw this.error(start, {
        expected: ["a number"],
        found: `"${this.text.slice(start, stop)}"`,
        detail: `invalid number "${this.text.slice(start, stop)}" (numbers are written as in JSON; quote other values)`,
      });
    }
    return this.take("number", end, newlineBefore);
  }

  /** End of the JSON number at `start`: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  private scanNumber(start: number): number {
    const text = this.text;
    const digits = (from: number): number => {
      let i = from;
      while (isDigit(text[i] ?? "")) i++;
      return i;
    };
    let i = text[start] === "-" ? start + 1 : start;
    i = text[i] === "0" ? i + 1 : digits(i);
    if (text[i] === "." && isDigit(text[i + 1] ?? "")) i = digits(i + 1);
    const exponentSign = text[i + 1] === "+" || text[i + 1] === "-" ? 1 : 0;
    if ((text[i] === "e" || text[i] === "E") && isDigit(text[i + 1 + exponentSign] ?? "")) {
      i = digits(i + 1 + exponentSign);
    }
    return i;
  }

  private take(kind: TokenKind, end: number, newlineBefore: boolean): Token {
    return this.token(kind, end, this.text.slice(this.offset, end), newlineBefore);
  }

  private token(kind: TokenKind, end: number, text: string, newlineBefore: boolean): Token {
    const token: Token = {
      kind,
      text,
      value: text,
      offset: this.offset,
      endOffset: Math.max(end, this.offset),
      line: this.line,
      column: this.offset - this.lineStart + 1,
      newlineBefore,
    };
    this.offset = token.endOffset;
    return token;
  }

  error(
    offset: number,
    args: { expected: string[]; found: string; detail?: string; note?: string; incomplete?: boolean },
  ): DdlSyntaxError {
    const { line, column } = this.position(offset);
    return new DdlSyntaxError({ fileName: this.fileName, line, column, offset, ...args });
  }

  /** Line/column of any offset (errors may point behind the current position). */
  position(offset: number): { line: number; column: number } {
    let line = 1;
    let lineStart = 0;
    for (let i = this.text.indexOf("\n"); i !== -1 && i < offset; i = this.text.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { line, column: offset - lineStart + 1 };
  }
}
