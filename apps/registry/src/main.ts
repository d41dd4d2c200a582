import { constants } from "node:os";
import { loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";
import { startRegistry } from "./registry.ts";
import { refusalMessage } from "./operator-error.ts";

/** Closing providers and the database after the drains; past it the process exits anyway. */
const CLOSE_GRACE_MS = 5_000;
/**
 * A terminal's Ctrl-C reaches every process in its group, npm included, and npm forwards it: one
 * keypress arrives twice. Only a signal later than this forces the exit.
 */
const REPEAT_WINDOW_MS = 1_000;

/** What the operator must fix, in one plain line on stderr (no JSON, no stack), and exit 1. */
function refuse(message: string): never {
  process.stderr.write(`stream-registry: ${message}\n`);
  process.exit(1);
}

// Paths in the environment are meant from where npm was called (INIT_CWD), e.g. a workspace's script.
const config = (() => {
  try {
    return loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
  } catch (error) {
    // Every error of loadConfig names a variable and its rule.
    return refuse((error as Error).message);
  }
})();
const logger = createLogger(config.logLevel);
// Node and every module of the registry loaded (the build under npm start, or the sources and tsx
// under the testkit's launcher; npm run bench:start): ms since the process started.
logger.debug({ loadedMs: Math.round(performance.now()) }, "modules loaded");
const starting = startRegistry(config, logger).catch((error: unknown) => {
  const refusal = refusalMessage(error);
  if (refusal !== undefined) refuse(refusal);
  logger.fatal({ err: error }, "registry failed to start");
  process.exit(1);
});

let firstSignalAt: number | undefined;
function onSignal(signal: NodeJS.Signals): void {
  if (firstSignalAt === undefined) {
    firstSignalAt = Date.now();
    logger.info({ signal }, "shutting down");
    void shutDown();
  } else if (Date.now() - firstSignalAt > REPEAT_WINDOW_MS) {
    logger.warn({ signal }, "second signal: exiting without finishing shutdown");
    process.exit(128 + constants.signals[signal]);
  }
}
// Installed before start-up finishes, so that a signal during migrations still ends in a clean stop.
process.on("SIGTERM", onSignal);
process.on("SIGINT", onSignal);

// graphql-js 16 leaves a list's other item promises unawaited when one item fails at once (e.g. a
// request stopped by its run-time budget); their rejections are already answered as that request's
// error and must not end the process, as Node's default would.
process.on("unhandledRejection", (reason) => {
  logger.warn({ err: reason }, "unhandled rejection (logged, not fatal)");
});

async function shutDown(): Promise<void> {
  const registry = await starting;
  // Requests and reconciles each get SHUTDOWN_TIMEOUT_MS (registry.stop), closing gets the rest.
  const boundMs = 2 * config.shutdownTimeoutMs + CLOSE_GRACE_MS;
  setTimeout(() => {
    logger.error({ boundMs }, "shutdown did not finish in time; exiting");
    process.exit(1);
  }, boundMs).unref();
  try {
    await registry.stop();
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, "shutdown failed");
    process.exit(1);
  }
}
