import type { ConfigClauses } from "@stream-registry/ddl";
import type { Connection, Warning } from "../client/execute.ts";
import type { Consistency } from "../consistency.ts";
import type { StatementOutput } from "../output/result.ts";

export interface WaitOptions {
  timeoutMs: number;
  /** Progress lines (srctl prints them to stderr). */
  progress: (line: string) => void;
  /** First and largest pause between polls. */
  pollBaseMs?: number;
  pollMaxMs?: number;
  /** The run's: cancels a pause between polls. */
  signal?: AbortSignal | undefined;
}

/** What a statement's translation may use. */
export interface StatementContext extends Connection {
  /** Set when the caller asked to wait until asynchronous work settles. */
  wait: WaitOptions | undefined;
  /** Directory FILE paths are resolved against (the script's directory). */
  baseDir: string;
  /** `--namespace`: the absolute namespace statements apply to; undefined for the registry's own. */
  namespace: string | undefined;
  /** `--consistency`: lists of the subtree from the registry's discovery index, or asked live. */
  consistency: Consistency;
}

export interface Outcome {
  output: StatementOutput;
  warnings: Warning[];
}

/** A statement's WITH [PRODUCER|CONSUMER] CONFIG clauses as mutation input fields. */
export function configInput(s: ConfigClauses) {
  return { config: s.config, producerConfig: s.producerConfig, consumerConfig: s.consumerConfig };
}

export function outcome(output: StatementOutput, warnings: Warning[] = []): Outcome {
  return { output, warnings };
}

/** GraphQL selection every mutation payload has. */
export const USER_ERRORS = "userErrors { code field message }";
export const STATUS = "status { phase generation observedGeneration message }";
