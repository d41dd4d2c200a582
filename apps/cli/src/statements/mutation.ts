import { execute, type Answer } from "../client/execute.ts";
import { USER_ERRORS, type StatementContext } from "./context.ts";

/**
 * Runs the registry mutation `<field>(input: <Field>Input!)`, selecting `{ <selection> userErrors }`,
 * as an operation named `Srctl<Field>`. Every mutation has this shape, planned ones included
 * (docs/architecture.md, "The API's shape"), some with an input type shared by several
 * (`inputType`, e.g. pauseStreamSource's StreamSourceRefInput): until the server adds one,
 * execute() refuses it as unsupported without sending it.
 */
export function runMutation<T>(
  context: StatementContext,
  statement: string,
  field: string,
  input: Record<string, unknown>,
  selection: string,
  inputType?: string,
): Promise<Answer<T>> {
  const name = `${field[0]!.toUpperCase()}${field.slice(1)}`;
  return execute<T>(context, {
    statement,
    root: "Mutation",
    field,
    query: `mutation Srctl${name}($input: ${inputType ?? `${name}Input`}!) { ${field}(input: $input) { ${selection} ${USER_ERRORS} } }`,
    variables: { input },
  });
}
