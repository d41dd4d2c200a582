import type { GraphQLClient } from "./graphql-client.ts";

/**
 * Runs one mutation and returns its payload, failing the test when the mutation did not do what
 * was asked: GraphQL errors, or any `userErrors` in the payload (shown in the thrown error). For
 * setup and for steps that must succeed; a test about a refusal reads `userErrors` itself.
 * The document must select exactly one mutation field, and `userErrors` in it, or nobody could
 * tell a refusal from a success. `headers` go with the request (e.g. `x-actor`).
 */
export async function mutate<P = Record<string, unknown>>(
  client: GraphQLClient,
  document: string,
  variables?: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<P> {
  const response = await client.request<Record<string, unknown>>(document, variables, headers);
  const asked = `${operationName(document)} with ${JSON.stringify(variables ?? {})}`;
  if (response.errors?.length) {
    throw new Error(
      `${asked} failed (HTTP ${response.status}):\n${JSON.stringify(response.errors, null, 2)}`,
    );
  }
  const fields = Object.entries(response.data ?? {});
  const [field] = fields;
  if (fields.length !== 1 || !field)
    throw new Error(`mutate() runs one mutation, but ${asked} selected ${fields.length} fields`);
  const [name, payload] = field;
  const userErrors = (payload as { userErrors?: unknown[] } | null)?.userErrors;
  if (!Array.isArray(userErrors))
    throw new Error(`${name} has no userErrors in its selection (or no payload): select them for mutate()`);
  if (userErrors.length)
    throw new Error(`${asked} returned userErrors:\n${JSON.stringify(userErrors, null, 2)}`);
  return payload as P;
}

/** The first field the document names after `mutation`, for messages. */
function operationName(document: string): string {
  return /\{\s*(\w+)/.exec(document)?.[1] ?? "mutation";
}
