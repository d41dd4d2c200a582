import type { Database } from "@stream-registry/store";
import { recordChange, writeTransaction } from "@stream-registry/store";
import { toConnection, type ConnectionModel } from "../../src/graphql/connection.ts";
import type { GraphQLContext } from "../../src/graphql/context.ts";
import { routed } from "../../src/graphql/routed.ts";
import { subtreeConnection, type SubtreeArgs } from "../../src/graphql/subtree.ts";
import type { resolvers as registryResolvers } from "../../src/graphql/resolvers/index.ts";
import { WIDGET_KIND } from "./widget-row.ts";

// Steps 2 to 4 of docs/architecture.md's "Adding a kind" for the recipe test's Widget: its types
// (added to schema.graphql's), its resolvers (a look-up, a subtree list, its reference) and its
// writes, each recording a change of its kind. Widgets are kept in memory, by the namespace of the
// registry that owns them: the registries of the test run in its process.

export const WIDGET_SDL = `
"A kind the recipe test adds (docs/architecture.md, Adding a kind)."
type Widget @key(fields: "namespace name") {
  namespace: String!
  name: String!
  colour: String!
  createdAt: DateTime!
}
input WidgetFilter {
  namespace: String
  nameStartsWith: String
}
type WidgetEdge {
  cursor: String!
  node: Widget!
}
type WidgetConnection {
  edges: [WidgetEdge!]!
  nodes: [Widget!]!
  pageInfo: PageInfo!
  totalCount: Int!
  lag: [IndexLag!]!
}
extend type Query {
  widget(name: String!, namespace: String): Widget
  widgets(filter: WidgetFilter, first: Int, after: String, consistency: Consistency = INDEX): WidgetConnection!
}
`;

interface Widget {
  namespace: string;
  name: string;
  colour: string;
  createdAt: Date;
}

const owned = new Map<string, Widget[]>();

/** Makes a widget of the registry that owns `namespace`, recording its change as a write does. */
export async function createWidget(db: Database, namespace: string, name: string, colour: string) {
  const widget = { namespace, name, colour, createdAt: new Date() };
  await writeTransaction(db.prisma, (tx) =>
    recordChange(tx, {
      entityType: WIDGET_KIND.kind,
      entityKey: name,
      action: "created",
      generation: 1,
      actor: "test",
    }),
  );
  owned.set(namespace, [...(owned.get(namespace) ?? []), widget]);
}

function ownWidget(namespace: string, name: string): Widget | null {
  return owned.get(namespace)?.find((widget) => widget.name === name) ?? null;
}

/** A registry's own widgets, by name, after the name `after` (its own cursor). */
async function ownWidgets(
  namespace: string,
  filter: { nameStartsWith?: string | null } | null,
  page: { first: number; after: string | null },
): Promise<ConnectionModel<Widget>> {
  const all = (owned.get(namespace) ?? [])
    .filter((widget) => widget.name.startsWith(filter?.nameStartsWith ?? ""))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const rest = all.filter((widget) => page.after === null || widget.name > page.after);
  return toConnection({
    items: rest.slice(0, page.first).map((node) => ({ node, cursor: node.name })),
    hasNextPage: rest.length > page.first,
    hasPreviousPage: page.after !== null,
    totalCount: async () => all.length,
  });
}

/** The registry's resolvers with the widget's. */
export function withWidgets(resolvers: typeof registryResolvers): typeof registryResolvers {
  return {
    ...resolvers,
    Query: {
      ...resolvers.Query,
      widget: routed(
        (_: unknown, args: { name: string; namespace?: string | null }, context: GraphQLContext) =>
          ownWidget(context.namespace, args.name),
      ),
      widgets: (
        _: unknown,
        args: SubtreeArgs<{ nameStartsWith?: string | null }>,
        context: GraphQLContext,
        info: Parameters<typeof subtreeConnection>[0],
      ) =>
        subtreeConnection(info, context, args, WIDGET_KIND.filter, (filter, page) =>
          ownWidgets(context.namespace, filter, page),
        ),
    },
    Widget: {
      __resolveReference: (ref: { namespace: string; name: string }, context: GraphQLContext) =>
        ownWidget(context.namespace === ref.namespace ? ref.namespace : "", ref.name),
    },
  } as typeof registryResolvers;
}
