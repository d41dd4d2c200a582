import protobuf from "protobufjs";
import { errorMessage, parseError } from "../errors.ts";
import type { ResolvedReference } from "../types.ts";
import { modelFile, type ProtoFileModel } from "./model.ts";
import { printProtoFile } from "./print.ts";

export interface ProtoParsed {
  readonly file: ProtoFileModel;
  readonly canonical: string;
  readonly recordName: string | undefined;
}

interface ParsedFile {
  readonly packageName: string;
  readonly imports: readonly string[];
  readonly root: protobuf.Root;
}

const PARSE_OPTIONS = { keepCase: true, alternateCommentMode: true };
// Imports every registry knows without a reference (Confluent ships these): those protobufjs lacks
// are let through, and a type used from them fails resolution by name.
const BUILT_IN_PREFIXES = ["google/protobuf/", "google/type/", "confluent/"];

/** Parses .proto text with protobufjs; imports resolve to the references' texts (by import path). */
export function parseProtobuf(text: string, references: readonly ResolvedReference[]): ProtoParsed {
  const own = parseFile(new protobuf.Root(), text, "");
  const combined = new protobuf.Root();
  const packages = new Set<string>([own.packageName]);
  loadImports(combined, own.imports, references, new Set(), packages);
  parseFile(combined, text, "");
  try {
    combined.resolveAll();
  } catch (err) {
    throw parseError("PROTOBUF", errorMessage(err));
  }
  const file = modelFile(own.root, combined, own.packageName, packages);
  return {
    file,
    canonical: printProtoFile(own.root, syntaxOf(text), own.packageName, own.imports),
    recordName: file.messages[0]?.fullName,
  };
}

function parseFile(root: protobuf.Root, text: string, where: string): ParsedFile {
  try {
    const parsed = protobuf.parse(text, root, PARSE_OPTIONS);
    const imports = [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])];
    return { packageName: parsed.package ?? "", imports, root: parsed.root };
  } catch (err) {
    throw parseError("PROTOBUF", where + errorMessage(err));
  }
}

function loadImports(
  root: protobuf.Root,
  imports: readonly string[],
  references: readonly ResolvedReference[],
  loaded: Set<string>,
  packages: Set<string>,
): void {
  for (const path of imports) {
    if (loaded.has(path)) continue;
    loaded.add(path);
    const reference = references.find((candidate) => candidate.name === path);
    if (reference) {
      loadReference(root, reference, references, loaded, packages);
      continue;
    }
    const common = protobuf.common.get(path) as { nested?: protobuf.INamespace["nested"] } | null;
    if (common?.nested) {
      root.addJSON(common.nested);
      packages.add(path.startsWith("google/protobuf/") ? "google.protobuf" : "");
    } else if (!BUILT_IN_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      throw parseError("PROTOBUF", `import "${path}" is not among the schema's references`);
    }
  }
}

function loadReference(
  root: protobuf.Root,
  reference: ResolvedReference,
  outer: readonly ResolvedReference[],
  loaded: Set<string>,
  packages: Set<string>,
): void {
  const where = `reference "${reference.name}": `;
  if (reference.schemaType !== "PROTOBUF") {
    throw parseError(
      "PROTOBUF",
      `${where}a PROTOBUF schema can only import PROTOBUF schemas, not ${reference.schemaType}`,
    );
  }
  const alone = parseFile(new protobuf.Root(), reference.schema, where);
  packages.add(alone.packageName);
  loadImports(root, alone.imports, [...reference.references, ...outer], loaded, packages);
  parseFile(root, reference.schema, where);
}

/** `syntax = "proto2"`, `edition = "2023"`, or proto2 when neither is declared (as protoc reads it). */
function syntaxOf(text: string): string {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  const declared = /^\s*(syntax|edition)\s*=\s*["']([^"']+)["']/m.exec(code);
  return declared ? `${declared[1]} = "${declared[2]}"` : `syntax = "proto2"`;
}
