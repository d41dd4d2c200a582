import type { RegistryClient } from "@stream-registry/testkit";

/** An Avro record named `name` with string fields. */
export const record = (name: string, fields: string[], extra: object[] = []) =>
  JSON.stringify({
    type: "record",
    name,
    namespace: "com.acme",
    fields: [...fields.map((f) => ({ name: f, type: "string" })), ...extra],
  });

export interface UserErrorShape {
  code: string;
  field: string[];
  message: string;
  messages: string[] | null;
}
export interface Registered {
  schema: {
    subject: string;
    version: number;
    id: number;
    schemaType: string;
    schema: string;
    references: { name: string; subject: string; version: number }[];
  } | null;
  userErrors: UserErrorShape[];
}

const USER_ERRORS = "userErrors { code field message messages }";
const VERSION = "subject version id schemaType schema references { name subject version }";
export const SUBJECTS = `subjectNameStrategy
  keySchema { subject typeName compatibility versions { version id } }
  typeSchemas { subject typeName compatibility versions { version id schema } }`;

export async function registerKey(r: RegistryClient, input: Record<string, unknown>): Promise<Registered> {
  const answer = await r.query<{ registerKeySchema: Registered }>(
    `mutation ($input: RegisterKeySchemaInput!) { registerKeySchema(input: $input) { schema { ${VERSION} } ${USER_ERRORS} } }`,
    { input },
  );
  return answer.registerKeySchema;
}

export async function registerType(r: RegistryClient, input: Record<string, unknown>): Promise<Registered> {
  const answer = await r.query<{ registerTypeSchema: Registered }>(
    `mutation ($input: RegisterTypeSchemaInput!) { registerTypeSchema(input: $input) { schema { ${VERSION} } ${USER_ERRORS} } }`,
    { input },
  );
  return answer.registerTypeSchema;
}

export async function createStream(r: RegistryClient, name: string, strategy?: string, namespace?: string) {
  const config = strategy ? { schemas: { "subject.name.strategy": strategy } } : undefined;
  const answer = await r.query<{ createStream: { userErrors: UserErrorShape[] } }>(
    `mutation ($input: CreateStreamInput!) { createStream(input: $input) { stream { name } ${USER_ERRORS} } }`,
    { input: { name, config, namespace } },
  );
  return answer.createStream.userErrors;
}

export interface Deleted {
  subject: string | null;
  versions: number[] | null;
  userErrors: UserErrorShape[];
}

export async function deleteSchema(
  r: RegistryClient,
  what: "Version" | "Subject",
  input: Record<string, unknown>,
): Promise<Deleted> {
  const field = `deleteSchema${what}`;
  const answer = await r.query<Record<string, Deleted>>(
    `mutation ($input: DeleteSchema${what}Input!) { ${field}(input: $input) { subject versions ${USER_ERRORS} } }`,
    { input },
  );
  return answer[field]!;
}

export async function setLevel(r: RegistryClient, input: Record<string, unknown>) {
  const answer = await r.query<{
    setSchemaCompatibility: { subject: string | null; level: string | null; userErrors: UserErrorShape[] };
  }>(
    `mutation ($input: SetSchemaCompatibilityInput!) { setSchemaCompatibility(input: $input) { subject level ${USER_ERRORS} } }`,
    { input },
  );
  return answer.setSchemaCompatibility;
}

export const CHECK = `query ($stream: String, $typeName: String, $subject: String, $schema: String!, $version: Int) {
  checkSchemaCompatibility(stream: $stream, typeName: $typeName, subject: $subject, schema: $schema, version: $version) {
    subject compatible messages } }`;
