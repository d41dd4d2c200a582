import { ENTITY_KINDS } from "@stream-registry/core";
import {
  getNamedType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";

/**
 * What a parent reads to index a child: a page of its change feed, and the objects its own
 * entries name, as it renders them now. The child's own entries carry no object (their data is
 * the desired state written); the entries of its children's namespaces carry what it indexed.
 */

/** One entry of a registry's change feed. */
export interface FeedEntry {
  seq: string;
  namespace: string;
  entityType: string;
  entityKey: string;
  action: string;
  generation: number;
  actor: string;
  at: string;
  data: unknown;
}

/** How far behind one of its children a registry's index is (the API's IndexLag). */
export interface FeedLag {
  namespace: string;
  entriesBehind: number;
  secondsBehind: number;
  syncedAt: string | null;
  lastError: string | null;
}

/** A registry below one, as the registry directly above it last probed it (the API's DescendantRegistry). */
export interface FeedDescendant {
  path: string;
  url: string;
  health: { status: string; checkedAt: string | null; latencyMs: number | null; lastError: string | null };
}

export interface FeedAnswer {
  registry: { id: string; namespace: string };
  indexLag: FeedLag[];
  /** Every registry below the one that answered, with its health: how a root sees a grandchild. */
  namespace: { descendants: FeedDescendant[] };
  /** The entry the reader indexed last, asked again: a feed without it started over. */
  last?: { edges: { node: Pick<FeedEntry, "seq" | "at" | "entityType" | "entityKey" | "action"> }[] };
  changes: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean };
    edges: { node: FeedEntry }[];
  };
}

/**
 * A page of the feed after `after`, waiting up to `waitMs` for one (a long poll), with who
 * answered it (a feed of another registry is another feed), the entry before `after` again
 * (`check`), and how far behind its own children the index of the registry that answered is.
 */
export const FEED_QUERY = `query IndexFeed($check: Boolean!, $last: String, $after: String, $first: Int!, $waitMs: Int) {
  registry { id namespace }
  indexLag { namespace entriesBehind secondsBehind syncedAt lastError }
  namespace { descendants { path url health { status checkedAt latencyMs lastError } } }
  last: changes(after: $last, first: 1) @include(if: $check) {
    edges { node { seq at entityType entityKey action } }
  }
  changes(after: $after, first: $first, waitMs: $waitMs) {
    totalCount
    pageInfo { hasNextPage }
    edges { node { seq namespace entityType entityKey action generation actor at data } }
  }
}`;

/** The GraphQL types of the kinds the index holds (ENTITY_KINDS), by entity type: "stream": "Stream". */
export const INDEXED_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  ENTITY_KINDS.map((row) => [row.kind, row.typename]),
);

/** The fields no document holds (ENTITY_KINDS' `unindexed`), by GraphQL type: its owner answers them. */
export const UNINDEXED_FIELDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  ENTITY_KINDS.map((row) => [row.typename, row.unindexed]),
);

/**
 * The query for the documents of entities by key: every field of each kind of ENTITY_KINDS that
 * takes no argument and is not another entity (those are rows of their own), nested objects in
 * full, but its unindexed fields. Derived from the schema, so that a field added to the API is
 * indexed with it.
 */
export function documentsQuery(schema: GraphQLSchema): string {
  const fragments = ENTITY_KINDS.map(({ typename: name }) => {
    const type = schema.getType(name);
    if (!isObjectType(type)) throw new Error(`${name} is not an object type of the schema`);
    return `... on ${name} ${selection(type, new Set([name]))}`;
  });
  return `query IndexDocuments($representations: [_Any!]!) {
  _entities(representations: $representations) { __typename ${fragments.join(" ")} }
}`;
}

/** The fields an indexed document holds of `type`, by name. */
function selection(type: GraphQLObjectType, seen: Set<string>): string {
  const fields = Object.values(type.getFields()).flatMap((field) => {
    if (UNINDEXED_FIELDS[type.name]?.includes(field.name)) return [];
    const named = getNamedType(field.type);
    if (field.args.length > 0 || isEntity(named) || isConnection(field)) return [];
    if (isLeafType(named)) return [field.name];
    if (!isObjectType(named) || seen.has(named.name)) return [];
    return [`${field.name} ${selection(named, new Set([...seen, named.name]))}`];
  });
  return `{ ${fields.join(" ")} }`;
}

/** A type other registries resolve by key (`@key`): indexed on its own, never inside another. */
function isEntity(type: ReturnType<typeof getNamedType>): boolean {
  return isObjectType(type) && (type.astNode?.directives ?? []).some((d) => d.name.value === "key");
}

function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  const type = isNonNullType(field.type) ? field.type.ofType : field.type;
  return !isListType(type) && getNamedType(type).name.endsWith("Connection");
}
