import { pino, type Logger } from "pino";
import { LOG_REDACTED, REDACTED_LOG_PATHS, redactText } from "./log-redaction.ts";

export type { Logger };

/**
 * Structured JSON logs on stdout, one object per line, without credentials: credential headers
 * are censored where a logged object holds them, and every line is scrubbed before it is written
 * (query values, passwords in URLs, Bearer and Basic credentials, API tokens: log-redaction.ts).
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "stream-registry", pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_LOG_PATHS, censor: LOG_REDACTED },
    hooks: { streamWrite: redactText },
  });
}
