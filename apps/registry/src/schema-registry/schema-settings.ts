import {
  DEFAULT_COMPATIBILITY,
  DEFAULT_SCHEMA_MODE,
  type CompatibilityLevel,
  type SchemaMode,
} from "@stream-registry/core";
import {
  GLOBAL_SCHEMA_CONFIG,
  listSubjects,
  listSubjectVersions,
  readSchemaConfigs,
  writeSchemaConfig,
  writeTransaction,
  type Db,
  type SchemaConfig,
} from "@stream-registry/store";
import { refuse } from "./refusals.ts";
import type { SchemaRegistryDeps } from "./schema-deps.ts";
import { checkSubject } from "./schema-input.ts";

/** A subject's settings, or (undefined) the registry's. */
type Scope = string | undefined;

/** What `setting` is of a subject (or the registry), and what it is when neither sets it. */
const SETTINGS = {
  compatibility: { fallback: DEFAULT_COMPATIBILITY, notConfigured: refuse.compatibilityNotConfigured },
  mode: { fallback: DEFAULT_SCHEMA_MODE, notConfigured: refuse.modeNotConfigured },
} as const;

interface Values {
  compatibility: CompatibilityLevel;
  mode: SchemaMode;
}

/** The level and mode a subject's registrations and deletes go by: its own, else the registry's, else the defaults. */
export async function effectiveSettings(db: Db, subject: string): Promise<Values> {
  const configs = await readSchemaConfigs(db, subject);
  return {
    compatibility:
      configs.subject.compatibility ?? configs.global.compatibility ?? SETTINGS.compatibility.fallback,
    mode: configs.subject.mode ?? configs.global.mode ?? SETTINGS.mode.fallback,
  };
}

/**
 * Compatibility levels and modes (Confluent's /config and /mode), of the registry or of one
 * subject. A subject may have settings before it has versions, as in Confluent.
 */
export class SchemaSettings {
  constructor(private readonly deps: SchemaRegistryDeps) {}

  /**
   * The setting of `subject` (or the registry's). A subject without its own is refused
   * (40408/40409) unless `defaultToGlobal`, which gives the registry's.
   */
  async get<K extends keyof Values>(setting: K, subject: Scope, defaultToGlobal = false): Promise<Values[K]> {
    if (subject !== undefined) checkSubject(subject);
    const configs = await readSchemaConfigs(this.deps.db.prisma, subject);
    const own = configs.subject[setting] as Values[K] | undefined;
    const global =
      (configs.global[setting] as Values[K] | undefined) ?? (SETTINGS[setting].fallback as Values[K]);
    if (subject === undefined) return global;
    if (own !== undefined) return own;
    if (defaultToGlobal) return global;
    throw SETTINGS[setting].notConfigured(subject);
  }

  /**
   * Sets a subject's (or the registry's) level or mode. IMPORT is refused where subjects exist
   * (the registry: any; a subject: its versions) unless `force`: imported ids could clash.
   */
  async set<K extends keyof Values>(
    setting: K,
    subject: Scope,
    value: Values[K],
    options: { actor: string; force?: boolean },
  ): Promise<Values[K]> {
    if (subject !== undefined) checkSubject(subject);
    await writeTransaction(this.deps.db.prisma, async (tx) => {
      if (setting === "mode" && value === "IMPORT" && !options.force) await this.checkEmpty(tx, subject);
      await writeSchemaConfig(tx, subject ?? GLOBAL_SCHEMA_CONFIG, { [setting]: value }, options.actor);
    });
    return value;
  }

  /** Clears a subject's (or the registry's) level or mode; returns what it was (40408/40409 if the subject had none). */
  async clear<K extends keyof Values>(setting: K, subject: Scope, actor: string): Promise<Values[K]> {
    if (subject !== undefined) checkSubject(subject);
    return writeTransaction(this.deps.db.prisma, async (tx) => {
      const configs = await readSchemaConfigs(tx, subject);
      const held: SchemaConfig = subject === undefined ? configs.global : configs.subject;
      const was = held[setting] as Values[K] | undefined;
      if (was === undefined) {
        if (subject !== undefined) throw SETTINGS[setting].notConfigured(subject);
        return SETTINGS[setting].fallback as Values[K];
      }
      await writeSchemaConfig(tx, subject ?? GLOBAL_SCHEMA_CONFIG, { [setting]: null }, actor);
      return was;
    });
  }

  private async checkEmpty(db: Db, subject: Scope): Promise<void> {
    const found =
      subject === undefined
        ? (await listSubjects(db, { includeDeleted: true })).length > 0
        : (await listSubjectVersions(db, subject)).length > 0;
    if (found) {
      throw refuse.notPermitted(
        `Cannot import since found existing subjects${subject === undefined ? "" : ` (${JSON.stringify(subject)})`}; set force=true to import anyway`,
      );
    }
  }
}
