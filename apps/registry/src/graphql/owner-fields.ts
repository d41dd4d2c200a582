import DataLoader from "dataloader";
import { ErrorCode, isErrorCode, RegistryError } from "@stream-registry/core";
import { forwardedEntityField, remoteValue } from "@stream-registry/federation";
import type { ChildRoute } from "@stream-registry/store";
import type { FieldNode, GraphQLResolveInfo } from "graphql";
import type { GraphQLContext } from "./context.ts";
import type { Loaders } from "./loaders.ts";
import { askEntities } from "./routed-entities.ts";

/** An object of the index by its key: its absolute namespace and its name. */
export interface OwnedKey {
  namespace: string;
  name: string;
  /** A kind keyed by fqn (a binding): its key, which its owner resolves it by. */
  fqn?: string;
}

type FieldLoader = DataLoader<OwnedKey, unknown, string>;

/** Per request (by its loaders, made per request), per field of the document: the loader of that field. */
const fieldLoaders = new WeakMap<Loaders, Map<FieldNode, FieldLoader>>();

/**
 * A field of an object listed from the discovery index that the index does not hold (a stream's
 * schemas): asked of the registry that owns the object, live. The objects of a page that select
 * the same field go to each child in one `_entities` request, all children at once; a child routes
 * those of its own children on. A child that cannot be reached makes the field null with
 * CHILD_UNAVAILABLE naming its namespace, and an error the owner gave comes back as its own.
 */
export function ownerAnswered(
  key: OwnedKey,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  let byField = fieldLoaders.get(context.loaders);
  if (!byField) fieldLoaders.set(context.loaders, (byField = new Map()));
  const node = info.fieldNodes[0]!;
  let loader = byField.get(node);
  if (!loader) {
    loader = new DataLoader((keys) => askOwners(keys, context, info), {
      cacheKeyFn: (k) => JSON.stringify([k.namespace, k.name, k.fqn]),
    });
    byField.set(node, loader);
  }
  return loader.load(key);
}

async function askOwners(
  keys: readonly OwnedKey[],
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<unknown[]> {
  const children = context.services.children;
  const routes = new Map((await children.routes()).map((route) => [route.name, route]));
  const groups = new Map<ChildRoute, number[]>();
  const results: unknown[] = keys.map(
    (key) => new RegistryError(ErrorCode.NOT_FOUND, `no child registry owns namespace ${key.namespace} now`),
  );
  keys.forEach((key, index) => {
    const route = routes.get(children.childNameFor(key.namespace) ?? "");
    if (route) groups.set(route, [...(groups.get(route) ?? []), index]);
  });
  await context.rateLimit.chargeChildren(groups.size);
  await Promise.all(
    [...groups].map(async ([route, indexes]) => {
      const representations = indexes.map((index) => ({ __typename: info.parentType.name, ...keys[index]! }));
      const values = await ownerValues(route, representations, context, info);
      indexes.forEach((index, at) => (results[index] = values[at]));
    }),
  );
  return results;
}

/** The field's value for each representation, as `route` (or a registry below it) answered it. */
async function ownerValues(
  route: ChildRoute,
  representations: { namespace: string }[],
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<unknown[]> {
  const childPath = context.services.children.pathOf(route.name);
  const answer = await askEntities(
    route,
    forwardedEntityField(info, representations),
    representations,
    context,
  );
  if ("failed" in answer) {
    const unavailable = new RegistryError(
      ErrorCode.CHILD_UNAVAILABLE,
      `the child registry that owns ${childPath} cannot be reached: ${answer.failed}`,
      [],
      { namespace: childPath },
    );
    return representations.map(() => unavailable);
  }
  const { entities, errors } = answer;
  const responseKey = info.fieldNodes[0]!.alias?.value ?? info.fieldName;
  return entities.map((entity, index) => {
    const value = entity?.[responseKey];
    if (value !== null && value !== undefined) return remoteValue(value, info.returnType);
    // Null, with the owner's error for this entity when it gave one: at its index, or (a registry
    // further down left it out) naming its namespace or one above it.
    const { namespace } = representations[index]!;
    const error = errors.find((e) => {
      if (e.path?.[0] !== "_entities") return false;
      if (e.path.length > 1) return e.path[1] === index;
      const where = e.extensions?.namespace;
      return typeof where === "string" && (namespace === where || namespace.startsWith(`${where}/`));
    });
    if (!error) return value ?? null;
    const { code, namespace: where } = error.extensions ?? {};
    return new RegistryError(isErrorCode(code) ? code : ErrorCode.INTERNAL_SERVER_ERROR, error.message, [], {
      namespace: typeof where === "string" ? where : namespace,
    });
  });
}
