import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped } from "graphql";
import {
  numberProblem,
  redactSecrets,
  type ConfigMaps,
  type ConfigValue,
  type SecretKeyRule,
} from "@stream-registry/core";

/**
 * Config maps pass through as JSON; their rules are checked by the services, which can name the
 * offending field in `userErrors`. Output is always redacted by the registry's rule (`secrets`,
 * with the keys loaded providers declare): secrets are write-only, and no resolver can leak one.
 */
export function configMapsScalar(secrets: SecretKeyRule): GraphQLScalarType<unknown, ConfigMaps> {
  return new GraphQLScalarType<unknown, ConfigMaps>({
    name: "ConfigMaps",
    serialize: (value) => redactSecrets(value as ConfigMaps, secrets),
    parseValue: (value) => value,
    parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
  });
}

export const ConfigValueScalar = new GraphQLScalarType<ConfigValue, ConfigValue>({
  name: "ConfigValue",
  serialize: (value) => value as ConfigValue,
  parseValue: (value) => checkConfigValue(value),
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.BOOLEAN) return ast.value;
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return checkConfigValue(Number(ast.value));
    throw new GraphQLError("ConfigValue must be a string, number or boolean");
  },
});

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: "DateTime",
  // A Date of this registry's, or the ISO string a child registry answered with.
  serialize: (value) => (typeof value === "string" ? value : (value as Date).toISOString()),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => parseDate(ast.kind === Kind.STRING ? ast.value : undefined),
});

function checkConfigValue(value: unknown): ConfigValue {
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) {
    const problem = numberProblem(value);
    if (problem) throw new GraphQLError(`ConfigValue ${problem}`);
    return value;
  }
  throw new GraphQLError("ConfigValue must be a string, finite number or boolean");
}

function parseDate(value: unknown): Date {
  const date = typeof value === "string" ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new GraphQLError("DateTime must be an ISO-8601 string");
  return date;
}

export const JSONScalar = new GraphQLScalarType<unknown, unknown>({
  name: "JSON",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
