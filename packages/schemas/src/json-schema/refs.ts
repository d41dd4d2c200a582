import { isPlainObject } from "../stable-json.ts";
import type { JsonDocument } from "./parse.ts";

/** A place in one of the documents a schema is made of: the main one or a reference. */
export interface Located {
  readonly document: JsonDocument;
  readonly schema: unknown;
}

/**
 * Resolves `$ref`s the way the registry's references mean them: a reference's name (or its $id,
 * or either resolved against the referring document's $id) picks the document, the fragment is a
 * JSON pointer into it or a plain-name anchor.
 */
export class RefResolver {
  private readonly byName = new Map<string, JsonDocument>();

  constructor(
    readonly root: JsonDocument,
    references: readonly JsonDocument[],
  ) {
    for (const document of [root, ...references]) {
      const id = idOf(document.schema);
      if (document.name !== "") this.byName.set(document.name, document);
      if (id !== undefined) this.byName.set(stripFragment(id), document);
    }
  }

  resolve(ref: string, from: JsonDocument): Located | undefined {
    const hash = ref.indexOf("#");
    const address = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? "" : ref.slice(hash + 1);
    const document = address === "" ? from : this.document(address, from);
    if (!document) return undefined;
    const schema =
      fragment.startsWith("/") || fragment === ""
        ? pointer(document.schema, fragment)
        : anchor(document.schema, fragment);
    return schema === undefined ? undefined : { document, schema };
  }

  private document(address: string, from: JsonDocument): JsonDocument | undefined {
    const direct = this.byName.get(address);
    if (direct) return direct;
    const base = idOf(from.schema);
    if (base === undefined) return undefined;
    try {
      return this.byName.get(new URL(address, base).toString());
    } catch {
      return undefined;
    }
  }
}

function idOf(schema: unknown): string | undefined {
  if (!isPlainObject(schema)) return undefined;
  const id = schema["$id"] ?? schema["id"];
  return typeof id === "string" ? id : undefined;
}

function stripFragment(id: string): string {
  return id.endsWith("#") ? id.slice(0, -1) : id;
}

function pointer(schema: unknown, fragment: string): unknown {
  let value = schema;
  for (const token of fragment.split("/").slice(1)) {
    const key = decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isPlainObject(value) && !Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** `#name`: a subschema whose `$anchor` is name, or whose (draft 4-7) `$id`/`id` is `#name`. */
function anchor(schema: unknown, name: string): unknown {
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = anchor(item, name);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isPlainObject(schema)) return undefined;
  if (schema["$anchor"] === name || schema["$id"] === `#${name}` || schema["id"] === `#${name}`)
    return schema;
  for (const value of Object.values(schema)) {
    const found = anchor(value, name);
    if (found !== undefined) return found;
  }
  return undefined;
}
