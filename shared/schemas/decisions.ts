/**
 * Team decisions (docs/product.md#team-decisions): a repository's status and quadrant, every
 * change as a decision record that is never edited, proposals members vote on when an admin
 * decides, and the reviews a decision's date makes due.
 */
import { z } from 'zod';

export const DECISION_STATUSES = ['assess', 'trial', 'adopt', 'hold', 'retired'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];
export const decisionStatusSchema = z.enum(DECISION_STATUSES);

/** Statuses whose decision must say why. */
export const RATIONALE_REQUIRED: readonly DecisionStatus[] = ['adopt', 'hold', 'retired'];

export const QUADRANT_COUNT = 4;
export const DEFAULT_QUADRANTS = [
  { key: 'languages', name: 'Languages & Frameworks' },
  { key: 'libraries', name: 'Libraries' },
  { key: 'tools', name: 'Tools' },
  { key: 'platforms', name: 'Platforms' },
] as const;

export const RATIONALE_MAX_LENGTH = 10_000;
export const LINKS_MAX = 20;
export const DECLINE_REASON_MAX_LENGTH = 2000;
export const PROPOSALS_PAGE_DEFAULT = 50;
export const PROPOSALS_PAGE_MAX = 100;

export const RATIONALE_HTML_MESSAGE =
  'Rationale is Markdown without raw HTML: remove the HTML tags (code spans and fenced code blocks may show them).';
export const RATIONALE_REQUIRED_MESSAGE = 'Say why: a rationale is required for adopt, hold and retired.';

/** `<div>`, `</p>`, `<img src=x>`, `<!-- … -->`; Markdown autolinks (`<https://…>`) are not tags. */
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<!--|<!\[CDATA\[|<![A-Za-z]/;

/** Whether Markdown holds raw HTML outside code blocks and code spans (those show it as text). */
export function hasRawHtml(markdown: string): boolean {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
  return HTML_TAG.test(prose);
}

const httpUrl = z
  .string()
  .trim()
  .max(2000, 'A link must be at most 2,000 characters.')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Each link must be an http(s) URL.');

const DATE_MESSAGE = 'review_by must be a date (YYYY-MM-DD).';
const reviewDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, DATE_MESSAGE)
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    DATE_MESSAGE,
  );

const rationaleText = z
  .string()
  .trim()
  .max(
    RATIONALE_MAX_LENGTH,
    `Keep the rationale under ${RATIONALE_MAX_LENGTH.toLocaleString('en')} characters.`,
  )
  .refine((value) => !hasRawHtml(value), RATIONALE_HTML_MESSAGE);

/** A move: to a status (null: none) in a quadrant, with why, links and an optional review date. */
export const decisionBodySchema = z
  .object({
    status: decisionStatusSchema.nullable(),
    quadrant: z.string().trim().min(1).max(40).nullable(),
    rationale: rationaleText.default(''),
    links: z.array(httpUrl).max(LINKS_MAX, `At most ${LINKS_MAX} links.`).default([]),
    review_by: reviewDate.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.status && RATIONALE_REQUIRED.includes(body.status) && body.rationale === '')
      ctx.addIssue({ code: 'custom', path: ['rationale'], message: RATIONALE_REQUIRED_MESSAGE });
    if (body.status && !body.quadrant)
      ctx.addIssue({ code: 'custom', path: ['quadrant'], message: 'Choose a quadrant for the status.' });
  });
export type DecisionBody = z.output<typeof decisionBodySchema>;

const memberRefSchema = z.object({
  /** null when the account was deleted since (the username is kept). */
  id: z.number().int().nullable(),
  username: z.string(),
});

export const decisionSchema = z
  .object({
    id: z.number().int(),
    repository_id: z.string().describe('the repository id the other calls take (owner/name)'),
    from_status: decisionStatusSchema.nullable(),
    to_status: decisionStatusSchema.nullable(),
    from_quadrant: z.string().nullable(),
    to_quadrant: z.string().nullable(),
    rationale: z.string().describe('Markdown without raw HTML'),
    links: z.array(z.string()),
    decided_by: memberRefSchema,
    decided_at: z.string(),
    review_by: z.string().nullable(),
    proposal_id: z.number().int().nullable(),
  })
  .meta({ id: 'Decision' });
export type Decision = z.infer<typeof decisionSchema>;

export const decisionResponseSchema = z.object({ decision: decisionSchema });
export const decisionListSchema = z.object({ decisions: z.array(decisionSchema) });

export const PROPOSAL_STATES = ['open', 'accepted', 'declined'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

export const proposalSchema = z
  .object({
    id: z.number().int(),
    repository_id: z.string(),
    full_name: z.string(),
    state: z.enum(PROPOSAL_STATES),
    status: decisionStatusSchema.nullable(),
    quadrant: z.string().nullable(),
    rationale: z.string(),
    links: z.array(z.string()),
    review_by: z.string().nullable(),
    proposed_by: memberRefSchema,
    proposed_at: z.string(),
    votes: z.object({ up: z.number().int(), down: z.number().int() }),
    my_vote: z.union([z.literal(1), z.literal(-1)]).nullable(),
    resolved_by: memberRefSchema.nullable(),
    resolved_at: z.string().nullable(),
    decline_reason: z.string().nullable(),
    decision_id: z.number().int().nullable(),
  })
  .meta({ id: 'Proposal' });
export type Proposal = z.infer<typeof proposalSchema>;

export const proposalResponseSchema = z.object({ proposal: proposalSchema });

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${PROPOSALS_PAGE_MAX}`;
export const proposalsQuerySchema = z.object({
  state: z.enum(PROPOSAL_STATES, { error: 'state must be open, accepted or declined' }).default('open'),
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(PROPOSALS_PAGE_MAX, LIMIT_MESSAGE)
    .optional(),
  cursor: z.string().max(200, 'Invalid cursor').optional(),
  /** One repository's proposals (owner/name), as its Decision tab lists them. */
  repository: z.string().trim().min(1).max(200).optional(),
});
export type ProposalsQuery = z.output<typeof proposalsQuerySchema>;

export const proposalPageSchema = z.object({
  proposals: z.array(proposalSchema),
  next_cursor: z.string().nullable(),
});

export const proposalIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Invalid proposal id.' })
    .int('Invalid proposal id.')
    .min(1)
    .max(2_147_483_647),
});

export const voteBodySchema = z.object({
  value: z.union([z.literal(1), z.literal(-1)], { error: 'value must be 1 or -1' }),
});
export type VoteBody = z.infer<typeof voteBodySchema>;

export const declineBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Say why the proposal is declined.')
    .max(DECLINE_REASON_MAX_LENGTH, `Keep the reason under ${DECLINE_REASON_MAX_LENGTH} characters.`),
});
export type DeclineBody = z.infer<typeof declineBodySchema>;

const quadrantSchema = z.object({
  key: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9-]{0,39}$/, 'A quadrant key is 1–40 lowercase letters, digits or dashes.'),
  name: z.string().trim().min(1, 'Name the quadrant.').max(60, 'Keep a quadrant name under 60 characters.'),
});

/** Who records decisions on this server (DECISIONS_BY): members directly, or admins on members' proposals. */
export const DECISIONS_BY = ['members', 'admins'] as const;
export type DecisionsBy = (typeof DECISIONS_BY)[number];

/** The quadrants, and who decides: what a decision form needs to offer "Change decision" or "Propose". */
export const quadrantsSchema = z
  .object({ quadrants: z.array(quadrantSchema), decisions_by: z.enum(DECISIONS_BY) })
  .meta({ id: 'Quadrants' });
export type Quadrants = z.infer<typeof quadrantsSchema>;

export const quadrantsBodySchema = z.object({
  quadrants: z
    .array(quadrantSchema)
    .length(QUADRANT_COUNT, `Name exactly ${QUADRANT_COUNT} quadrants.`)
    .refine(
      (list) => new Set(list.map((quadrant) => quadrant.key)).size === list.length,
      'Each quadrant needs its own key.',
    ),
});
export type QuadrantsBody = z.infer<typeof quadrantsBodySchema>;

export const reviewsDueSchema = z.object({
  reviews_due: z.array(
    z.object({
      repository_id: z.string(),
      full_name: z.string(),
      review_by: z.string(),
      decision_id: z.number().int(),
    }),
  ),
});
export type ReviewsDue = z.infer<typeof reviewsDueSchema>;

// ---- proposal comments ------------------------------------------------------------------------

export const PROPOSAL_COMMENT_MAX_LENGTH = 5000;
export const PROPOSAL_COMMENT_HTML_MESSAGE =
  'A comment is Markdown without raw HTML: remove the HTML tags (code spans and fenced code blocks may show them).';

/** `POST /proposals/{id}/comments`: Markdown without raw HTML, 1–5,000 characters. */
export const proposalCommentBodySchema = z.object({
  body: z
    .string({ error: 'Please enter a comment.' })
    .trim()
    .min(1, 'Please enter a comment.')
    .max(
      PROPOSAL_COMMENT_MAX_LENGTH,
      `A comment is at most ${PROPOSAL_COMMENT_MAX_LENGTH.toLocaleString('en')} characters.`,
    )
    .refine((value) => !hasRawHtml(value), PROPOSAL_COMMENT_HTML_MESSAGE),
});
export type ProposalCommentBody = z.infer<typeof proposalCommentBodySchema>;

export const proposalCommentSchema = z
  .object({
    id: z.number().int(),
    author: memberRefSchema,
    body: z.string().describe('Markdown without raw HTML'),
    created_at: z.string(),
  })
  .meta({ id: 'ProposalComment' });
export type ProposalComment = z.infer<typeof proposalCommentSchema>;

/** `GET /proposals/{id}/comments`: oldest first. */
export const proposalCommentListSchema = z.object({ comments: z.array(proposalCommentSchema) });
export type ProposalCommentList = z.infer<typeof proposalCommentListSchema>;
export const proposalCommentResponseSchema = z.object({ comment: proposalCommentSchema });
