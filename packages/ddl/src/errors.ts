/** A DDL text that does not follow the grammar. The message names file:line:column, expected and found. */
export class DdlSyntaxError extends Error {
  override readonly name = "DdlSyntaxError";
  readonly fileName: string | undefined;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly offset: number;
  /** What the parser would have accepted here, as displayed (`"TO"`, `a string`, ...). */
  readonly expected: string[];
  /** What it found, as displayed (`"CLUSTR"`, `end of input`, ...). */
  readonly found: string;
  /** The text ended before the statement did: more input may complete it (a REPL reads another line). */
  readonly incomplete: boolean;

  constructor(args: {
    fileName?: string | undefined;
    line: number;
    column: number;
    offset: number;
    expected: string[];
    found: string;
    /** Replaces the `expected X, found Y` part when the problem is not about a missing token. */
    detail?: string;
    /** Appended in parentheses, e.g. where an unclosed block was opened. */
    note?: string;
    /** Defaults to whether the end of input was found; false for errors more text cannot fix. */
    incomplete?: boolean;
  }) {
    const where = `${args.fileName ?? "<input>"}:${args.line}:${args.column}`;
    const what = args.detail ?? `expected ${describeExpected(args.expected)}, found ${args.found}`;
    super(`${where}: ${what}${args.note === undefined ? "" : ` (${args.note})`}`);
    this.fileName = args.fileName;
    this.line = args.line;
    this.column = args.column;
    this.offset = args.offset;
    this.expected = args.expected;
    this.found = args.found;
    this.incomplete = args.incomplete ?? args.found === "end of input";
  }
}

function describeExpected(expected: string[]): string {
  const unique = [...new Set(expected)];
  if (unique.length === 0) return "nothing";
  if (unique.length === 1) return unique[0] as string;
  return `one of ${unique.join(", ")}`;
}
