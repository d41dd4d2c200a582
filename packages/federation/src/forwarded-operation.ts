import {
  Kind,
  print,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionNode,
} from "graphql";

/** One operation for another registry: a GraphQL document and the variables it uses. */
export interface ForwardedOperation {
  query: string;
  variables: Record<string, unknown>;
}

/**
 * The field being resolved (`info`) as an operation of its own, for a registry that owns what it
 * asks: the same field under the same response key, with its arguments and the client's whole
 * selection below it, the fragments that selection spreads and the variables it uses. The other
 * registry's answer for the response key is then the answer for this field, as is.
 */
export function forwardedOperation(info: GraphQLResolveInfo, name: string): ForwardedOperation {
  const fragments = usedFragments(info.fieldNodes, info.fragments);
  const used = new Set<string>();
  for (const node of [...info.fieldNodes, ...fragments]) {
    visit(node, { Variable: (variable) => void used.add(variable.name.value) });
  }
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: info.operation.operation,
        name: { kind: Kind.NAME, value: name },
        variableDefinitions: (info.operation.variableDefinitions ?? []).filter((definition) =>
          used.has(definition.variable.name.value),
        ),
        directives: [],
        selectionSet: { kind: Kind.SELECTION_SET, selections: info.fieldNodes },
      },
      ...fragments,
    ],
  };
  const variables = Object.fromEntries(
    Object.entries(info.variableValues).filter(([variable]) => used.has(variable)),
  );
  return { query: print(document), variables };
}

/** The fragment definitions `selections` spread, directly or through other fragments. */
function usedFragments(
  selections: readonly SelectionNode[],
  all: Record<string, FragmentDefinitionNode>,
): FragmentDefinitionNode[] {
  const found = new Map<string, FragmentDefinitionNode>();
  const pending = [...selections] as (SelectionNode | FragmentDefinitionNode)[];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = all[name];
        if (fragment && !found.has(name)) {
          found.set(name, fragment);
          pending.push(fragment);
        }
      },
    });
  }
  return [...found.values()];
}
