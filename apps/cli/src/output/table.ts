export interface Column {
  /** Property of a row object (also the key in --output json). */
  key: string;
  header: string;
  /** Numbers are right-aligned in the seed's schema tables. */
  align?: "left" | "right";
}

export interface TableStyle {
  /** Rules above and below, as the seed's SHOW REPLICATIONS and DESCRIBE STREAM SOURCE tables have. */
  boxed?: boolean;
}

/**
 * Renders the seed's tables: `| a | b |` rows, a `|---+---|` rule under the header, cells padded
 * to the widest value. Hand-written because the format is a dozen lines and exact, which table
 * libraries get right only through many options.
 */
export function renderTable(
  columns: Column[],
  rows: Record<string, unknown>[],
  style: TableStyle = {},
): string {
  const cells = rows.map((row) => columns.map((column) => cellText(row[column.key])));
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((row) => (row[i] ?? "").length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, i) => pad(value, widths[i] ?? 0, columns[i]?.align)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("+")}|`;
  const out = [
    ...(style.boxed ? [rule] : []),
    line(columns.map((c) => c.header)),
    rule,
    ...cells.map(line),
    ...(style.boxed ? [rule] : []),
  ];
  return out.join("\n");
}

function pad(value: string, width: number, align: Column["align"]): string {
  return align === "right" ? value.padStart(width) : value.padEnd(width);
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
