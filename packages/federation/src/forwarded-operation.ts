import {
  Kind,
  parse,
  print,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type OperationDefinitionNode,
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
 * selection below it. The other registry's answer for the response key is then the answer for
 * this field, as is.
 */
export function forwardedOperation(info: GraphQLResolveInfo, name: string): ForwardedOperation {
  // A document's nodes are the same objects at every request that sends its text (the server keeps
  // parsed documents), so its forwarded text is printed once: only the variables' values differ.
  const [first] = info.fieldNodes;
  const kept = first && printed.get(first);
  if (kept?.name === name && sameNodes(kept.fieldNodes, info.fieldNodes)) {
    return { query: kept.query, variables: pick(info.variableValues, kept.variables) };
  }
  const { query, variables } = printWithClientContext(info, {
    kind: Kind.OPERATION_DEFINITION,
    operation: info.operation.operation,
    name: { kind: Kind.NAME, value: name },
    variableDefinitions: [],
    directives: [],
    selectionSet: { kind: Kind.SELECTION_SET, selections: info.fieldNodes },
  });
  if (first) printed.set(first, { name, fieldNodes: [...info.fieldNodes], query, variables });
  return { query, variables: pick(info.variableValues, variables) };
}

/** The text forwardedOperation printed for a field, by its first node, and the variables it takes. */
const printed = new WeakMap<
  FieldNode,
  { name: string; fieldNodes: readonly FieldNode[]; query: string; variables: string[] }
>();

const sameNodes = (a: readonly FieldNode[], b: readonly FieldNode[]) =>
  a.length === b.length && a.every((node, i) => node === b[i]);

function pick(values: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => name in values).map((name) => [name, values[name]]));
}

/**
 * The `_entities` field being resolved (`info`) for the representations a child registry owns:
 * the client's selection, with `__typename` (the union's members are told apart by it), and the
 * representations given as `$subtreeRepresentations`.
 */
export function forwardedEntities(info: GraphQLResolveInfo, representations: unknown[]): ForwardedOperation {
  const variable = {
    kind: Kind.VARIABLE,
    name: { kind: Kind.NAME, value: "subtreeRepresentations" },
  } as const;
  const fields = info.fieldNodes.map((field) => ({
    ...field,
    arguments: [
      ...(field.arguments ?? []).filter((argument) => argument.name.value !== "representations"),
      { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "representations" }, value: variable },
    ],
    selectionSet: {
      kind: Kind.SELECTION_SET,
      selections: [
        { kind: Kind.FIELD, name: { kind: Kind.NAME, value: "__typename" } },
        ...(field.selectionSet?.selections ?? []),
      ],
    },
  })) as FieldNode[];
  const [definition] = parse(`query Q($subtreeRepresentations: [_Any!]!) { __typename }`).definitions as [
    OperationDefinitionNode,
  ];
  const forwarded = withClientContext(info, {
    ...definition,
    name: { kind: Kind.NAME, value: "Forwarded_entities" },
    selectionSet: { kind: Kind.SELECTION_SET, selections: fields },
  });
  return {
    query: forwarded.query,
    variables: { ...forwarded.variables, subtreeRepresentations: representations },
  };
}

/**
 * The field being resolved (`info`) on entities a child registry owns, as that child's `_entities`
 * for the representations given as `$subtreeRepresentations`: `... on <the field's parent type>`
 * with the field as the client selected it. Each entity's value under the field's response key is
 * the field's value for that entity.
 */
export function forwardedEntityField(
  info: GraphQLResolveInfo,
  representations: unknown[],
): ForwardedOperation {
  const template = parse(`query Forwarded_${info.fieldName}($subtreeRepresentations: [_Any!]!) {
    _entities(representations: $subtreeRepresentations) { __typename ... on ${info.parentType.name} { __typename } }
  }`);
  const operation = visit(template.definitions[0] as OperationDefinitionNode, {
    InlineFragment: (fragment) => ({
      ...fragment,
      selectionSet: { ...fragment.selectionSet, selections: info.fieldNodes },
    }),
  });
  const forwarded = withClientContext(info, operation);
  return {
    query: forwarded.query,
    variables: { ...forwarded.variables, subtreeRepresentations: representations },
  };
}

/**
 * A page of the connection field being resolved (`info`), as its own query for a child registry:
 * `page: <field>(filter: $subtreeFilter, first: $subtreeFirst, after: $subtreeAfter)` with the
 * total, whether there is more, and each edge's cursor and node, the node selected as the client
 * selected it under `nodes` and `edges { node }` together.
 */
export function childPageOperation(
  info: GraphQLResolveInfo,
  filterType: string,
  page: { filter: unknown; first: number; after: string | null },
): ForwardedOperation {
  const template = parse(`query Subtree_${info.fieldName}(
      $subtreeFilter: ${filterType}, $subtreeFirst: Int, $subtreeAfter: String) {
    page: ${info.fieldName}(filter: $subtreeFilter, first: $subtreeFirst, after: $subtreeAfter, consistency: LIVE) {
      totalCount pageInfo { hasNextPage } edges { cursor node { __typename } }
    }
  }`);
  const nodes = nodeSelections(info.fieldNodes, info.fragments);
  const operation = visit(template.definitions[0] as OperationDefinitionNode, {
    Field(field) {
      if (field.name.value !== "node" || !field.selectionSet) return undefined;
      return {
        ...field,
        selectionSet: { ...field.selectionSet, selections: [...field.selectionSet.selections, ...nodes] },
      };
    },
  });
  const forwarded = withClientContext(info, operation);
  return {
    query: forwarded.query,
    variables: {
      ...forwarded.variables,
      subtreeFilter: page.filter,
      subtreeFirst: page.first,
      subtreeAfter: page.after,
    },
  };
}

/** The selections below a connection's `nodes` and `edges { node }`, through the client's fragments. */
function nodeSelections(
  connections: readonly FieldNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): SelectionNode[] {
  const found: SelectionNode[] = [];
  const fieldsOf = (selections: readonly SelectionNode[]): FieldNode[] =>
    selections.flatMap((selection) => {
      if (selection.kind === Kind.FIELD) return [selection];
      if (selection.kind === Kind.INLINE_FRAGMENT) return fieldsOf(selection.selectionSet.selections);
      const fragment = fragments[selection.name.value];
      return fragment ? fieldsOf(fragment.selectionSet.selections) : [];
    });
  for (const connection of connections) {
    for (const field of fieldsOf(connection.selectionSet?.selections ?? [])) {
      if (field.name.value === "nodes") found.push(...(field.selectionSet?.selections ?? []));
      if (field.name.value !== "edges") continue;
      for (const edgeField of fieldsOf(field.selectionSet?.selections ?? [])) {
        if (edgeField.name.value === "node") found.push(...(edgeField.selectionSet?.selections ?? []));
      }
    }
  }
  return found;
}

/**
 * `operation` with what its selections take from the client's: the fragments they spread (directly
 * or through others) and the definitions and values of the client's variables they use.
 */
function withClientContext(info: GraphQLResolveInfo, operation: OperationDefinitionNode): ForwardedOperation {
  const { query, variables } = printWithClientContext(info, operation);
  return { query, variables: pick(info.variableValues, variables) };
}

/** withClientContext's text, and the names of the client's variables it takes. */
function printWithClientContext(
  info: GraphQLResolveInfo,
  operation: OperationDefinitionNode,
): { query: string; variables: string[] } {
  const fragments = usedFragments(operation.selectionSet.selections, info.fragments);
  const own = new Set(
    (operation.variableDefinitions ?? []).map((definition) => definition.variable.name.value),
  );
  const used = new Set<string>();
  for (const node of [operation.selectionSet, ...fragments]) {
    visit(node, { Variable: (variable) => void used.add(variable.name.value) });
  }
  const clients = (info.operation.variableDefinitions ?? []).filter(
    (definition) => used.has(definition.variable.name.value) && !own.has(definition.variable.name.value),
  );
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      { ...operation, variableDefinitions: [...(operation.variableDefinitions ?? []), ...clients] },
      ...fragments,
    ],
  };
  return { query: print(document), variables: clients.map((definition) => definition.variable.name.value) };
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
