import { type CorpusCase } from "./security-corpus.ts";
import { adminOnlyCases, escalationCases } from "./security-corpus-admin.ts";
import { credentialCases } from "./security-corpus-credentials.ts";
import { cursorCases } from "./security-corpus-cursors.ts";
import { confusedDeputyCases, replayedTokenCases } from "./security-corpus-deputy.ts";
import { limitCases } from "./security-corpus-limits.ts";
import { parentTokenCases } from "./security-corpus-parent-tokens.ts";
import { schemaCases } from "./security-corpus-schema.ts";
import { secretExtractionCases } from "./security-corpus-secrets.ts";
import { headerSpoofingCases } from "./security-corpus-spoofing.ts";
import { readerWritingCases, writerOutOfScopeCases } from "./security-corpus-writes.ts";

/**
 * Every case of the hostile-request corpus, category after category: first who is asking
 * (credentials, tokens of the tree, registries as deputies, spoofed headers), then what a verified
 * principal may do (write, administer, escalate, bomb, extract secrets, see the schema, page a
 * list with another's cursor).
 */
export function corpusCases(): CorpusCase[] {
  return [
    ...credentialCases(),
    ...parentTokenCases(),
    ...replayedTokenCases(),
    ...confusedDeputyCases(),
    ...headerSpoofingCases(),
    ...readerWritingCases(),
    ...writerOutOfScopeCases(),
    ...adminOnlyCases(),
    ...escalationCases(),
    ...limitCases(),
    ...secretExtractionCases(),
    ...schemaCases(),
    ...cursorCases(),
  ];
}
