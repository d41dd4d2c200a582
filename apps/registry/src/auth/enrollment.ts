import { Kind, parse, type OperationDefinitionNode } from "graphql";

/** What a registry may ask of another without a credential: registering and leaving, nothing else. */
const ENROLLMENT_FIELDS = new Set(["registerChildRegistry", "unregisterChildRegistry", "__typename"]);

/**
 * Whether a request body asks only to register or unregister a child registry: one mutation whose
 * root fields are registerChildRegistry or unregisterChildRegistry (no fragments at the root).
 * Those need no credential: the enrollment token and the child's credential in their input are
 * checked by the service. Anything else, or what does not parse, is not.
 */
export function isEnrollmentOnly(body: unknown): boolean {
  const operation = requestedOperation(body);
  return (
    operation?.operation === "mutation" &&
    operation.selectionSet.selections.every(
      (s) =>
        s.kind === Kind.FIELD && ENROLLMENT_FIELDS.has(s.name.value) && (s.directives ?? []).length === 0,
    )
  );
}

/** What a registry says of itself without a credential: its id and its public keys, as a JWKS. */
const IDENTITY_FIELDS = new Set(["id", "keys", "__typename"]);

/**
 * Whether a request body only asks who this registry is: one query whose one root field is
 * `registry`, selecting only `id`, `keys` and `__typename` (no fragments, no directives, no
 * alias games beyond a field's own name). A parent asks it of a registering child at its URL,
 * before the child trusts the parent's keys (docs/security.md, "Across the tree"); public keys
 * and an id are what any verifier of the registry's tokens may know.
 */
export function isIdentityProbe(body: unknown): boolean {
  const operation = requestedOperation(body);
  const [field, ...more] = operation?.selectionSet.selections ?? [];
  return (
    operation?.operation === "query" &&
    more.length === 0 &&
    field?.kind === Kind.FIELD &&
    field.name.value === "registry" &&
    (field.arguments ?? []).length === 0 &&
    (field.directives ?? []).length === 0 &&
    field.selectionSet !== undefined &&
    field.selectionSet.selections.every(
      (s) => s.kind === Kind.FIELD && IDENTITY_FIELDS.has(s.name.value) && (s.directives ?? []).length === 0,
    )
  );
}

/** The operation a request body asks to run, if it parses (within a few tokens) and names one. */
function requestedOperation(body: unknown): OperationDefinitionNode | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== "string" || query.length > 100_000) return undefined;
  let operations: OperationDefinitionNode[];
  try {
    operations = parse(query, { maxTokens: 2_000 }).definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
  } catch {
    return undefined;
  }
  return typeof operationName === "string"
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
}
