/**
 * What changed in the catalogue (docs/product.md#activity): the event types the sync engine and
 * the add path record, and the details each carries. Read by the activity feed, the Atom feed
 * and the notification rules.
 */
import { z } from 'zod';

export const EVENT_TYPES = [
  'repository_added',
  'release_published',
  'archived',
  'unarchived',
  'license_changed',
  'renamed',
  'gone',
  'description_changed',
  'topics_changed',
  'star_milestone',
  'stale',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const eventTypeSchema = z.enum(EVENT_TYPES);

/** Star counts whose crossing (after the repository was added) is an event. */
export const STAR_MILESTONES = [
  1_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
] as const;

/** The details of each type, stored as JSON in `repository_events.data`. */
export const eventDataSchemas = {
  repository_added: z.object({}),
  release_published: z.object({
    tag: z.string(),
    name: z.string().nullable(),
    url: z.string().nullable(),
    prerelease: z.boolean(),
  }),
  archived: z.object({}),
  unarchived: z.object({}),
  license_changed: z.object({ from: z.string(), to: z.string() }),
  renamed: z.object({ from: z.string(), to: z.string() }),
  gone: z.object({}),
  description_changed: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  topics_changed: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }),
  star_milestone: z.object({ milestone: z.number().int(), stars: z.number().int() }),
  stale: z.object({ last_commit: z.string().nullable(), days: z.number().int() }),
} satisfies Record<EventType, z.ZodType>;

export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;

/** An event to record: the type with its details. */
export type NewEvent = {
  [T in EventType]: {
    type: T;
    repository_id: number;
    data: EventData<T>;
    occurred_at?: string;
    user_id?: number | null;
  };
}[EventType];
