import type { ApolloServerPlugin } from "@apollo/server";
import { ErrorCode, httpStatusOf, RegistryError } from "@stream-registry/core";
import { isDatabaseUnavailable } from "@stream-registry/store";
import { BREAK, GraphQLError, visit, type DocumentNode } from "graphql";
import { accessOf } from "../authorize.ts";
import type { GraphQLContext } from "../context.ts";
import { DATABASE_UNAVAILABLE_MESSAGE } from "../errors.ts";

/** The fields that show the schema: introspection, and the federation SDL. */
const SCHEMA_FIELDS = new Set(["__schema", "__type", "_service"]);

/**
 * In production the schema is shown only to those who administer something here and to a parent
 * registry (issue 11): introspection (`__schema`, `__type`), `_service { sdl }`, and the "Did you
 * mean" suggestions of errors, which would otherwise spell it out a typo at a time. Apollo
 * Server's own switches (`introspection`, `hideSchemaDetailsFromClientErrors`) are one setting
 * for every caller; this decides per request, from the principal's grants. Outside production
 * everyone sees it, as before.
 */
export function schemaVisibilityPlugin(production: boolean): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart({ contextValue }) {
      if (!production) return;
      // Asked only when needed: most requests neither ask for the schema nor fail validation.
      let sees: Promise<boolean> | undefined;
      const seesSchema = () => (sees ??= accessOf(contextValue).then((access) => access.seesSchema()));
      // Grants are asked only for errors that suggest something; if they cannot be read (the
      // database is down), the suggestions go.
      const hideSuggestions = async (errors?: readonly Error[]) => {
        const suggesting = (errors ?? []).filter(
          (error) => withoutSuggestions(error.message) !== error.message,
        );
        if (suggesting.length === 0 || (await seesSchema().catch(() => false))) return;
        for (const error of suggesting) error.message = withoutSuggestions(error.message);
      };
      return {
        async validationDidStart() {
          return hideSuggestions;
        },
        async didResolveOperation({ document }) {
          if (asksForSchema(document) && !(await seesSchema().catch(unavailable))) {
            const message =
              "the schema (introspection, _service) is shown in production only to admins of this registry and to its parent";
            // Apollo reports what this hook throws as is, with the HTTP status the error carries.
            throw new GraphQLError(message, {
              originalError: new RegistryError(ErrorCode.FORBIDDEN, message),
              extensions: { code: ErrorCode.FORBIDDEN, http: { status: httpStatusOf[ErrorCode.FORBIDDEN] } },
            });
          }
        },
        async didEncounterErrors({ errors }) {
          await hideSuggestions(errors);
        },
      };
    },
  };
}

/** A database that cannot be read here answers as it does in resolvers: 503, DATABASE_UNAVAILABLE. */
function unavailable(error: unknown): never {
  if (!isDatabaseUnavailable(error)) throw error;
  throw new GraphQLError(DATABASE_UNAVAILABLE_MESSAGE, {
    originalError: error instanceof Error ? error : undefined,
    extensions: {
      code: ErrorCode.DATABASE_UNAVAILABLE,
      http: { status: httpStatusOf[ErrorCode.DATABASE_UNAVAILABLE] },
    },
  });
}

/** Whether a document selects a field that shows the schema, anywhere (fragments too). */
export function asksForSchema(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (!SCHEMA_FIELDS.has(node.name.value)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/** graphql-js's suggestions ("Did you mean "x"?") end a message; Apollo's own plugin cuts them so. */
export function withoutSuggestions(message: string): string {
  return message.replace(/ ?Did you mean(.+?)\?$/, "");
}
