import { loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";
import { startRegistry } from "./registry.ts";

// `npm start` runs in the workspace folder; paths in the environment are meant from where npm was called.
const config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
const logger = createLogger(config.logLevel);
const registry = await startRegistry(config, logger).catch((error: unknown) => {
  logger.fatal({ err: error }, "registry failed to start");
  process.exit(1);
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "shutting down");
    registry.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
