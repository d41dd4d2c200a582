import {
  ENTITY_KINDS,
  ErrorCode,
  formatFqn,
  namespacePath,
  RegistryError,
  type EntityKind,
} from "@stream-registry/core";
import type { IndexedEntry, IndexKey } from "@stream-registry/store";
import {
  defaultFieldResolver,
  getNamedType,
  isLeafType,
  isObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from "graphql";
import { accessOf } from "./authorize.ts";
import type { GraphQLContext } from "./context.ts";
import { ownerAnswered, type OwnedKey } from "./owner-fields.ts";

/** Marks an object the discovery index answered: its fields are the document its owner gave. */
const INDEXED = Symbol("stream-registry.indexed");

interface IndexedObject {
  [INDEXED]: { key: IndexKey; doc: Record<string, unknown> };
}

function isIndexed(value: unknown): value is IndexedObject {
  return typeof value === "object" && value !== null && INDEXED in value;
}

/** A row of the index as a value of its type (Stream, Cluster, Binding). */
export function indexedObject(entry: IndexedEntry): unknown {
  const { doc, ...key } = entry;
  return { [INDEXED]: { key, doc } } satisfies IndexedObject;
}

/** The absolute path of a namespace below this registry's (`below`: "us-reg1-xyz/dc1"). */
export function absolutePath(own: string, below: string): string {
  return below.split("/").reduce((path, segment) => namespacePath(segment, path), own);
}

type Relation = (
  key: IndexKey,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) => unknown;

/**
 * The fields of an indexed object that its document does not answer, by code: the other entities
 * it refers to, which are rows of the index of their own (by GraphQL type). Where it is and its
 * unindexed fields are every kind's alike (relationsOf).
 */
const RELATIONS: Record<string, Record<string, Relation>> = {
  Stream: {
    bindings: (key, _, context) => bindingsOf(context, "stream", key),
    defaultBinding: async (key, _, context) => {
      const binding = (await indexedBindings(context, "stream", key)).find((b) => b.isDefault);
      return binding ? indexedObject(binding) : null;
    },
    effectiveConfig: async (key, { cluster }, context) => {
      const bindings = await indexedBindings(context, "stream", key);
      const binding = bindings.find((b) => (cluster ? b.cluster === cluster : b.isDefault));
      if (!binding) {
        const where = cluster ? `no binding on cluster "${String(cluster)}"` : "no bindings";
        throw new RegistryError(
          ErrorCode.NOT_FOUND,
          `stream "${key.name}" has ${where}`,
          cluster ? ["cluster"] : [],
        );
      }
      return nested(binding, binding.doc.effectiveConfig);
    },
  },
  Cluster: {
    // A cluster reached through a binding of a stream prefix shows no other stream's bindings.
    bindings: async (key, _, context) => {
      const access = await accessOf(context);
      return (await indexedBindings(context, "cluster", key))
        .filter((binding) => access.readsDocument(binding.namespace, binding.name))
        .map(indexedObject);
    },
  },
  Binding: {
    stream: (key, _, context) =>
      referred(context, { kind: "stream", namespace: key.namespace, name: key.name, cluster: "" }),
    cluster: (key, _, context) =>
      referred(context, { kind: "cluster", namespace: key.namespace, name: key.cluster, cluster: "" }),
  },
};

/**
 * Every field of a kind's indexed object not answered from its document: where it is (its
 * namespace, or its fqn, named by the path the row is under now), its unindexed fields (its
 * owner's, live) and its RELATIONS.
 */
function relationsOf(kind: EntityKind): Record<string, Relation> {
  const where: Record<string, Relation> =
    kind.key === "fqn"
      ? {
          fqn: (key, _, { namespace }) =>
            formatFqn(absolutePath(namespace, key.namespace), key.cluster, key.name),
        }
      : { namespace: (key, _, { namespace }) => absolutePath(namespace, key.namespace) };
  const owners: Relation = (key, _, context, info) =>
    ownerAnswered(ownedKey(context, key, kind), context, info);
  const unindexed = Object.fromEntries(kind.unindexed.map((field) => [field, owners]));
  return { ...where, ...unindexed, ...RELATIONS[kind.typename] };
}

/** relationsOf each kind of ENTITY_KINDS, by its GraphQL type. */
function relationsByType(): Map<string, Record<string, Relation>> {
  return new Map(ENTITY_KINDS.map((kind: EntityKind) => [kind.typename, relationsOf(kind)]));
}

/**
 * The fields of an indexed type that are not answered from its document (by a relation): a field
 * with arguments must be one of them, as a document holds one value whatever the arguments.
 */
export function fieldsApartFromDocument(typeName: string): ReadonlySet<string> {
  return new Set(Object.keys(relationsByType().get(typeName) ?? {}));
}

/**
 * An index row's key as its owner knows it: its absolute namespace and name, and for a kind keyed
 * by fqn (a binding) the fqn its owner resolves it by.
 */
function ownedKey(context: GraphQLContext, key: IndexKey, kind: EntityKind): OwnedKey {
  const namespace = absolutePath(context.namespace, key.namespace);
  if (kind.key !== "fqn") return { namespace, name: key.name };
  return { namespace, name: key.name, fqn: formatFqn(namespace, key.cluster, key.name) };
}

/**
 * Makes every field of every object type resolve an indexed object from its document (nested
 * objects too) or by its relation, and anything else as before.
 */
export function serveIndexed(schema: GraphQLSchema): GraphQLSchema {
  const relations = relationsByType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const own = field.resolve ?? defaultFieldResolver;
      const relation = relations.get(type.name)?.[field.name];
      field.resolve = (source, args, context: GraphQLContext, info: GraphQLResolveInfo) => {
        if (!isIndexed(source)) return own(source, args, context, info);
        const { key, doc } = source[INDEXED];
        if (relation) return relation(key, args, context, info);
        const value = doc[field.name];
        return isLeafType(getNamedType(field.type)) ? value : nestedValue(key, value);
      };
    }
  }
  return schema;
}

function nested(entry: IndexedEntry, value: unknown): unknown {
  const { doc: _doc, ...key } = entry;
  return nestedValue(key, value);
}

function nestedValue(key: IndexKey, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((item) => nestedValue(key, item));
  return { [INDEXED]: { key, doc: value as Record<string, unknown> } } satisfies IndexedObject;
}

function indexedBindings(
  context: GraphQLContext,
  of: "stream" | "cluster",
  key: IndexKey,
): Promise<IndexedEntry[]> {
  const loader =
    of === "stream" ? context.loaders.indexedBindingsOfStream : context.loaders.indexedBindingsOfCluster;
  return loader.load({ namespace: key.namespace, name: key.name });
}

async function bindingsOf(
  context: GraphQLContext,
  of: "stream" | "cluster",
  key: IndexKey,
): Promise<unknown[]> {
  return (await indexedBindings(context, of, key)).map(indexedObject);
}

async function referred(context: GraphQLContext, key: IndexKey): Promise<unknown> {
  const entry = await context.loaders.indexedEntry.load(key);
  return entry ? indexedObject(entry) : null;
}
