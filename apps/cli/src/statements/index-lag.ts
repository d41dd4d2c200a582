import type { Warning } from "../client/execute.ts";

/** How far behind one registry's change feed the discovery index that answered is (IndexLag). */
export interface IndexLag {
  namespace: string;
  entriesBehind: number;
  secondsBehind: number;
  syncedAt: string | null;
  lastError: string | null;
}

export const INDEX_LAG_FIELDS = "namespace entriesBehind secondsBehind syncedAt lastError";

/** The code of a lag warning: the answer is complete as of the index, only older (not PARTIAL). */
export const INDEX_LAG = "INDEX_LAG";

/** More seconds behind than this (or any entry behind, or a failed read) is worth a warning. */
export const LAG_WARNING_SECONDS = 5;

/** Whether the index is behind a namespace enough to say so. */
export function isBehind(lag: IndexLag): boolean {
  return lag.entriesBehind > 0 || lag.lastError !== null || lag.secondsBehind > LAG_WARNING_SECONDS;
}

/** How far behind: "12 entries / 3.2 s", "1 entry / 41 s", "0.2 s". */
export function lagAmount(lag: IndexLag): string {
  const seconds =
    lag.secondsBehind < 100 ? lag.secondsBehind.toFixed(1) : String(Math.round(lag.secondsBehind));
  const entries = lag.entriesBehind === 1 ? "1 entry" : `${lag.entriesBehind} entries`;
  return lag.entriesBehind > 0 ? `${entries} / ${seconds} s` : `${seconds} s`;
}

/** " (last error: ...)" when the last read of the namespace's feed failed. */
function lastError(lag: IndexLag): string {
  return lag.lastError ? ` (last error: ${lag.lastError})` : "";
}

/** SHOW NAMESPACES' cell: "0.2 s", "12 entries / 3.2 s (last error: ...)". */
export function describeLag(lag: IndexLag): string {
  return `${lagAmount(lag)}${lastError(lag)}`;
}

/** The warning for a namespace the index is behind, printed as the partial-result warnings are. */
export function lagWarning(lag: IndexLag): Warning {
  return {
    code: INDEX_LAG,
    namespace: lag.namespace,
    message: `the registry's index is ${lagAmount(lag)} behind this namespace${lastError(lag)}; use --consistency live for a live answer`,
    lag: {
      entriesBehind: lag.entriesBehind,
      secondsBehind: lag.secondsBehind,
      syncedAt: lag.syncedAt,
      lastError: lag.lastError,
    },
  };
}

/** Whether a warning means data is missing (PARTIAL), rather than that the index is behind. */
export function isPartial(warning: Warning): boolean {
  return warning.code !== INDEX_LAG;
}
