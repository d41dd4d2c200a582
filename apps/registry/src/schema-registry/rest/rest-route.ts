import type { RegisteredSchema, Role, SubjectVersion } from "@stream-registry/core";
import type { SchemaRegistry } from "../schema-registry.ts";

/** What a route's handler is given: path parameters decoded, the query, the parsed body. */
export interface RouteCall {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  /** Who the change log names. */
  actor: string;
  registry: SchemaRegistry;
}

/** One endpoint of the REST API: thin, it parses, calls the registry and shapes Confluent's answer. */
export interface Route {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Segments after /schema-registry; ":name" segments are parameters. */
  path: string;
  /** The role it takes on the registry's namespace; null: any authenticated caller. */
  role: Role | null;
  /** What it does, for a refusal: "registering schemas". */
  doing: string;
  /** Whether it reads a JSON body. */
  body?: boolean;
  handle(call: RouteCall): Promise<unknown>;
}

/** An answer sent as it is, not as JSON (a schema's own text: GET .../schema). */
export class RawText {
  constructor(readonly text: string) {}
}

/** A schema as Confluent shows it: schemaType left out for AVRO, references when there are none. */
export function schemaJson(schema: RegisteredSchema): Record<string, unknown> {
  return {
    ...(schema.schemaType !== "AVRO" && { schemaType: schema.schemaType }),
    ...(schema.references.length > 0 && { references: schema.references }),
    schema: schema.schema,
  };
}

/** A subject's version as Confluent shows it. */
export function versionJson(version: SubjectVersion): Record<string, unknown> {
  return { subject: version.subject, version: version.version, id: version.id, ...schemaJson(version) };
}
