import type { ConfigClauses, SchemaSource, SchemaType, Statement, StatementOf } from "./ast.ts";
import { printJson, quote } from "./json-printer.ts";
import { isBarePath } from "./lexer.ts";
import { principalKeywords } from "./statements/grant.ts";

/**
 * Canonical text of one statement: uppercase keywords, clauses in grammar order, config blocks as
 * 2-space indented JSON, ending with `;`. parse(print(s)) gives back `s` (spans aside).
 */
export function print(statement: Statement): string {
  return `${printBody(statement)};`;
}

/** Statements one after another, each on its own line(s), ending with a newline. */
export function printScript(statements: Statement[]): string {
  return statements.map((statement) => `${print(statement)}\n`).join("");
}

function printBody(s: Statement): string {
  switch (s.kind) {
    case "showNamespace":
      return "SHOW NAMESPACE";
    case "declareDefaultNamespace":
      return `DECLARE DEFAULT NAMESPACE ${quote(s.namespace)}`;
    case "showNamespaces":
      return "SHOW NAMESPACES";
    case "declareParentRegistry":
      return `DECLARE PARENT REGISTRY ${quote(s.url)} WITH TOKEN ${quote(s.token)}`;
    case "dropParentRegistry":
      return "DROP PARENT REGISTRY";
    case "showChildRegistries":
      return "SHOW CHILD REGISTRIES";
    case "suspendChildRegistry":
      return `SUSPEND CHILD REGISTRY ${quote(s.path)}`;
    case "resumeChildRegistry":
      return `RESUME CHILD REGISTRY ${quote(s.path)}`;
    case "dropChildRegistry":
      return `DROP CHILD REGISTRY ${quote(s.path)}`;
    case "declareCluster":
      return [
        `DECLARE CLUSTER ${quote(s.cluster)}`,
        s.provider === undefined ? "" : ` WITH PROVIDER ${quote(s.provider)}`,
        s.config === undefined ? "" : ` WITH CONFIG ${printJson(s.config)}`,
      ].join("");
    case "createStream":
      return `CREATE STREAM ${quote(s.stream)}${configClauses(s)}`;
    case "updateStream":
      return `UPDATE STREAM ${quote(s.stream)}${configClauses(s)}`;
    case "deleteStream":
      return `DELETE STREAM ${quote(s.stream)}${s.cascade ? " CASCADE" : ""}`;
    case "createBinding":
      return `CREATE BINDING ${quote(s.stream)} TO CLUSTER ${quote(s.cluster)}${configClauses(s)}`;
    case "updateBinding":
      return `UPDATE BINDING ${quote(s.stream)} TO CLUSTER ${quote(s.cluster)}${configClauses(s)}`;
    case "deleteBinding":
      return `DELETE BINDING ${quote(s.stream)} FROM CLUSTER ${quote(s.cluster)}`;
    case "describeBindings":
      return `DESCRIBE BINDINGS ${quote(s.stream)}`;
    case "registerKeySchema":
      return `REGISTER KEY SCHEMA ${schemaBody(s.schema, s.schemaType)} ON STREAM ${quote(s.stream)}`;
    case "registerTypeSchema":
      return `REGISTER TYPE SCHEMA ${quote(s.typeName)} ${schemaBody(s.schema, s.schemaType)} ON STREAM ${quote(s.stream)}`;
    case "showSourceTypes":
      return `SHOW SOURCE TYPES FOR CLUSTER ${quote(s.cluster)}`;
    case "showSinkTypes":
      return `SHOW SINK TYPES FOR CLUSTER ${quote(s.cluster)}`;
    case "createStreamSource":
      return `CREATE STREAM SOURCE ${quote(s.source)}${connectorCreateRest(s)}`;
    case "createStreamSink":
      return `CREATE STREAM SINK ${quote(s.sink)}${connectorCreateRest(s)}`;
    case "describeStreamSource":
      return `DESCRIBE STREAM SOURCE ${quote(s.source)}`;
    case "describeStreamSink":
      return `DESCRIBE STREAM SINK ${quote(s.sink)}`;
    case "updateStreamSource":
      return `UPDATE STREAM SOURCE ${quote(s.source)} WITH CONFIG ${printJson(s.config)}`;
    case "updateStreamSink":
      return `UPDATE STREAM SINK ${quote(s.sink)} WITH CONFIG ${printJson(s.config)}`;
    case "deleteStreamSource":
      return `DELETE STREAM SOURCE ${quote(s.source)}`;
    case "deleteStreamSink":
      return `DELETE STREAM SINK ${quote(s.sink)}`;
    case "showStreamSources":
      return `SHOW STREAM SOURCES${s.like === undefined ? "" : ` LIKE ${quote(s.like)}`}`;
    case "showStreamSinks":
      return `SHOW STREAM SINKS${s.like === undefined ? "" : ` LIKE ${quote(s.like)}`}`;
    case "pauseStreamSource":
    case "resumeStreamSource":
    case "stopStreamSource":
    case "restartStreamSource":
      return `${kindWords(s.kind)} ${quote(s.source)}${"onlyFailed" in s && s.onlyFailed ? " ONLY FAILED" : ""}`;
    case "pauseStreamSink":
    case "resumeStreamSink":
    case "stopStreamSink":
    case "restartStreamSink":
      return `${kindWords(s.kind)} ${quote(s.sink)}${"onlyFailed" in s && s.onlyFailed ? " ONLY FAILED" : ""}`;
    case "replicateBinding":
      return [
        `REPLICATE BINDING ${quote(`${s.sourceCluster}/${s.stream}`)}`,
        s.namespace === undefined ? "" : ` FROM NAMESPACE ${quote(s.namespace)}`,
        ` TO CLUSTER ${quote(s.cluster)}`,
      ].join("");
    case "showReplications":
      return `SHOW REPLICATIONS${s.cluster === undefined ? "" : ` ON CLUSTER ${quote(s.cluster)}`}`;
    case "createStreamRelocation":
      return `CREATE STREAM RELOCATION ${quote(s.stream)} FROM CLUSTER ${quote(s.fromCluster)} TO CLUSTER ${quote(s.toCluster)}`;
    case "describeStreamRelocation":
      return `DESCRIBE STREAM RELOCATION ${quote(s.stream)} FROM CLUSTER ${quote(s.fromCluster)}`;
    case "deleteStreamRelocation":
      return `DELETE STREAM RELOCATION ${quote(s.stream)} FROM CLUSTER ${quote(s.fromCluster)}`;
    case "showStreams":
      return `SHOW STREAMS${s.like === undefined ? "" : ` LIKE ${quote(s.like)}`}`;
    case "showClusters":
      return "SHOW CLUSTERS";
    case "describeStream":
      return `DESCRIBE STREAM ${quote(s.stream)}`;
    case "grant":
    case "revoke":
      return printGrant(s);
    case "showGrants":
      return [
        "SHOW GRANTS",
        s.namespace === undefined ? "" : ` ON NAMESPACE ${quote(s.namespace)}`,
        s.principal === undefined ? "" : ` FOR ${printPrincipal(s.principal)}`,
      ].join("");
    case "createToken":
      return [
        `CREATE TOKEN ${quote(s.token)}`,
        s.groups === undefined ? "" : ` GROUPS (${s.groups.map(quote).join(", ")})`,
        s.expiresInDays === undefined ? "" : ` EXPIRES IN ${s.expiresInDays} DAYS`,
      ].join("");
    case "revokeToken":
      return `REVOKE TOKEN ${quote(s.token)}`;
    case "showTokens":
      return "SHOW TOKENS";
    case "rotateRegistryKey":
      return "ROTATE REGISTRY KEY";
  }
}

/** "pauseStreamSource" -> "PAUSE STREAM SOURCE": the run-state statements are their kind's words. */
function kindWords(kind: string): string {
  return kind.replace(/([a-z])([A-Z])/g, "$1 $2").toUpperCase();
}

function configClauses(s: ConfigClauses): string {
  return [
    s.config === undefined ? "" : ` WITH CONFIG ${printJson(s.config)}`,
    s.producerConfig === undefined ? "" : ` WITH PRODUCER CONFIG ${printJson(s.producerConfig)}`,
    s.consumerConfig === undefined ? "" : ` WITH CONSUMER CONFIG ${printJson(s.consumerConfig)}`,
  ].join("");
}

function connectorCreateRest(s: { type: string; config?: ConfigClauses["config"]; cluster: string }): string {
  const config = s.config === undefined ? "" : ` WITH CONFIG ${printJson(s.config)}`;
  return ` WITH TYPE ${quote(s.type)}${config} ON CLUSTER ${quote(s.cluster)}`;
}

function schemaBody(schema: SchemaSource, schemaType: SchemaType | undefined): string {
  const body = schema.kind === "file" ? `FILE ${printPath(schema.path)}` : printJson(schema.schema, "  ");
  return `(\n  ${body}\n)${schemaType === undefined ? "" : ` AS ${schemaType}`}`;
}

/** Bare when the lexer reads it back as one path token (as the seed writes it), quoted otherwise. */
function printPath(path: string): string {
  return isBarePath(path) ? path : quote(path);
}

/** GRANT ... TO and REVOKE ... FROM, with the clauses in the grammar's order. */
function printGrant(s: StatementOf<"grant"> | StatementOf<"revoke">): string {
  return [
    s.kind === "grant" ? "GRANT " : "REVOKE ",
    s.role.toUpperCase(),
    s.namespace === undefined ? "" : ` ON NAMESPACE ${quote(s.namespace)}`,
    s.streamPrefix === undefined ? "" : ` STREAMS ${quote(s.streamPrefix)}`,
    s.kind === "grant" ? " TO " : " FROM ",
    printPrincipal(s.principal),
  ].join("");
}

function printPrincipal(principal: string): string {
  const { keyword, name } = principalKeywords(principal);
  return `${keyword} ${quote(name)}`;
}
