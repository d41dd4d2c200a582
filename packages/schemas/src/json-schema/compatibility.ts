import type { FormatIssue } from "../format-issue.ts";
import { jsonSchemaDifferences } from "./diff.ts";
import { COMPATIBLE, INCOMPATIBLE } from "./differences.ts";
import { loadJsonSchema } from "./load.ts";
import type { JsonNode } from "./model.ts";
import type { JsonParsed } from "./parse.ts";

const loaded = new WeakMap<JsonParsed, JsonNode>();

/**
 * What keeps `reader` from accepting every document `writer` accepted, by Confluent's rules for
 * JSON Schema: the differences from writer to reader that are not among the compatible ones.
 */
export function jsonSchemaIncompatibilities(reader: JsonParsed, writer: JsonParsed): FormatIssue[] {
  const seen = new Set<string>();
  return jsonSchemaDifferences(nodeOf(writer), nodeOf(reader))
    .filter((difference) => !COMPATIBLE.has(difference.type))
    .filter((difference) => {
      const key = `${difference.type} ${difference.path}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((difference) => ({
      rule: difference.type,
      path: difference.path,
      detail: INCOMPATIBLE[difference.type] ?? difference.type.toLowerCase().replace(/_/g, " "),
    }));
}

function nodeOf(parsed: JsonParsed): JsonNode {
  let node = loaded.get(parsed);
  if (!node) loaded.set(parsed, (node = loadJsonSchema(parsed)));
  return node;
}
