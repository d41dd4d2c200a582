import type { ConfigMap, ConfigMaps } from "@stream-registry/core";
import type { ConfigIssue, ConfigMapDefinition, ConfigScope } from "@stream-registry/provider-api";

export const ACME_MAP = "acme.kafka";

/**
 * The rules of each "acme.kafka" key. A cost center is three digits and one uppercase letter
 * (Acme's finance codes, e.g. "341D"); an owner is a person to mail, so an e-mail address. The
 * optional alerts webhook is a chat channel's incoming-webhook URL: whoever holds it can post to
 * the channel, so it is a secret, though no rule on key names could tell.
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
  "alerts.webhook": { rule: "an https:// URL", ok: (v: string) => /^https:\/\/\S+$/.test(v) },
} as const;

export type AcmeKey = keyof typeof keys;
export const ACME_KEYS = Object.keys(keys) as AcmeKey[];
/** The keys every stream bound to an acme cluster must carry. */
export const ACME_REQUIRED_KEYS: AcmeKey[] = ["owner", "team", "costcenter"];
/** Keys whose values are secrets: the registry stores them but never shows them. */
export const ACME_SECRET_KEYS: AcmeKey[] = ["alerts.webhook"];

/** The map without its secrets, for labels that are shown (observations). */
export function acmeLabels(map: ConfigMap | undefined): ConfigMap {
  return Object.fromEntries(
    Object.entries(map ?? {}).filter(([key]) => !(ACME_SECRET_KEYS as string[]).includes(key)),
  );
}

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
      // Messages reach logs and the binding's status: a secret's value is never echoed.
      const got = (ACME_SECRET_KEYS as string[]).includes(key) ? "" : `; got ${JSON.stringify(value)}`;
      issues.push({ field: [key], message: `"${key}" must be ${spec.rule}${got}` });
    }
  }
  return issues;
}

/** What a stream bound to an acme cluster must carry: every "acme.kafka" key, each valid. Paths are from the maps. */
export function acmeStreamIssues(maps: ConfigMaps): ConfigIssue[] {
  const map = maps[ACME_MAP];
  if (!map)
    return [
      {
        field: [ACME_MAP],
        message: `config map "${ACME_MAP}" is required (${ACME_REQUIRED_KEYS.join(", ")})`,
      },
    ];
  const missing = ACME_REQUIRED_KEYS.filter((key) => map[key] === undefined).map((key) => ({
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
    '(three digits and an uppercase letter, e.g. "341D"), required on streams bound to acme clusters; ' +
    'optional "alerts.webhook" (https URL, secret: never shown).',
  requiredIn: ["stream"],
  validate: acmeMapIssues,
  secretKeys: ACME_SECRET_KEYS,
} satisfies ConfigMapDefinition;
