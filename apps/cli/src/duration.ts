import { UsageError } from "./errors.ts";

/** "90" (seconds), "90s", "500ms", "2m" -> milliseconds. */
export function parseDuration(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new UsageError(`${option} must be a duration like 90, 90s, 500ms or 2m, got "${text}"`);
  const value = Number(match[1]);
  const unit = match[2] ?? "s";
  const ms = unit === "ms" ? value : unit === "s" ? value * 1000 : value * 60_000;
  if (ms <= 0) throw new UsageError(`${option} must be greater than 0, got "${text}"`);
  return ms;
}
