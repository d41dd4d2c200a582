import { ENTITY_KINDS } from "@stream-registry/core";
import type { RemoteAnswer } from "@stream-registry/federation";
import {
  Kind,
  parse,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
} from "graphql";
import { childCall, MAX_HOPS } from "./child-calls.ts";
import type { GraphQLContext } from "./context.ts";
import { checkCost } from "./guards/cost.ts";
import { checkInputText } from "./guards/input-text.ts";
import type { QueryLimits } from "./guards/query-limits.ts";

/**
 * The query fields routed by their `namespace` argument (routed.ts) that pass through whole: the
 * look-ups of ENTITY_KINDS.
 */
const ROUTED_QUERY_FIELDS = new Set<string>(ENTITY_KINDS.map((row) => row.lookUp));
/** Documents kept parsed, by their text: a client sends the same few again and again. */
const PARSED_KEPT = 500;
/** Longer query text is never a look-up worth passing through (nor kept parsed). */
const MAX_QUERY_LENGTH = 10_000;

/** A child's answer that is this registry's answer, as the child sent it. */
export interface PassedAnswer {
  text: string;
}

/** What a request asked the child before Apollo took it: routed.ts uses it instead of asking again. */
export interface PassedThrough {
  url: string;
  answer: Promise<RemoteAnswer<Record<string, unknown>>>;
}

/**
 * A query whose one root field is a look-up in a namespace a child owns (`stream`, `cluster`,
 * `binding`: ROUTED_QUERY_FIELDS, with `namespace` below this registry's) is sent to that child as the client sent it,
 * and an answer without errors is this registry's answer byte for byte: a registry between the
 * client and the owner parses the query, estimates its cost and charges it, and leaves validating
 * and executing it to the owner, which does both anyway (a hop of a look-up costs about a third of
 * what executing it here did: docs/benchmarks.md). Anything else (a mutation, several root fields,
 * a namespace this registry owns or cannot route, an answer with errors) is executed as usual;
 * what the child answered is then in `context.passedThrough`, so that it is not asked twice.
 */
export function createPassThrough(schema: GraphQLSchema, limits: QueryLimits) {
  const parsed = new Map<string, DocumentNode | null>();

  function documentOf(query: string): DocumentNode | null {
    let document = parsed.get(query);
    if (document !== undefined) return document;
    try {
      document = parse(query, { maxTokens: limits.maxTokens });
    } catch {
      document = null; // Apollo refuses it with its own message
    }
    if (parsed.size >= PARSED_KEPT) parsed.clear();
    parsed.set(query, document);
    return document;
  }

  return async function passThrough(
    body: unknown,
    context: GraphQLContext,
  ): Promise<PassedAnswer | undefined> {
    const request = requestOf(body);
    const document = request && documentOf(request.query);
    const operation = document && operationOf(document, request.operationName);
    const field = operation && onlyField(operation);
    if (!request || !document || !field || context.hops >= MAX_HOPS) return undefined;
    // Refused as usual, before anything walks the variables (a deep one would overflow the stack).
    if (checkInputText(document, request.variables)) return undefined;
    context.requestLog.operationName = operation.name?.value;
    const namespace = argumentValue(field.arguments, "namespace", request.variables);
    if (typeof namespace !== "string") return undefined;
    // A namespace that is not a path, or that no child owns, is refused by routed.ts as usual.
    const child = await context.services.children.ownerOf(namespace, ["namespace"]).catch(() => null);
    if (!child) return undefined;
    let cost: number | undefined;
    try {
      cost = checkCost({ schema, document, operationName: request.operationName }, request.variables, limits);
    } catch {
      return undefined; // over the limit: refused as usual
    }
    context.rateLimit.estimated = cost;
    // Refused, the request goes on as usual, to be refused there (a refused charge spends nothing).
    if (await context.rateLimit.chargeOperation(Math.max(1, cost ?? 1))) return undefined;
    const refused = await context.rateLimit.chargeChildren(1).then(
      () => false,
      () => true,
    );
    if (refused) return undefined;
    const answer = context.services.children.calls.post<Record<string, unknown>>(
      child.url,
      request.query,
      request.variables,
      { ...childCall(context, child), operationName: request.operationName ?? undefined },
    );
    context.passedThrough = { url: child.url, answer };
    const { data, errors, text } = await answer.catch(() => ({ data: null, errors: [], text: "" }));
    const key = field.alias?.value ?? field.name.value;
    return errors.length === 0 && data?.[key] !== undefined ? { text } : undefined;
  };
}

interface ClientRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | null;
}

/** A POST body's operation, when it is a plain one (not a persisted query's hash, not a batch). */
function requestOf(body: unknown): ClientRequest | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  if (typeof query !== "string" || query.length > MAX_QUERY_LENGTH || extensions !== undefined)
    return undefined;
  if (
    variables !== undefined &&
    variables !== null &&
    (typeof variables !== "object" || Array.isArray(variables))
  )
    return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string")
    return undefined;
  return {
    query,
    variables: (variables ?? {}) as Record<string, unknown>,
    operationName: operationName ?? null,
  };
}

function operationOf(document: DocumentNode, name: string | null): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation =
    name === null
      ? operations.length === 1
        ? operations[0]
        : undefined
      : operations.find((o) => o.name?.value === name);
  return operation?.operation === "query" && !operation.directives?.length ? operation : undefined;
}

/** The operation's one root field, when it is a routed look-up without directives. */
function onlyField(operation: OperationDefinitionNode) {
  const [field, ...more] = operation.selectionSet.selections;
  if (more.length > 0 || field?.kind !== Kind.FIELD || field.directives?.length) return undefined;
  return ROUTED_QUERY_FIELDS.has(field.name.value) ? field : undefined;
}

function argumentValue(
  args: readonly { name: { value: string }; value: ValueNode }[] | undefined,
  name: string,
  variables: Record<string, unknown>,
): unknown {
  const value = args?.find((argument) => argument.name.value === name)?.value;
  if (value?.kind === Kind.STRING) return value.value;
  if (value?.kind === Kind.VARIABLE) return variables[value.name.value];
  return undefined;
}
