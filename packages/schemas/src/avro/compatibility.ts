import type { AvroType } from "./parse.ts";

/** The incompatibility types of Avro's SchemaCompatibility, which Confluent reports. */
export type AvroRule =
  | "NAME_MISMATCH"
  | "FIXED_SIZE_MISMATCH"
  | "MISSING_ENUM_SYMBOLS"
  | "READER_FIELD_MISSING_DEFAULT_VALUE"
  | "TYPE_MISMATCH"
  | "MISSING_UNION_BRANCH";

export interface AvroIncompatibility {
  readonly rule: AvroRule;
  /** A JSON pointer into the reader schema. */
  readonly path: string;
  readonly detail: string;
}

/** How the two sides are named in messages: "the new schema", "version 3". */
export interface SideLabels {
  readonly reader: string;
  readonly writer: string;
}

interface AvroField {
  readonly name: string;
  readonly type: AvroType;
  readonly aliases: readonly string[];
  defaultValue(): unknown;
}

interface Loose {
  readonly typeName: string;
  readonly name?: string;
  readonly aliases?: readonly string[];
  readonly fields?: readonly AvroField[];
  readonly symbols?: readonly string[];
  readonly default?: string;
  readonly size?: number;
  readonly itemsType?: AvroType;
  readonly valuesType?: AvroType;
  readonly types?: readonly AvroType[];
}

/** Writer types each reader primitive can read besides its own (the specification's promotions). */
const PROMOTIONS: Record<string, readonly string[]> = {
  long: ["int"],
  float: ["int", "long"],
  double: ["int", "long", "float"],
  string: ["bytes"],
  bytes: ["string"],
};

/**
 * Whether data written with `writer` can be read with `reader`, by Avro's schema resolution rules,
 * walking both schemas as Avro's SchemaCompatibility does. Empty when compatible.
 */
export function avroIncompatibilities(
  reader: AvroType,
  writer: AvroType,
  labels: SideLabels,
): AvroIncompatibility[] {
  const issues = new ResolutionChecker(labels).check(reader, writer, "");
  return issues.map((issue) => (issue.path === "" ? { ...issue, path: "/" } : issue));
}

class ResolutionChecker {
  // Results per (reader, writer) pair with paths relative to the pair; null while one is being
  // checked, which a recursive type meets again and takes as compatible.
  private readonly memo = new Map<AvroType, Map<AvroType, AvroIncompatibility[] | null>>();
  private readonly reported = new Map<AvroType, Set<AvroType>>();

  constructor(private readonly labels: SideLabels) {}

  /**
   * The pair's issues at `path`. A pair met again by another path (a named type used in many
   * places) gives one issue per rule there: what a schema reaching a type by exponentially many
   * paths reports stays small, and the verdict is the same.
   */
  check(reader: AvroType, writer: AvroType, path: string): AvroIncompatibility[] {
    const issues = this.issuesOf(reader, writer);
    let byWriter = this.reported.get(reader);
    if (!byWriter) this.reported.set(reader, (byWriter = new Set()));
    if (!byWriter.has(writer)) {
      byWriter.add(writer);
      return issues.map((issue) => ({ ...issue, path: path + issue.path }));
    }
    const byRule = new Map(issues.map((issue) => [issue.rule, { ...issue, path }]));
    return [...byRule.values()];
  }

  /** The pair's issues relative to it, computed once. */
  private issuesOf(reader: AvroType, writer: AvroType): AvroIncompatibility[] {
    let byWriter = this.memo.get(reader);
    if (!byWriter) this.memo.set(reader, (byWriter = new Map()));
    const known = byWriter.get(writer);
    if (known === null) return [];
    if (known !== undefined) return known;
    byWriter.set(writer, null);
    const issues = this.compare(reader, writer);
    byWriter.set(writer, issues);
    return issues;
  }

  private compare(reader: AvroType, writer: AvroType): AvroIncompatibility[] {
    const r = kindOf(reader);
    const w = kindOf(writer);
    const readerType = reader as unknown as Loose;
    const writerType = writer as unknown as Loose;
    if (r === w) {
      switch (r) {
        case "array":
          return this.check(readerType.itemsType!, writerType.itemsType!, "/items");
        case "map":
          return this.check(readerType.valuesType!, writerType.valuesType!, "/values");
        case "fixed":
          return [...this.names(readerType, writerType), ...this.fixedSize(readerType, writerType)];
        case "enum":
          return [...this.names(readerType, writerType), ...this.symbols(readerType, writerType)];
        case "record":
          return [...this.names(readerType, writerType), ...this.fields(readerType, writerType)];
        case "union":
          return this.writerUnion(reader, writerType);
        default:
          return [];
      }
    }
    if (w === "union") {
      return (writerType.types ?? []).flatMap((branch) => this.check(reader, branch, ""));
    }
    if (PROMOTIONS[r]?.includes(w)) return [];
    if (r === "union") {
      const readable = (readerType.types ?? []).some((branch) => this.issuesOf(branch, writer).length === 0);
      return readable ? [] : [this.issue("MISSING_UNION_BRANCH", "", this.lacking(w))];
    }
    return [
      this.issue(
        "TYPE_MISMATCH",
        "",
        `reader type ${r} (${this.labels.reader}) cannot read writer type ${w} (${this.labels.writer})`,
      ),
    ];
  }

  /** Every branch the writer may have used must be readable. */
  private writerUnion(reader: AvroType, writer: Loose): AvroIncompatibility[] {
    const issues: AvroIncompatibility[] = [];
    (writer.types ?? []).forEach((branch, index) => {
      if (this.issuesOf(reader, branch).length > 0) {
        issues.push(this.issue("MISSING_UNION_BRANCH", `/${index}`, this.lacking(kindOf(branch))));
      }
    });
    return issues;
  }

  private lacking(writerKind: string): string {
    return `reader union (${this.labels.reader}) lacking writer type ${writerKind} (${this.labels.writer})`;
  }

  /** Simple names compare (a namespace may change); else a reader alias must name the writer. */
  private names(reader: Loose, writer: Loose): AvroIncompatibility[] {
    const writerName = writer.name ?? "";
    if (simpleName(reader.name ?? "") === simpleName(writerName)) return [];
    if ((reader.aliases ?? []).includes(writerName)) return [];
    return [
      this.issue(
        "NAME_MISMATCH",
        "/name",
        `expected: ${writerName} (${this.labels.writer}), found: ${reader.name ?? ""} (${this.labels.reader})`,
      ),
    ];
  }

  private fixedSize(reader: Loose, writer: Loose): AvroIncompatibility[] {
    if (reader.size === writer.size) return [];
    const detail = `expected: ${writer.size} (${this.labels.writer}), found: ${reader.size} (${this.labels.reader})`;
    return [this.issue("FIXED_SIZE_MISMATCH", "/size", detail)];
  }

  private symbols(reader: Loose, writer: Loose): AvroIncompatibility[] {
    const readerSymbols = new Set(reader.symbols ?? []);
    const missing = (writer.symbols ?? []).filter((symbol) => !readerSymbols.has(symbol));
    if (missing.length === 0) return [];
    // A reader enum's default stands in for the symbols it does not know.
    if (reader.default !== undefined && readerSymbols.has(reader.default)) return [];
    const detail = `${this.labels.reader} lacks symbols [${missing.join(", ")}] that ${this.labels.writer} has`;
    return [this.issue("MISSING_ENUM_SYMBOLS", "/symbols", detail)];
  }

  /** Reader fields are found in the writer by name, then by the reader field's aliases. */
  private fields(reader: Loose, writer: Loose): AvroIncompatibility[] {
    const writerFields = new Map((writer.fields ?? []).map((field) => [field.name, field]));
    return (reader.fields ?? []).flatMap((field, index) => {
      const path = `/fields/${index}`;
      const match = [field.name, ...field.aliases].map((name) => writerFields.get(name)).find(Boolean);
      if (match) return this.check(field.type, match.type, `${path}/type`);
      if (field.defaultValue() !== undefined) return [];
      const detail =
        `reader field "${field.name}" (${this.labels.reader}) has no default value ` +
        `and is missing from ${this.labels.writer}`;
      return [this.issue("READER_FIELD_MISSING_DEFAULT_VALUE", path, detail)];
    });
  }

  private issue(rule: AvroRule, path: string, detail: string): AvroIncompatibility {
    return { rule, path, detail };
  }
}

function kindOf(type: AvroType): string {
  const name = type.typeName;
  if (name.startsWith("union")) return "union";
  if (name === "error") return "record";
  return name;
}

function simpleName(fullName: string): string {
  return fullName.slice(fullName.lastIndexOf(".") + 1);
}
