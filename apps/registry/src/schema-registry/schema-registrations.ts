import type { CompatibilityLevel, SubjectVersion } from "@stream-registry/core";
import type {
  CompatibilityResult,
  SchemaInput,
  SchemaReference,
  VersionSelector,
} from "@stream-registry/provider-api";
import { checkCompatibility, type ParsedSchema, type PreviousVersion } from "@stream-registry/schemas";
import {
  findSchemaIdByFingerprint,
  insertSubjectVersion,
  listSubjectVersions,
  lockSubjects,
  storeSchema,
  writeTransaction,
  type Db,
} from "@stream-registry/store";
import { refuse } from "./refusals.ts";
import type { SchemaRegistryDeps } from "./schema-deps.ts";
import { checkInput, checkSubject } from "./schema-input.ts";
import { parseInput, parseStored, schemaIdentity } from "./schema-parsing.ts";
import { effectiveSettings } from "./schema-settings.ts";

/** IMPORT mode only: the id (and version) the schema had in the registry it comes from. */
export interface ImportedAs {
  id?: number | undefined;
  version?: number | undefined;
}

/**
 * Registering schemas under subjects, looking them up, and checking candidates: the rules of
 * Confluent's POST /subjects/{s}/versions, POST /subjects/{s} and /compatibility.
 */
export class SchemaRegistrations {
  constructor(private readonly deps: SchemaRegistryDeps) {}

  /**
   * Registers `input` as the next version of `subject`, or returns the live version that already
   * is this schema (a soft-deleted one does not count: the schema gets a new version). One
   * registration of a subject at a time: it is checked against the versions it will follow.
   */
  async register(
    subject: string,
    input: SchemaInput,
    options: { actor: string; imported?: ImportedAs },
  ): Promise<SchemaReference> {
    checkSubject(subject);
    const checked = checkInput(input);
    const { id: importId, version: importVersion } = options.imported ?? {};
    return writeTransaction(this.deps.db.prisma, async (tx) => {
      await lockSubjects(tx, [subject, ...checked.references.map((r) => r.subject)]);
      const { compatibility, mode } = await effectiveSettings(tx, subject);
      if (mode === "READONLY")
        throw refuse.notPermitted(`Subject ${JSON.stringify(subject)} is in read-only mode`);
      if (mode === "IMPORT" && importId === undefined) {
        throw refuse.notPermitted(
          `Subject ${JSON.stringify(subject)} is in import mode: give each schema's id (and version)`,
        );
      }
      if (mode !== "IMPORT" && (importId !== undefined || importVersion !== undefined)) {
        throw refuse.notPermitted(
          `Subject ${JSON.stringify(subject)} is not in import mode: ids and versions are the registry's to give`,
        );
      }
      const parsed = await parseInput(tx, checked);
      const fingerprint = schemaIdentity(parsed, checked.references);
      const versions = await listSubjectVersions(tx, subject);
      const knownId = await findSchemaIdByFingerprint(tx, fingerprint);
      const same = versions.find((v) => !v.deleted && v.id === knownId);
      if (same && (importId === undefined || importId === same.id)) {
        return { subject, version: same.version, id: same.id };
      }
      if (mode !== "IMPORT") {
        const result = await check(tx, compatibility, parsed, versions);
        if (!result.compatible) throw refuse.incompatible(subject, result.messages);
      }
      const version = importVersion ?? (versions.at(-1)?.version ?? 0) + 1;
      if (versions.some((v) => v.version === version)) {
        throw refuse.notPermitted(`Version ${version} of subject ${JSON.stringify(subject)} exists already`);
      }
      const id = await storeSchema(tx, {
        schemaType: checked.schemaType,
        schema: checked.schema,
        canonical: parsed.canonical,
        fingerprint,
        references: checked.references,
        ...(importId !== undefined && { id: importId }),
      });
      if (id === "id-taken") {
        throw refuse.notPermitted(
          knownId === undefined
            ? `Overwrite new schema with id ${importId} is not permitted: another schema has it`
            : `This schema is registered with id ${knownId}, not ${importId}`,
        );
      }
      await insertSubjectVersion(
        tx,
        { subject, version, schemaId: id, schemaType: checked.schemaType },
        options.actor,
      );
      return { subject, version, id };
    });
  }

  /**
   * The version of `subject` that is this schema (POST /subjects/{s}): 40401 when the subject
   * has no (live) versions, 40403 when none is this schema.
   */
  async lookup(subject: string, input: SchemaInput, includeDeleted = false): Promise<SubjectVersion> {
    checkSubject(subject);
    const checked = checkInput(input);
    const db = this.deps.db.prisma;
    const versions = (await listSubjectVersions(db, subject)).filter((v) => includeDeleted || !v.deleted);
    if (versions.length === 0) throw refuse.subjectNotFound(subject);
    const parsed = await parseInput(db, checked, false);
    const id = await findSchemaIdByFingerprint(db, schemaIdentity(parsed, checked.references));
    // The newest: a schema soft-deleted and registered again is its live version.
    const found = versions.findLast((v) => v.id === id);
    if (!found) throw refuse.schemaNotFound();
    return found;
  }

  /**
   * Whether `input` could be registered under `subject` as its level stands: against one live
   * version (or the latest), or, with `version` undefined, against those the level checks.
   * A subject without versions accepts anything.
   */
  async test(
    subject: string,
    version: VersionSelector | undefined,
    input: SchemaInput,
  ): Promise<CompatibilityResult> {
    checkSubject(subject);
    const checked = checkInput(input);
    const db = this.deps.db.prisma;
    const live = (await listSubjectVersions(db, subject)).filter((v) => !v.deleted);
    let against = live;
    if (typeof version === "number") {
      against = live.filter((v) => v.version === version);
      if (against.length === 0) throw refuse.versionNotFound(subject, version);
    } else if (version === "latest") {
      against = live.slice(-1);
    }
    const parsed = await parseInput(db, checked);
    const { compatibility } = await effectiveSettings(db, subject);
    return check(db, compatibility, parsed, against);
  }
}

/** Checks `candidate` against the live versions `level` looks at (the latest, or all when transitive). */
async function check(
  db: Db,
  level: CompatibilityLevel,
  candidate: ParsedSchema,
  versions: readonly SubjectVersion[],
): Promise<CompatibilityResult> {
  const live = versions.filter((v) => !v.deleted);
  const relevant = level === "NONE" ? [] : level.endsWith("_TRANSITIVE") ? live : live.slice(-1);
  const previous: PreviousVersion[] = [];
  for (const v of relevant) previous.push({ version: v.version, schema: await parseStored(db, v) });
  const { compatible, messages } = checkCompatibility(level, candidate, previous);
  return { compatible, messages: [...messages] };
}
