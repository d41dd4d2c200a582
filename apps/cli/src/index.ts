/**
 * srctl as a library, for automation that should not spawn a process:
 *
 *   const srctl = createSrctl({ registry: "http://localhost:4000/graphql" });
 *   const report = await srctl.run('CREATE BINDING "widgets_v0" TO CLUSTER "cluster001";', { wait: true });
 *   if (report.exitCode !== ExitCode.OK) throw new Error(report.results.at(-1)?.error?.message);
 */
export { createSrctl, Srctl, DEFAULT_REGISTRY, DEFAULT_WAIT_TIMEOUT_MS } from "./srctl.ts";
export type { RunOptions, RunReport, SrctlOptions } from "./srctl.ts";
export type { Consistency } from "./consistency.ts";
export type { StatementResult, StatementOutput, StatementSource, StatementError } from "./output/result.ts";
export type { Warning } from "./client/execute.ts";
export type { FetchLike } from "./client/graphql-client.ts";
export { ExitCode, exitCodeFor } from "./exit-codes.ts";
export {
  SrctlError,
  ScriptSyntaxError,
  UnsupportedStatementError,
  UserErrorsError,
  RegistryUnreachableError,
  RegistryFaultError,
  WaitFailedError,
  NotFoundError,
  InputError,
  UsageError,
  BadResponseError,
  NotGraphQLEndpointError,
  ApiMismatchError,
} from "./errors.ts";
export { renderTable, type Column } from "./output/table.ts";
export { renderText, toJson } from "./output/printer.ts";
export { main } from "./main.ts";
