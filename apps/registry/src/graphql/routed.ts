import { ErrorCode, isErrorCode, RegistryError } from "@stream-registry/core";
import {
  forwardedOperation,
  remoteValue,
  RemoteRegistryError,
  type RemoteAnswer,
  type RemoteGraphQLError,
} from "@stream-registry/federation";
import { GraphQLError, type GraphQLResolveInfo } from "graphql";
import { asUserErrors } from "../services/user-errors.ts";
import { childCall, MAX_HOPS } from "./child-calls.ts";
import { childErrorEntry } from "./child-errors.ts";
import type { GraphQLContext } from "./context.ts";

/**
 * A root field that a namespace below this registry's may ask of the child that owns it: with
 * `namespace` (an argument, or a field of `input`) naming this registry's or none, `own` answers;
 * naming one below, the operation goes to the child that owns it, with the caller's identity, and
 * the child's answer (userErrors included) is the answer. A namespace outside this registry's
 * subtree, or one no child owns, is refused naming the field.
 */
export function routed<TResult, TParent, TArgs extends RoutedArgs>(
  own: (
    parent: TParent,
    args: TArgs,
    context: GraphQLContext,
    info: GraphQLResolveInfo,
  ) => TResult | Promise<TResult>,
): (parent: TParent, args: TArgs, context: GraphQLContext, info: GraphQLResolveInfo) => Promise<TResult> {
  return async (parent, args, context, info) => {
    const [namespace, field] =
      args.input && "namespace" in args.input
        ? [args.input.namespace, ["input", "namespace"]]
        : [args.namespace, ["namespace"]];
    let child;
    try {
      child = await context.services.children.ownerOf(namespace, field);
    } catch (error) {
      // A mutation names a bad namespace in its payload's userErrors, as any bad input.
      const userErrors = args.input ? asUserErrors(error) : undefined;
      if (userErrors) return { userErrors } as TResult;
      throw error;
    }
    if (!child) return own(parent, args, context, info);
    // The child's answer stands for TResult: passThroughRemote resolves its fields as it gave them.
    return (await forward(child, context, info)) as TResult;
  };
}

interface RoutedArgs {
  namespace?: string | null;
  input?: { namespace?: string | null } | null;
}

async function forward(
  child: { url: string; path: string; registryId: string },
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  // Asked already, by a pass-through whose answer was not the answer as it was (pass-through.ts).
  const asked = context.passedThrough?.url === child.url ? context.passedThrough.answer : undefined;
  const answer = await (asked ?? ask(child, context, info)).catch((error: unknown) => {
    if (!(error instanceof RemoteRegistryError)) throw error;
    throw new RegistryError(
      ErrorCode.CHILD_UNAVAILABLE,
      `the child registry that owns ${child.path} cannot be reached: ${error.message}`,
      [],
      { namespace: child.path },
    );
  });
  const value = answer.data?.[info.path.key as string];
  const [first, ...more] = answer.errors;
  if ((value === null || value === undefined) && first) throw childError(first, child.path);
  // An answer with errors beside it (a grandchild left out of it) keeps them.
  for (const error of first ? [first, ...more] : [])
    context.partial.push(childErrorEntry(error, child.path, info));
  return remoteValue(value ?? null, info.returnType);
}

async function ask(
  child: { url: string; path: string; registryId: string },
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<RemoteAnswer<Record<string, unknown>>> {
  if (context.hops >= MAX_HOPS) {
    throw new RegistryError(
      ErrorCode.INVALID_INPUT,
      `the operation passed through ${MAX_HOPS} registries without reaching ${child.path}: the tree has a loop`,
    );
  }
  // Charged to the caller's rate limit before the call goes out: the child will not charge it.
  await context.rateLimit.chargeChildren(1);
  const { query, variables } = forwardedOperation(info, `Forwarded_${info.fieldName}`);
  return context.services.children.calls.post(child.url, query, variables, childCall(context, child));
}

/**
 * The child's own refusal or fault as this registry's error, with the child's code and facts (a
 * registry further down names the namespace it could not reach); an error without a registry code
 * is the child's internal error.
 */
function childError(error: RemoteGraphQLError, path: string): Error {
  const { code, field, requestId: _theirs, ...details } = error.extensions ?? {};
  if (!isErrorCode(code))
    return new GraphQLError(`the child registry that owns ${path} failed: ${error.message}`);
  const facts = Object.fromEntries(
    Object.entries<unknown>({ namespace: path, ...details }).filter(
      (entry): entry is [string, string | number] =>
        typeof entry[1] === "string" || typeof entry[1] === "number",
    ),
  );
  return new RegistryError(code, error.message, Array.isArray(field) ? field.map(String) : [], facts);
}
