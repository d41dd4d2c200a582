import { GraphQLError, type ValidationRule } from "graphql";

/**
 * Refuses an operation whose type the schema lacks (this registry has no subscriptions). graphql-js
 * 16 only finds out while executing, and reports it as an error of no field, which looked internal.
 */
export const knownOperationTypesRule: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (context.getSchema().getRootType(node.operation)) return;
    context.reportError(
      new GraphQLError(`this registry has no ${node.operation} operations; use query or mutation`, {
        nodes: node,
      }),
    );
  },
});
