import type { InlineSchema, SchemaSource, SchemaType, Statement } from "../ast.ts";
import { parseJsonValue } from "../config-block.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";

const SCHEMA_TYPES: readonly SchemaType[] = ["AVRO", "JSON", "PROTOBUF"];

/**
 * REGISTER KEY SCHEMA ( body ) [AS type] ON STREAM "s"
 * | REGISTER TYPE SCHEMA "T" ( body ) [AS type] ON STREAM "s".
 */
export function parseRegister(tokens: TokenStream, start: Token): Statement {
  if (tokens.acceptKeyword("KEY")) {
    tokens.expectKeyword("SCHEMA");
    const schema = parseSchemaBody(tokens);
    const schemaType = parseSchemaType(tokens);
    const stream = parseOnStream(tokens);
    return { kind: "registerKeySchema", stream, schema, ...schemaType, span: tokens.spanFrom(start) };
  }
  if (tokens.acceptKeyword("TYPE")) {
    tokens.expectKeyword("SCHEMA");
    const typeName = tokens.expectName("type name").value;
    const schema = parseSchemaBody(tokens);
    const schemaType = parseSchemaType(tokens);
    const stream = parseOnStream(tokens);
    return {
      kind: "registerTypeSchema",
      typeName,
      stream,
      schema,
      ...schemaType,
      span: tokens.spanFrom(start),
    };
  }
  throw tokens.fail();
}

/** `AS AVRO | JSON | PROTOBUF`, or nothing (the property stays absent). */
function parseSchemaType(tokens: TokenStream): { schemaType?: SchemaType } {
  if (!tokens.acceptKeyword("AS")) return {};
  const schemaType = SCHEMA_TYPES.find((type) => tokens.isKeyword(type));
  if (schemaType === undefined) throw tokens.fail();
  tokens.advance();
  return { schemaType };
}

/**
 * `( FILE path )` or `( <JSON schema> )`. The path may be bare (`FILE widget.avsc`, as in the seed)
 * or quoted (for paths with spaces); it is kept as written for the caller to resolve.
 */
function parseSchemaBody(tokens: TokenStream): SchemaSource {
  tokens.expectPunct("(");
  const first = tokens.peek();
  let schema: SchemaSource;
  if (tokens.isKeyword("FILE")) {
    tokens.advanceIntoPath();
    const path = tokens.peek();
    if (path.kind !== "path" && path.kind !== "string") {
      tokens.expecting("a file path");
      throw tokens.fail();
    }
    tokens.advance();
    schema = { kind: "file", path: path.value, span: tokens.spanFrom(first) };
  } else if (first.kind === "string" || tokens.isPunct("{") || tokens.isPunct("[")) {
    // Only strings, objects and arrays get here, so the value is an InlineSchema.
    const value = parseJsonValue(tokens) as InlineSchema;
    schema = { kind: "inline", schema: value, span: tokens.spanFrom(first) };
  } else {
    tokens.expecting("an inline JSON schema");
    throw tokens.fail();
  }
  tokens.expectPunct(")");
  return schema;
}

function parseOnStream(tokens: TokenStream): string {
  tokens.expectKeyword("ON");
  tokens.expectKeyword("STREAM");
  return tokens.expectName("stream name").value;
}
