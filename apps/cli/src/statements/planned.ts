import { execute, type Answer } from "../client/execute.ts";
import { USER_ERRORS, type StatementContext } from "./context.ts";

/**
 * Runs a mutation the registry does not have yet under its planned name (docs/architecture.md,
 * "The API's shape"): `<field>(input: <Field>Input!)` returning `{ <selection> userErrors }`.
 * Until the server adds it, execute() refuses it as unsupported without sending it.
 */
export function plannedMutation<T>(
  context: StatementContext,
  statement: string,
  field: string,
  input: Record<string, unknown>,
  selection: string,
): Promise<Answer<T>> {
  const type = `${field[0]!.toUpperCase()}${field.slice(1)}Input`;
  return execute<T>(context, {
    statement,
    root: "Mutation",
    field,
    query: `mutation Srctl${type}($input: ${type}!) { ${field}(input: $input) { ${selection} ${USER_ERRORS} } }`,
    variables: { input },
  });
}
