import {
  ApiMismatchError,
  RegistryFaultError,
  UnsupportedStatementError,
  UserErrorsError,
  type UserErrorData,
} from "../errors.ts";
import type { Capabilities, RootType } from "./capabilities.ts";
import type { GraphQLClient, GraphQLErrorData } from "./graphql-client.ts";

/** One GraphQL operation made from a statement; `field` is the root field it reads or calls. */
export interface Operation {
  /** The statement as users know it ("CREATE BINDING"), for messages. */
  statement: string;
  root: RootType;
  field: string;
  query: string;
  variables?: Record<string, unknown>;
}

/**
 * A GraphQL error beside usable data (e.g. a child namespace that did not answer), or, code
 * INDEX_LAG, a namespace the registry's discovery index that answered is behind.
 */
export interface Warning {
  code: string;
  message: string;
  namespace?: string;
  /** INDEX_LAG: how far behind the namespace the index is. */
  lag?: { entriesBehind: number; secondsBehind: number; syncedAt: string | null; lastError: string | null };
}

export interface Answer<T> {
  /** The root field's value. */
  value: T;
  /** Every root field the operation read, e.g. an aliased `namespace { path }` beside a list. */
  data: Record<string, unknown>;
  warnings: Warning[];
}

export interface Connection {
  client: GraphQLClient;
  capabilities: Capabilities;
}

/**
 * Runs an operation and sorts its outcome: a missing root field is "unsupported", userErrors and
 * faults that left no value throw, and errors beside a value come back as warnings (a partial result).
 */
export async function execute<T>(connection: Connection, operation: Operation): Promise<Answer<T>> {
  const { client, capabilities } = connection;
  const unsupported = () =>
    new UnsupportedStatementError(client.url, operation.statement, operation.field, operation.root);
  if ((await capabilities.has(operation.root, operation.field)) === false) throw unsupported();

  const response = await client.request<Record<string, unknown>>(operation.query, operation.variables);
  const errors = response.errors ?? [];
  if (errors.some((e) => namesMissingField(e, operation))) throw unsupported();
  const rejected = errors.find((e) => e.extensions?.code === "GRAPHQL_VALIDATION_FAILED");
  if (rejected) {
    // The registry has the field but not the shape srctl sends: a version mismatch, not bad input.
    throw new ApiMismatchError(client.url, operation.statement, rejected.message);
  }

  const value = response.data?.[operation.field];
  if (value === undefined || (value === null && errors.length > 0)) {
    const first = errors[0];
    throw new RegistryFaultError(first?.message ?? "empty response", errorCode(first));
  }
  const userErrors = (value as { userErrors?: UserErrorData[] } | null)?.userErrors;
  if (userErrors?.length) throw new UserErrorsError(userErrors);
  return { value: value as T, data: response.data ?? {}, warnings: errors.map(toWarning) };
}

function namesMissingField(error: GraphQLErrorData, operation: Operation): boolean {
  // graphql-js's validation message; the only sign of a missing field when introspection is off.
  return error.message.startsWith(`Cannot query field "${operation.field}" on type "${operation.root}"`);
}

function errorCode(error: GraphQLErrorData | undefined): string | undefined {
  const code = error?.extensions?.code;
  return typeof code === "string" ? code : undefined;
}

function toWarning(error: GraphQLErrorData): Warning {
  const namespace = error.extensions?.namespace;
  return {
    code: errorCode(error) ?? "ERROR",
    message: error.message,
    ...(typeof namespace === "string" ? { namespace } : {}),
  };
}
