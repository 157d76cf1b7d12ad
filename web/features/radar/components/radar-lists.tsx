import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatDate } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import { RADAR_RINGS, type Radar, type RadarBlip } from '#shared/schemas/radar.ts';
import { quadrantColour } from '../lib/radar-palette.ts';
import { atRiskText, CAUSE_NAMES, MOVE_NAMES, quadrantName, STATUS_NAMES } from '../lib/radar-text.ts';
import classes from './radar.module.css';

const MOVE_SIGNS = { new: '★', in: '▲', out: '▼' } as const;

/** A repository's name, linking to its page while it exists. */
export function RepositoryName({ id, name }: { id: string | null; name: string }) {
  if (!id) return <span style={{ overflowWrap: 'anywhere' }}>{name}</span>;
  return (
    <Anchor component={Link} to={`/repo/${encodeRouteId(id)}`} style={{ overflowWrap: 'anywhere' }}>
      {name}
    </Anchor>
  );
}

/** A blip's move and risk in words, after its name. */
function BlipMarkers({ blip }: { blip: RadarBlip }) {
  return (
    <>
      {blip.moved && (
        <Text span size="sm" c="dimmed" className={classes.marker}>
          {' '}
          <span aria-hidden>{MOVE_SIGNS[blip.moved]} </span>
          {MOVE_NAMES[blip.moved]}
        </Text>
      )}
      {blip.at_risk && (
        <Text span size="sm" className={classes.risk}>
          {' '}
          <span aria-hidden>! </span>
          {atRiskText(blip)}
        </Text>
      )}
    </>
  );
}

/**
 * The legend, one card per quadrant with its blips by ring and number: the drawing's content in
 * words, and a link per repository.
 */
export function QuadrantLegends({ radar }: { radar: Radar }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      {radar.quadrants.map((quadrant, index) => {
        const blips = radar.blips.filter((blip) => blip.quadrant === quadrant.key);
        const headingId = `radar-quadrant-${index}`;
        return (
          <Paper
            key={quadrant.key}
            withBorder
            radius="md"
            p="md"
            component="section"
            aria-labelledby={headingId}
            style={{ borderTop: `4px solid ${quadrantColour(index)}` }}
          >
            <Title order={2} size="h4" id={headingId} mb="xs">
              {quadrant.name}
            </Title>
            {blips.length === 0 ? (
              <Text size="sm" c="dimmed">
                Nothing in this quadrant.
              </Text>
            ) : (
              <Stack gap="sm">
                {RADAR_RINGS.map((ring) => {
                  const inRing = blips.filter((blip) => blip.status === ring);
                  if (inRing.length === 0) return null;
                  return (
                    <div key={ring}>
                      <Title order={3} size="h6" mb={4}>
                        {STATUS_NAMES[ring]}
                      </Title>
                      <ul
                        className={classes.plainList}
                        aria-label={`${quadrant.name}: ${STATUS_NAMES[ring]}`}
                      >
                        {inRing.map((blip) => (
                          <li key={blip.number} data-legend={blip.number}>
                            <Text size="sm" span>
                              {blip.number}.{' '}
                            </Text>
                            <Text size="sm" span>
                              <RepositoryName id={blip.repository_id} name={blip.full_name} />
                            </Text>
                            <BlipMarkers blip={blip} />
                          </li>
                        ))}
                      </ul>
                    </div>
                  );
                })}
              </Stack>
            )}
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}

/** Retired repositories, apart from the rings. */
export function RetiredList({ radar }: { radar: Radar }) {
  if (radar.retired.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="radar-retired">
      <Title order={2} size="h4" id="radar-retired" mb="xs">
        Retired
      </Title>
      <ul className={classes.plainList}>
        {radar.retired.map((entry) => (
          <li key={`${entry.quadrant}-${entry.full_name}`}>
            <Text size="sm" span>
              <RepositoryName id={entry.repository_id} name={entry.full_name} />
            </Text>
            <Text size="sm" span c="dimmed">
              {' '}
              · {quadrantName(radar, entry.quadrant)}
            </Text>
          </li>
        ))}
      </ul>
    </Paper>
  );
}

/** Adopt and Trial blips at risk, with their causes in words. */
export function AtRiskPanel({ radar }: { radar: Radar }) {
  const atRisk = radar.blips.filter((blip) => blip.at_risk);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="radar-at-risk">
      <Title order={2} size="h4" id="radar-at-risk" mb="xs">
        Adopted but at risk
      </Title>
      {atRisk.length === 0 ? (
        <Text size="sm" c="dimmed">
          No repository in Adopt or Trial is at risk.
        </Text>
      ) : (
        <Stack component="ul" gap={6} className={classes.plainList}>
          {atRisk.map((blip) => (
            <li key={blip.number}>
              <Text size="sm" span>
                {blip.number}. <RepositoryName id={blip.repository_id} name={blip.full_name} />
              </Text>
              <Text size="sm" span c="dimmed">
                {' '}
                · {STATUS_NAMES[blip.status]}
              </Text>
              <Text size="sm" className={classes.risk}>
                {blip.at_risk_causes.length > 0
                  ? blip.at_risk_causes.map((cause) => CAUSE_NAMES[cause]).join(', ')
                  : 'at risk'}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** Decisions whose review date has come (the current radar only). */
export function ReviewsDuePanel({ radar }: { radar: Radar }) {
  if (radar.edition) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="radar-reviews-due">
      <Title order={2} size="h4" id="radar-reviews-due" mb="xs">
        Reviews due
      </Title>
      {radar.reviews_due.length === 0 ? (
        <Text size="sm" c="dimmed">
          No decision is due for review.
        </Text>
      ) : (
        <Stack component="ul" gap={6} className={classes.plainList}>
          {radar.reviews_due.map((review) => (
            <li key={review.decision_id}>
              <Text size="sm" span>
                <RepositoryName id={review.repository_id} name={review.full_name} />
              </Text>
              <Text size="sm" span c="dimmed">
                {' '}
                · review by {formatDate(review.review_by, { timeZone: 'UTC' })}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
