import type { Generated } from 'kysely';
import type { DecisionStatus } from '#shared/schemas/decisions.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';

/**
 * The tables of the radar module (docs/product.md#the-radar): published editions with their own
 * copy of every entry and of the quadrant names, and the at-risk marks that make each
 * `adopted_at_risk` event happen once per repository and cause. `Database` in schema.ts extends
 * `RadarTables`.
 */

export interface RadarTables {
  radar_editions: RadarEditionsTable;
  radar_edition_quadrants: RadarEditionQuadrantsTable;
  radar_edition_entries: RadarEditionEntriesTable;
  radar_at_risk_marks: RadarAtRiskMarksTable;
}

/** A frozen radar an admin published; its name is unique. */
export interface RadarEditionsTable {
  id: Generated<number>;
  name: string;
  published_at: string;
  published_by: number | null;
  /** The publisher's username, kept when the account is deleted. */
  published_by_name: string;
}

/** The four quadrants as they were named when the edition was published, in order. */
export interface RadarEditionQuadrantsTable {
  edition_id: number;
  position: number;
  key: string;
  name: string;
}

/**
 * One blip or retired entry of an edition, copied so it outlives its repository: `repository_id`
 * has no foreign key (ids are never reused), `private` is the repository's flag when published
 * (who may read an entry whose repository is gone).
 */
export interface RadarEditionEntriesTable {
  id: Generated<number>;
  edition_id: number;
  repository_id: number | null;
  private: number;
  full_name: string;
  quadrant: string;
  quadrant_name: string;
  /** adopt, trial, assess, hold or retired. */
  status: DecisionStatus;
  rationale: string;
  health_grade: HealthGrade | null;
  /** JSON array of the at-risk causes when published. */
  at_risk_causes: string;
}

/** An `adopted_at_risk` event recorded for this repository and cause; cleared when the cause goes. */
export interface RadarAtRiskMarksTable {
  repository_id: number;
  cause: string;
  marked_at: string;
}
