/**
 * The technology radar (docs/product.md#the-radar): the team's current decisions drawn as blips
 * in four quadrants and four rings, Retired listed apart, frozen editions an admin publishes and
 * compares, and the adopted-but-at-risk flags.
 */
import { z } from 'zod';
import { decisionStatusSchema, reviewsDueSchema } from './decisions.ts';
import { HEALTH_GRADES } from './health.ts';

/** The rings from the centre out; Retired is not a ring. */
export const RADAR_RINGS = ['adopt', 'trial', 'assess', 'hold'] as const;
export type RadarRing = (typeof RADAR_RINGS)[number];
export const radarRingSchema = z.enum(RADAR_RINGS);

/** Statuses whose repositories are in use, and so flagged when at risk. */
export const IN_USE_STATUSES: readonly RadarRing[] = ['adopt', 'trial'];

/**
 * Why an adopted or trialled repository is at risk: its health grade is at_risk or archived, or
 * it has an open high or critical advisory. One `adopted_at_risk` event per repository and cause.
 */
export const AT_RISK_CAUSES = ['health_at_risk', 'archived', 'advisory'] as const;
export type AtRiskCause = (typeof AT_RISK_CAUSES)[number];
export const atRiskCauseSchema = z.enum(AT_RISK_CAUSES);

/** Against the previous edition: not in it, moved towards Adopt, moved away from it, or unchanged. */
export const BLIP_MOVES = ['new', 'in', 'out'] as const;
export type BlipMove = (typeof BLIP_MOVES)[number];

export const EDITION_NAME_MAX_LENGTH = 60;

/** Edition ids in queries and paths: PostgreSQL's integer range, so junk is a 400 and never reaches the database. */
const editionIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

export const radarQuerySchema = z.object({
  tag: z.string().trim().min(1).max(50).optional(),
  /** An edition's id: that frozen radar instead of the current one. */
  edition: editionIdSchema.optional(),
});
export type RadarQuery = z.output<typeof radarQuerySchema>;

export const radarBlipSchema = z
  .object({
    /** 1…n, numbered quadrant by quadrant and ring by ring, then by name. */
    number: z.number().int().positive(),
    /** Null in an edition once the repository was deleted. */
    repository_id: z.string().nullable(),
    full_name: z.string(),
    quadrant: z.string(),
    status: radarRingSchema,
    moved: z.enum(BLIP_MOVES).nullable(),
    /** The Markdown rationale of the decision that put it there. */
    rationale: z.string(),
    health_grade: z.enum(HEALTH_GRADES).nullable(),
    at_risk: z.boolean(),
    at_risk_causes: z.array(atRiskCauseSchema),
  })
  .meta({ id: 'RadarBlip' });
export type RadarBlip = z.infer<typeof radarBlipSchema>;

export const radarRetiredSchema = z.object({
  repository_id: z.string().nullable(),
  full_name: z.string(),
  quadrant: z.string(),
  rationale: z.string(),
});
export type RadarRetired = z.infer<typeof radarRetiredSchema>;

export const radarEditionSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    published_at: z.string(),
    published_by: z.object({ id: z.number().int().nullable(), username: z.string() }),
    blip_count: z.number().int(),
  })
  .meta({ id: 'RadarEdition' });
export type RadarEdition = z.infer<typeof radarEditionSchema>;

export const radarSchema = z
  .object({
    quadrants: z.array(z.object({ key: z.string(), name: z.string() })),
    rings: z.array(radarRingSchema),
    blips: z.array(radarBlipSchema),
    retired: z.array(radarRetiredSchema),
    reviews_due: reviewsDueSchema.shape.reviews_due,
    /** The edition shown; null: the current radar. */
    edition: radarEditionSchema.nullable(),
    /** The edition `moved` is measured against; null when none was published before. */
    previous_edition: radarEditionSchema.nullable(),
  })
  .meta({ id: 'Radar' });
export type Radar = z.infer<typeof radarSchema>;

export const radarEditionsSchema = z.object({ editions: z.array(radarEditionSchema) });
export type RadarEditions = z.infer<typeof radarEditionsSchema>;

export const publishEditionBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Name the edition, for example "2026 Q4".')
    .max(EDITION_NAME_MAX_LENGTH, `Keep an edition name under ${EDITION_NAME_MAX_LENGTH} characters.`),
});
export type PublishEditionBody = z.infer<typeof publishEditionBodySchema>;

export const radarEditionResponseSchema = z.object({ edition: radarEditionSchema });

export const editionCompareParamsSchema = z.object({
  a: editionIdSchema,
  b: editionIdSchema,
});

const placementSchema = z.object({ status: decisionStatusSchema, quadrant: z.string() });

export const editionCompareSchema = z
  .object({
    from: radarEditionSchema,
    to: radarEditionSchema,
    moves: z.array(
      z.object({
        repository_id: z.string().nullable(),
        full_name: z.string(),
        /** Null: not on the earlier edition. */
        from: placementSchema.nullable(),
        /** Null: not on the later edition. */
        to: placementSchema.nullable(),
        /** 'in' towards Adopt, 'out' away from it, null for a quadrant change, arrival or departure. */
        direction: z.enum(['in', 'out']).nullable(),
        /** The later edition's rationale, or the earlier one's when it left. */
        rationale: z.string(),
      }),
    ),
  })
  .meta({ id: 'RadarEditionCompare' });
export type EditionCompare = z.infer<typeof editionCompareSchema>;

/** build-your-own-radar's CSV header, in its order. */
export const BYOR_CSV_COLUMNS = ['name', 'ring', 'quadrant', 'isNew', 'description'] as const;
