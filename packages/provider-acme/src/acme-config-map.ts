import type { ConfigMap, ConfigMaps } from "@stream-registry/core";
import type { ConfigIssue, ConfigMapDefinition, ConfigScope } from "@stream-registry/provider-api";

export const ACME_MAP = "acme.kafka";

/**
 * The rules of each "acme.kafka" key. A cost center is three digits and one uppercase letter
 * (Acme's finance codes, e.g. "341D"); an owner is a person to mail, so an e-mail address.
 */
const keys = {
  owner: {
    rule: "an e-mail address, e.g. bob@acme.com",
    ok: (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  },
  team: { rule: "a non-empty team name, e.g. widgets-team", ok: (v: string) => v.trim().length > 0 },
  costcenter: {
    rule: 'three digits and an uppercase letter, e.g. "341D"',
    ok: (v: string) => /^[0-9]{3}[A-Z]$/.test(v),
  },
} as const;

export type AcmeKey = keyof typeof keys;
export const ACME_KEYS = Object.keys(keys) as AcmeKey[];

/**
 * Issues with the keys present in one "acme.kafka" map (a stream's, or a binding's override of
 * some of them): unknown keys, values breaking their rule. The map belongs in stream configs only.
 */
export function acmeMapIssues(map: ConfigMap, scope: ConfigScope): ConfigIssue[] {
  if (scope !== "stream") {
    return [
      {
        field: [],
        message: `"${ACME_MAP}" belongs in a stream's or binding's config, not in ${scope} config`,
      },
    ];
  }
  const issues: ConfigIssue[] = [];
  for (const [key, value] of Object.entries(map)) {
    const spec = (keys as Record<string, (typeof keys)[AcmeKey] | undefined>)[key];
    if (!spec) {
      issues.push({ field: [key], message: `unknown key "${key}"; known keys: ${ACME_KEYS.join(", ")}` });
    } else if (typeof value !== "string" || !spec.ok(value)) {
      issues.push({ field: [key], message: `"${key}" must be ${spec.rule}; got ${JSON.stringify(value)}` });
    }
  }
  return issues;
}

/** What a stream bound to an acme cluster must carry: every "acme.kafka" key, each valid. Paths are from the maps. */
export function acmeStreamIssues(maps: ConfigMaps): ConfigIssue[] {
  const map = maps[ACME_MAP];
  if (!map)
    return [{ field: [ACME_MAP], message: `config map "${ACME_MAP}" is required (${ACME_KEYS.join(", ")})` }];
  const missing = ACME_KEYS.filter((key) => map[key] === undefined).map((key) => ({
    field: [ACME_MAP, key],
    message: `"${key}" is required: ${keys[key].rule}`,
  }));
  const invalid = acmeMapIssues(map, "stream").map((issue) => ({
    ...issue,
    field: [ACME_MAP, ...issue.field],
  }));
  return [...missing, ...invalid];
}

export const acmeConfigMap = {
  name: ACME_MAP,
  description:
    'Acme ownership and cost of a stream: "owner" (e-mail), "team" (non-empty), "costcenter" ' +
    '(three digits and an uppercase letter, e.g. "341D"). Required on streams bound to acme clusters.',
  requiredIn: ["stream"],
  validate: acmeMapIssues,
} satisfies ConfigMapDefinition;
