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
  if (typeof body !== "object" || body === null) return false;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== "string" || query.length > 100_000) return false;
  let operations: OperationDefinitionNode[];
  try {
    operations = parse(query, { maxTokens: 2_000 }).definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
  } catch {
    return false;
  }
  const operation =
    typeof operationName === "string"
      ? operations.find((o) => o.name?.value === operationName)
      : operations.length === 1
        ? operations[0]
        : undefined;
  return (
    operation?.operation === "mutation" &&
    operation.selectionSet.selections.every(
      (s) =>
        s.kind === Kind.FIELD && ENROLLMENT_FIELDS.has(s.name.value) && (s.directives ?? []).length === 0,
    )
  );
}
