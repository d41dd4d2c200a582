import { BREAK, GraphQLError, Kind, visit, type ASTNode, type DocumentNode } from "graphql";
import type { ApolloServerPlugin } from "@apollo/server";
import { ErrorCode, RegistryError, textProblem } from "@stream-registry/core";
import type { GraphQLContext } from "../context.ts";

interface PathLink {
  key: string;
  parent: PathLink | undefined;
  depth: number;
}

/**
 * How deep a value of the request may nest (objects and lists in variables and literals). Every
 * later walk of a client's value (coercion, JSON.stringify of a forwarded call, redaction, the
 * stores) is recursive: bounded once here, none of them can overflow the stack.
 */
export const MAX_INPUT_DEPTH = 32;
const tooDeep = `is nested more than ${MAX_INPUT_DEPTH} levels deep`;

/**
 * Refuses any string of the request (a variable's keys and values at any depth, or a string
 * literal in the document) that no field can store: NUL, or a lone surrogate; and any value nested
 * deeper than MAX_INPUT_DEPTH. Checked once at the edge, so no resolver, store or provider ever
 * sees one; the error names where it was.
 */
export function checkInputText(document: DocumentNode, variables: unknown): GraphQLError | undefined {
  const bad = badVariable(variables);
  if (!bad) return checkLiterals(document);
  // Named where the variable is used ("input", "config", ...), as every other input error is.
  const [name = "", ...rest] = bad.path;
  return refusal([...(variableUse(document, name) ?? [name]), ...rest], bad.problem);
}

function badVariable(variables: unknown): { path: string[]; problem: string } | undefined {
  // Iterative: a deeply nested variable must not overflow the stack.
  const stack: { value: unknown; path: PathLink | undefined }[] = [{ value: variables, path: undefined }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, path } = item;
    if (typeof value === "string") {
      const problem = textProblem(value);
      if (problem) return { path: toArray(path), problem };
    } else if (typeof value === "object" && value !== null) {
      const depth = (path?.depth ?? 0) + 1;
      if (depth > MAX_INPUT_DEPTH) return { path: toArray(path).slice(0, 4), problem: tooDeep };
      for (const [key, child] of Object.entries(value)) {
        const childPath = { key, parent: path, depth };
        const problem = Array.isArray(value) ? undefined : textProblem(key);
        if (problem) return { path: toArray(childPath), problem: `has a key that ${problem}` };
        stack.push({ value: child, path: childPath });
      }
    }
  }
  return undefined;
}

function checkLiterals(document: DocumentNode): GraphQLError | undefined {
  let found: GraphQLError | undefined;
  let depth = 0;
  const nest = {
    enter(_node: ASTNode, _key: unknown, parent: unknown, _path: unknown, ancestors: readonly unknown[]) {
      if (++depth <= MAX_INPUT_DEPTH) return undefined;
      const at = [...ancestors, parent ?? []] as (ASTNode | readonly ASTNode[])[];
      found = refusal(inputPath(at).slice(0, 4), tooDeep);
      return BREAK;
    },
    leave() {
      depth--;
    },
  };
  visit(document, {
    ObjectValue: nest,
    ListValue: nest,
    StringValue(node, _key, parent, _path, ancestors) {
      const problem = textProblem(node.value);
      if (!problem) return undefined;
      found = refusal(inputPath([...ancestors, parent ?? []]), problem);
      return BREAK;
    },
  });
  return found;
}

/** The argument and input fields where variable `name` is first used. */
function variableUse(document: DocumentNode, name: string): string[] | undefined {
  let path: string[] | undefined;
  visit(document, {
    Variable(node, _key, parent, _path, ancestors) {
      const definition = !Array.isArray(parent) && (parent as ASTNode).kind === Kind.VARIABLE_DEFINITION;
      if (node.name.value !== name || definition) return undefined;
      path = inputPath([...ancestors, parent ?? []]);
      return BREAK;
    },
  });
  return path;
}

/** An input value's argument and the input fields around it. */
function inputPath(ancestors: readonly (ASTNode | readonly ASTNode[])[]): string[] {
  return ancestors.flatMap((node) =>
    !Array.isArray(node) && "kind" in node && (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD)
      ? [(node as { name: { value: string } }).name.value]
      : [],
  );
}

function toArray(path: PathLink | undefined): string[] {
  const keys: string[] = [];
  for (let link = path; link; link = link.parent) keys.unshift(link.key);
  return keys;
}

function refusal(field: string[], problem: string): GraphQLError {
  // The offending text is not echoed: it is what cannot be shown safely.
  const message = `input ${field.map((key) => JSON.stringify(key.toWellFormed())).join(".")} ${problem}`;
  const cause = new RegistryError(ErrorCode.INVALID_INPUT, message, field);
  return new GraphQLError(message, {
    originalError: cause,
    extensions: { code: cause.code, field, http: { status: 400 } },
  });
}

/** Runs `checkInputText` on every operation, before anything executes. */
export function inputTextPlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request }) {
          const refused = checkInputText(document, request.variables);
          if (refused) throw refused;
        },
      };
    },
  };
}
