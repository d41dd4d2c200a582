import { HeaderMap, type ApolloServerPlugin } from "@apollo/server";
import { httpStatusOf, type RegistryError } from "@stream-registry/core";
import type { GraphQLFormattedError } from "graphql";
import type { GraphQLContext } from "../context.ts";

/**
 * Charges each operation's estimated cost to its principal's rate limit (rate-limit.ts) once it is
 * resolved and every other guard let it through, before anything executes: a refused request runs
 * nothing and is answered 429 with Retry-After. A request refused later, when a fan-out to child
 * registries is charged (`RequestRate.chargeChildren`), is answered with the refusal alone if it is
 * a query (never a partial list taken for a whole one); a mutation keeps the answers of the root
 * fields already applied, the refused one null with RATE_LIMITED.
 */
export function rateLimitPlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart({ contextValue }) {
      if (!contextValue.rateLimit.counted) return;
      return {
        // After every didResolveOperation (cost and depth limits, input text, schema visibility):
        // a request they refuse spends nothing.
        async responseForOperation() {
          // The cost limit's estimate (budget-plugin.ts), taken before this hook.
          const cost = contextValue.rateLimit.estimated ?? 1;
          const refusal = await contextValue.rateLimit.chargeOperation(Math.max(1, cost));
          if (!refusal) return null;
          return {
            http: { status: httpStatusOf[refusal.code], headers: retryAfter(refusal) },
            body: { kind: "single", singleResult: { errors: [formatted(refusal)] } },
          };
        },
        async willSendResponse({ response, operation }) {
          const refusal = contextValue.rateLimit.refused;
          if (!refusal) return;
          for (const [name, value] of retryAfter(refusal)) response.http.headers.set(name, value);
          if (operation?.operation === "mutation" || response.body.kind !== "single") return;
          response.body.singleResult = { data: null, errors: [formatted(refusal)] };
          response.http.status = httpStatusOf[refusal.code];
          // The children asked before the refusal are no part of an answer that has no data.
          contextValue.partial.length = 0;
        },
      };
    },
  };
}

function retryAfter(refusal: RegistryError): HeaderMap {
  return new HeaderMap([["retry-after", String(refusal.details.retryAfterSeconds)]]);
}

/** As the error formatter shows a RegistryError (graphql/errors.ts): code, field and its facts. */
function formatted(refusal: RegistryError): GraphQLFormattedError {
  return {
    message: refusal.message,
    extensions: { code: refusal.code, field: refusal.field, ...refusal.details },
  };
}
