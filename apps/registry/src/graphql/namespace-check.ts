import { ErrorCode, RegistryError } from "@stream-registry/core";
import { RemoteRegistryError } from "@stream-registry/federation";
import type { ChildRoute } from "@stream-registry/store";
import type { GraphQLResolveInfo } from "graphql";
import { childErrorEntry, pathOf } from "./child-errors.ts";
import { askChild } from "./child-calls.ts";
import type { GraphQLContext } from "./context.ts";

/**
 * Only the registries below know whether a namespace deeper than a child's own exists: the
 * discovery index knows namespaces through their items. So a list answered from the index that
 * found nothing of such a namespace asks the owning child for the same list with `first: 0` (which
 * asks its own child in turn if need be), and a namespace nobody owns is NOT_FOUND from the index
 * as it is live.
 * A child that cannot be reached leaves the empty answer standing, with CHILD_UNAVAILABLE.
 */
export async function confirmNamespace(
  info: GraphQLResolveInfo,
  context: GraphQLContext,
  filterType: string,
  owner: Pick<ChildRoute, "url" | "registryId"> & { path: string },
  namespace: string,
): Promise<void> {
  const query = `query Subtree_namespace($filter: ${filterType}) {
    page: ${info.fieldName}(filter: $filter, first: 0) { __typename } }`;
  await context.rateLimit.chargeChildren(1);
  const answer = await askChild(context, owner, query, { filter: { namespace } });
  if (answer instanceof RemoteRegistryError) {
    context.partial.push({
      message: `whether namespace ${namespace} exists is not known: the child registry that owns ${owner.path} cannot be reached: ${answer.message}`,
      path: pathOf(info),
      extensions: { code: ErrorCode.CHILD_UNAVAILABLE, namespace: owner.path },
    });
    return;
  }
  const notFound = answer.errors.find((error) => error.extensions?.code === ErrorCode.NOT_FOUND);
  if (notFound) throw new RegistryError(ErrorCode.NOT_FOUND, notFound.message, ["filter", "namespace"]);
  for (const error of answer.errors) context.partial.push(childErrorEntry(error, owner.path, info));
}
