import { coreSecretRule, isSecret, REDACTED, redactEmbeddedCredentials } from "@stream-registry/core";

/**
 * What hides a connector's secrets in text Connect answers (an error's message, a task's trace):
 * every value of the config that is a secret (a key such as "database.password", a value shaped
 * like a credential) replaced wherever it appears, then any credential a URL or a "password=..."
 * parameter embeds. Connect itself shows them in clear (`GET /connectors/{name}`), and a
 * connector's exception may quote them.
 */
export function secretRedactor(config: Record<string, unknown>): (text: string) => string {
  const secrets = Object.entries(config)
    .filter(
      ([key, value]) => typeof value === "string" && value !== "" && isSecret("", key, value, coreSecretRule),
    )
    .map(([, value]) => value as string)
    // Longer first, so that a secret holding another is hidden whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let shown = text;
    for (const secret of secrets) shown = shown.split(secret).join(REDACTED);
    return redactEmbeddedCredentials(shown);
  };
}

/** Hides only embedded credentials: for text read before the connector's config is known. */
export const embeddedRedactor = (text: string): string => redactEmbeddedCredentials(text);

/** The redactor of a request: the secrets of all its maps, before any is chosen as the connector's. */
export function requestRedactor(
  configMaps: Record<string, Record<string, unknown>>,
): (text: string) => string {
  // Keys kept distinct across maps by the map's name (the last word of a key is what makes it
  // secret, so a prefix keeps that): two maps with the same secret key keep both secrets.
  return secretRedactor(
    Object.fromEntries(
      Object.entries(configMaps).flatMap(([map, values]) =>
        Object.entries(values).map(([key, value]) => [`${map}/${key}`, value]),
      ),
    ),
  );
}
