import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { ConfigMaps } from "@stream-registry/core";

/**
 * How this registry reaches a cluster it has not been told about yet: the provider and config a
 * `DECLARE CLUSTER "name";` takes when it names neither, so that the seed's statements run
 * verbatim against real clusters. Read from REGISTRY_CLUSTERS_FILE at start-up.
 */
export interface ClusterPreset {
  provider?: string;
  config?: ConfigMaps;
}

/** Presets by cluster name, and the file they came from (for messages). */
export interface ClusterPresets {
  file: string | undefined;
  clusters: ReadonlyMap<string, ClusterPreset>;
}

export const NO_CLUSTER_PRESETS: ClusterPresets = { file: undefined, clusters: new Map() };

const configValue = z.union([z.string(), z.number(), z.boolean()], {
  error: "must be a string, number or boolean",
});
const presetSchema = z.strictObject(
  {
    provider: z.string().min(1, "must not be empty").optional(),
    config: z.record(z.string(), z.record(z.string(), configValue)).optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown key(s) ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}; a cluster has only "provider" and "config"`
        : undefined,
  },
);
const fileSchema = z.record(z.string(), presetSchema);

/**
 * Reads the presets file (JSON, or YAML when it ends in .yaml/.yml), resolved against `cwd`.
 * Throws one error naming the file and every offending key with its rule. Messages never repeat
 * values: the file may hold secrets (passwords in a cluster's connection config).
 */
export function readClusterPresets(file: string, cwd: string): ClusterPresets {
  const resolved = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(resolved, "utf8");
  } catch (error) {
    throw new Error(`REGISTRY_CLUSTERS_FILE ${resolved}: cannot read it (${(error as Error).message})`);
  }
  let data: unknown;
  try {
    data = /\.ya?ml$/i.test(resolved) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    const format = /\.ya?ml$/i.test(resolved) ? "YAML" : "JSON";
    throw new Error(
      `REGISTRY_CLUSTERS_FILE ${resolved}: not valid ${format} (${(error as Error).message.split("\n")[0]})`,
    );
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${formatKey(issue.path) || "(top level)"}: ${issue.message}`,
    );
    throw new Error(`REGISTRY_CLUSTERS_FILE ${resolved} is invalid:\n${lines.join("\n")}`);
  }
  return { file: resolved, clusters: new Map(Object.entries(parsed.data)) };
}

/** A key path as cluster001.config."apache.kafka": quoted where a segment holds a dot or the like. */
export function formatKey(segments: readonly PropertyKey[]): string {
  return segments
    .map((segment) => String(segment))
    .map((segment) => (/^[A-Za-z0-9_-]+$/.test(segment) ? segment : JSON.stringify(segment)))
    .join(".");
}
