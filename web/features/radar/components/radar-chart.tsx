import { Text } from '@mantine/core';
import { forwardRef, type KeyboardEvent, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { encodeRouteId } from '#shared/route-id.ts';
import { RADAR_RINGS, type Radar, type RadarBlip } from '#shared/schemas/radar.ts';
import {
  type BlipPlace,
  CENTRE,
  layoutBlips,
  OUTER_RADIUS,
  RING_RADII,
  SIZE,
  sectorPath,
  towardsCentre,
} from '../lib/radar-layout.ts';
import { PALETTE, quadrantColour } from '../lib/radar-palette.ts';
import {
  atRiskText,
  blipLabel,
  MOVE_NAMES,
  quadrantName,
  radarSummary,
  STATUS_NAMES,
} from '../lib/radar-text.ts';
import classes from './radar.module.css';

/** How much of each ring's sector is tinted with the quadrant's colour, Adopt strongest. */
const RING_TINT = [0.22, 0.15, 0.1, 0.05];

/** Where each quadrant's name is written: the drawing's corners, in quadrant order. */
const NAME_CORNERS = [
  { x: 8, y: 26, anchor: 'start' },
  { x: SIZE - 8, y: 26, anchor: 'end' },
  { x: 8, y: SIZE - 12, anchor: 'start' },
  { x: SIZE - 8, y: SIZE - 12, anchor: 'end' },
] as const;

/**
 * The radar drawn as SVG (docs/product.md#radar-screen): four quadrants, four rings, a numbered
 * circle per blip with its move and at-risk marks. Each blip with a repository is a link (Tab,
 * Enter, click) and shows its details on hover or focus.
 */
export const RadarChart = forwardRef<SVGSVGElement, { radar: Radar }>(function RadarChart({ radar }, ref) {
  const navigate = useNavigate();
  const tooltipId = useId();
  const quadrantKeys = useMemo(() => radar.quadrants.map((quadrant) => quadrant.key), [radar.quadrants]);
  const places = useMemo(() => layoutBlips(radar.blips, quadrantKeys), [radar.blips, quadrantKeys]);
  const [active, setActive] = useState<number | null>(null);
  const activeBlip = active === null ? undefined : radar.blips.find((blip) => blip.number === active);
  const activePlace = active === null ? undefined : places.get(active);

  const open = (blip: RadarBlip) => {
    if (blip.repository_id) navigate(`/repo/${encodeRouteId(blip.repository_id)}`);
  };
  const onKeyDown = (event: KeyboardEvent, blip: RadarBlip) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      open(blip);
    } else if (event.key === 'Escape') setActive(null);
  };

  return (
    <div className={classes.chart}>
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG drawing holding links, not a form's fieldset */}
      <svg
        ref={ref}
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        className={classes.svg}
        role="group"
        aria-label={radarSummary(radar)}
        style={{ fontFamily: PALETTE.font }}
      >
        {radar.quadrants
          .slice(0, 4)
          .map((quadrant, index) =>
            RADAR_RINGS.map((ring, ringIndex) => (
              <path
                key={`${quadrant.key}-${ring}`}
                d={sectorPath(ring, index)}
                style={{ fill: quadrantColour(index), stroke: PALETTE.border }}
                fillOpacity={RING_TINT[ringIndex]}
                strokeWidth={1}
              />
            )),
          )}
        <line
          x1={CENTRE - OUTER_RADIUS}
          y1={CENTRE}
          x2={CENTRE + OUTER_RADIUS}
          y2={CENTRE}
          style={{ stroke: PALETTE.border }}
          strokeWidth={2}
        />
        <line
          x1={CENTRE}
          y1={CENTRE - OUTER_RADIUS}
          x2={CENTRE}
          y2={CENTRE + OUTER_RADIUS}
          style={{ stroke: PALETTE.border }}
          strokeWidth={2}
        />
        {RADAR_RINGS.map((ring) => {
          const [inner, outer] = RING_RADII[ring];
          const y = CENTRE - (inner + outer) / 2 + (inner === 0 ? 24 : 0);
          return (
            <text
              key={ring}
              x={CENTRE}
              y={y}
              textAnchor="middle"
              dominantBaseline="central"
              fontSize={20}
              fontWeight={700}
              paintOrder="stroke"
              strokeWidth={5}
              style={{ fill: PALETTE.text, stroke: PALETTE.body }}
            >
              {STATUS_NAMES[ring]}
            </text>
          );
        })}
        {radar.quadrants.slice(0, 4).map((quadrant, index) => {
          const corner = NAME_CORNERS[index];
          if (!corner) return null;
          return (
            <text
              key={quadrant.key}
              x={corner.x}
              y={corner.y}
              textAnchor={corner.anchor}
              fontSize={24}
              fontWeight={700}
              style={{ fill: quadrantColour(index) }}
            >
              {quadrant.name}
            </text>
          );
        })}
        {radar.blips.map((blip) => {
          const place = places.get(blip.number);
          if (!place) return null;
          const quadrant = quadrantKeys.indexOf(blip.quadrant);
          const linked = blip.repository_id !== null;
          return (
            // biome-ignore lint/a11y/noStaticElementInteractions: a link (role) when it has a repository, else an image that shows its tooltip on hover
            <g
              key={blip.number}
              className={classes.blip}
              transform={`translate(${place.x.toFixed(1)} ${place.y.toFixed(1)})`}
              role={linked ? 'link' : 'img'}
              tabIndex={linked ? 0 : undefined}
              aria-label={blipLabel(radar, blip)}
              aria-describedby={active === blip.number ? tooltipId : undefined}
              data-blip={blip.number}
              onClick={() => open(blip)}
              onKeyDown={(event) => onKeyDown(event, blip)}
              onFocus={() => setActive(blip.number)}
              onBlur={() => setActive((current) => (current === blip.number ? null : current))}
              onMouseEnter={() => setActive(blip.number)}
              onMouseLeave={() => setActive((current) => (current === blip.number ? null : current))}
            >
              <BlipMarks blip={blip} place={place} colour={quadrantColour(quadrant)} />
            </g>
          );
        })}
      </svg>
      {activeBlip && activePlace && (
        <BlipTooltip id={tooltipId} radar={radar} blip={activeBlip} place={activePlace} />
      )}
    </div>
  );
});

/** A blip's circle, number, and its move and at-risk marks, around (0, 0). */
export function BlipMarks({ blip, place, colour }: { blip: RadarBlip; place: BlipPlace; colour: string }) {
  const { r } = place;
  const { dx, dy } = towardsCentre(place.x, place.y);
  // A triangle beside the circle: on the centre's side pointing in, or outside pointing out.
  const side = blip.moved === 'in' ? 1 : -1;
  const base = r + 3;
  const tip = r + 14;
  const across = { x: -dy * 7, y: dx * 7 };
  const triangle = `${(dx * side * tip).toFixed(1)},${(dy * side * tip).toFixed(1)} ${(dx * side * base + across.x).toFixed(1)},${(dy * side * base + across.y).toFixed(1)} ${(dx * side * base - across.x).toFixed(1)},${(dy * side * base - across.y).toFixed(1)}`;
  return (
    <>
      {/* Drawn only on hover and focus (the stylesheet); none in the downloaded file. */}
      <circle r={r + 6} className={classes.focusRing} fill="none" stroke="none" />
      {blip.moved === 'new' && (
        <circle r={r + 4} style={{ fill: 'none', stroke: colour }} strokeWidth={2} strokeDasharray="3 2" />
      )}
      {(blip.moved === 'in' || blip.moved === 'out') && (
        <polygon points={triangle} style={{ fill: PALETTE.text }} />
      )}
      <circle
        r={r}
        style={{ fill: colour, stroke: blip.at_risk ? PALETTE.risk : PALETTE.body }}
        strokeWidth={blip.at_risk ? 3 : 1.5}
      />
      <text
        textAnchor="middle"
        dominantBaseline="central"
        fontSize={blip.number > 99 ? r * 0.8 : r * 1.05}
        fontWeight={700}
        style={{ fill: PALETTE.white }}
      >
        {blip.number}
      </text>
      {blip.at_risk && (
        <g transform={`translate(${(r * 0.85).toFixed(1)} ${(-r * 0.85).toFixed(1)})`}>
          <circle r={6} style={{ fill: PALETTE.risk, stroke: PALETTE.body }} strokeWidth={1} />
          <text
            textAnchor="middle"
            dominantBaseline="central"
            fontSize={10}
            fontWeight={700}
            style={{ fill: PALETTE.white }}
          >
            !
          </text>
        </g>
      )}
    </>
  );
}

/** The details of the blip under the pointer or with focus, beside it over the drawing. */
function BlipTooltip({
  id,
  radar,
  blip,
  place,
}: {
  id: string;
  radar: Radar;
  blip: RadarBlip;
  place: BlipPlace;
}) {
  const left = (place.x / SIZE) * 100;
  const top = (place.y / SIZE) * 100;
  const below = place.y < SIZE / 3;
  const horizontal = place.x < SIZE / 3 ? '0%' : place.x > (2 * SIZE) / 3 ? '-100%' : '-50%';
  const offset = (place.r / SIZE) * 100 + 1;
  return (
    <div
      id={id}
      role="tooltip"
      className={classes.tooltip}
      style={{
        left: `${left}%`,
        top: `${below ? top + offset : top - offset}%`,
        transform: `translate(${horizontal}, ${below ? '0' : '-100%'})`,
      }}
    >
      <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {blip.number}. {blip.full_name}
      </Text>
      <Text size="sm">
        {STATUS_NAMES[blip.status]} · {quadrantName(radar, blip.quadrant)}
        {blip.moved ? ` · ${MOVE_NAMES[blip.moved]}` : ''}
      </Text>
      {blip.at_risk && (
        <Text size="sm" className={classes.risk}>
          ! {atRiskText(blip)}
        </Text>
      )}
      {blip.rationale && (
        <Text size="sm" component="p" mt={4} className={classes.rationale}>
          {blip.rationale}
        </Text>
      )}
    </div>
  );
}

/** A legend of the marks: what a dashed ring, a triangle and a red "!" mean. */
export function RadarKey() {
  const place: BlipPlace = { x: CENTRE + 100, y: CENTRE, r: 11 };
  const sample = (moved: RadarBlip['moved'], atRisk = false): RadarBlip => ({
    number: 1,
    repository_id: null,
    full_name: '',
    quadrant: '',
    status: 'adopt',
    moved,
    rationale: '',
    health_grade: null,
    at_risk: atRisk,
    at_risk_causes: [],
  });
  const items: [RadarBlip, string][] = [
    [sample('new'), 'New since the previous edition'],
    [sample('in'), 'Moved in, towards Adopt'],
    [sample('out'), 'Moved out, away from Adopt'],
    [sample(null, true), 'In use but at risk'],
  ];
  return (
    <ul
      className={classes.plainList}
      aria-label="Key"
      style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1.25rem' }}
    >
      {items.map(([blip, label]) => (
        <li key={label} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <svg width={56} height={36} viewBox="-28 -18 56 36" aria-hidden className={classes.keySwatch}>
            {/* Triangles point left (in) or right (out), as for a blip right of the centre. */}
            <BlipMarks blip={blip} place={place} colour={quadrantColour(0)} />
          </svg>
          <Text size="sm">{label}</Text>
        </li>
      ))}
    </ul>
  );
}
