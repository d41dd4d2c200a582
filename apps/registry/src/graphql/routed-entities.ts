import { ErrorCode, parseFqn } from "@stream-registry/core";
import {
  forwardedEntities,
  remoteValue,
  RemoteRegistryError,
  type ForwardedOperation,
  type RemoteGraphQLError,
} from "@stream-registry/federation";
import type { ChildRoute } from "@stream-registry/store";
import { getNamedType, type GraphQLResolveInfo, type GraphQLSchema } from "graphql";
import { childErrorEntry } from "./child-errors.ts";
import type { GraphQLContext } from "./context.ts";
import { askChild, MAX_HOPS } from "./child-calls.ts";

type Representation = Record<string, unknown>;

/**
 * `_entities` across the tree: a representation of an entity in a namespace below this registry's
 * (a Stream or Cluster by its namespace, a Binding by its fqn, a Namespace by its path) is resolved
 * by the child registry that owns it; the representations of one child go in one `_entities`
 * request, all children at once. The others are this registry's own, resolved as before (null for
 * a namespace outside its subtree).
 */
export function routeEntities(schema: GraphQLSchema): GraphQLSchema {
  const field = schema.getQueryType()?.getFields()._entities;
  if (!field?.resolve) return schema;
  const own = field.resolve;
  field.resolve = async (
    source,
    args: { representations: Representation[] },
    context: GraphQLContext,
    info,
  ) => {
    const { representations } = args;
    const routes = context.hops >= MAX_HOPS ? [] : await context.services.children.routes();
    const byName = new Map(routes.map((route) => [route.name, route]));
    const groups = new Map<ChildRoute, number[]>();
    const local: number[] = [];
    representations.forEach((representation, index) => {
      const name = context.services.children.childNameFor(namespaceOf(representation));
      const route = name === null ? undefined : byName.get(name);
      if (!route) return void local.push(index);
      groups.set(route, [...(groups.get(route) ?? []), index]);
    });
    // The children about to be asked, charged to the caller's rate limit before any call goes out.
    await context.rateLimit.chargeChildren(groups.size);
    const results: unknown[] = new Array(representations.length).fill(null);
    const pick = (indexes: number[]) => indexes.map((index) => representations[index]);
    await Promise.all([
      (async () => {
        if (local.length === 0) return;
        const resolved = (await own(
          source,
          { ...args, representations: pick(local) },
          context,
          info,
        )) as unknown[];
        local.forEach((index, at) => (results[index] = resolved[at]));
      })(),
      ...[...groups].map(async ([route, indexes]) => {
        const resolved = await childEntities(route, pick(indexes), context, info);
        indexes.forEach((index, at) => (results[index] = resolved[at]));
      }),
    ]);
    return results;
  };
  return schema;
}

/** The namespace a representation names; undefined when it names none (the local resolver refuses it). */
function namespaceOf(representation: Representation): string | undefined {
  const { namespace, path, fqn } = representation;
  if (typeof namespace === "string") return namespace;
  if (typeof path === "string") return path;
  if (typeof fqn !== "string") return undefined;
  try {
    return parseFqn(fqn).namespace;
  } catch {
    return undefined;
  }
}

async function childEntities(
  route: ChildRoute,
  representations: unknown[],
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<unknown[]> {
  const path = context.services.children.pathOf(route.name);
  const answer = await askEntities(route, forwardedEntities(info, representations), representations, context);
  if ("failed" in answer) {
    // Its entities are null, with an error naming the namespace: the others' stand.
    context.partial.push({
      message: `the child registry that owns ${path} cannot be reached, and its entities are null: ${answer.failed}`,
      path: [info.path.key],
      extensions: { code: ErrorCode.CHILD_UNAVAILABLE, namespace: path },
    });
    return representations.map(() => null);
  }
  // Entities with errors beside them (a grandchild's left null) keep them.
  for (const error of answer.errors) context.partial.push(childErrorEntry(error, path, info));
  return answer.entities.map((entity) => remoteValue(entity, getNamedType(info.returnType)));
}

/**
 * A child's answer to an `_entities` operation for `representations`: an entity (or null) for each,
 * with the errors it gave beside them, or why there is none (it could not be reached, or did not
 * answer with as many entities).
 */
export async function askEntities(
  route: ChildRoute,
  operation: ForwardedOperation,
  representations: unknown[],
  context: GraphQLContext,
): Promise<
  { entities: (Record<string, unknown> | null)[]; errors: RemoteGraphQLError[] } | { failed: string }
> {
  const answer = await askChild<{ _entities: (Record<string, unknown> | null)[] | null }>(
    context,
    route,
    operation.query,
    operation.variables,
  );
  if (answer instanceof RemoteRegistryError) return { failed: answer.message };
  const entities = answer.data?._entities;
  if (!entities || entities.length !== representations.length)
    return { failed: answer.errors[0]?.message ?? "no entities" };
  return { entities, errors: answer.errors };
}
