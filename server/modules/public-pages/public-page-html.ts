import { createHash } from 'node:crypto';
import type { PublicRadarPage, PublicViewPage } from '#shared/schemas/public-pages.ts';

/**
 * The public pages as HTML (docs/product.md#public-pages): written on the server, no application
 * bundle and no script at all, so they work without JavaScript and load at once. One stylesheet
 * in the page, allowed by its hash in the page's own CSP; light and dark follow the reader's
 * system. Every text is escaped by `html`.
 */

const CSS = `:root{color-scheme:light dark;--bg:#fff;--fg:#1a1b1e;--muted:#495057;--line:#dee2e6;--link:#1864ab}
@media (prefers-color-scheme:dark){:root{--bg:#1a1b1e;--fg:#e9ecef;--muted:#b5bbc2;--line:#373a40;--link:#74c0fc}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header,main,footer{max-width:60rem;margin:0 auto;padding:1rem}header{border-bottom:1px solid var(--line)}
h1{font-size:1.6rem;margin:.25rem 0}h2{font-size:1.1rem;margin:0;overflow-wrap:anywhere}h3{font-size:1rem;margin:1rem 0 .25rem}
a{color:var(--link)}p{margin:.25rem 0}.muted{color:var(--muted)}ol,ul{padding:0;margin:0;list-style:none}
.repos>li{padding:.75rem 0;border-bottom:1px solid var(--line)}b{font-weight:600;color:var(--muted)}.facts{font-variant-numeric:tabular-nums}
.notes{white-space:pre-wrap}.quadrants{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr))}
.quadrants section{border:1px solid var(--line);border-radius:.5rem;padding:.75rem}.blips li{margin:.25rem 0}.blips .n{font-variant-numeric:tabular-nums;color:var(--muted)}
footer{color:var(--muted);font-size:.875rem}`;

/** The pages' CSP: nothing but the stylesheet above (no script, no image, no form, no frame). */
export const PUBLIC_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe in HTML content and quoted attribute values. */
export function html(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const number = new Intl.NumberFormat('en-US');
const GRADES: Record<string, string> = {
  healthy: 'Healthy',
  watch: 'Watch',
  at_risk: 'At risk',
  archived: 'Archived',
  unknown: 'Not yet assessed',
};
const RINGS: Record<string, string> = {
  adopt: 'Adopt',
  trial: 'Trial',
  assess: 'Assess',
  hold: 'Hold',
  retired: 'Retired',
};

interface PageFrame {
  appName: string;
  title: string;
  /** Under the title: what the page holds and when it was published. */
  summary: string;
  indexable: boolean;
  /** The same page as JSON (and Atom, for a view). */
  json: string;
  atom?: string;
  body: string;
}

function frame(page: PageFrame): string {
  const robots = page.indexable ? '' : '<meta name="robots" content="noindex">';
  const atom = page.atom
    ? `<link rel="alternate" type="application/atom+xml" title="Activity" href="${html(page.atom)}">`
    : '';
  const links = [
    `<a href="${html(page.json)}">JSON</a>`,
    ...(page.atom ? [`<a href="${html(page.atom)}">Atom feed</a>`] : []),
  ];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${robots}<title>${html(page.title)} · ${html(page.appName)}</title>${atom}<style>${CSS}</style></head><body><header><p class="muted">${html(page.appName)}</p><h1>${html(page.title)}</h1><p class="muted">${html(page.summary)}</p></header><main>${page.body}</main><footer><p>Published with ${html(page.appName)}. Also as ${links.join(' · ')}.</p></footer></body></html>`;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** A published view: one entry per repository, with the fields its publisher chose. */
export function renderViewPage(
  page: PublicViewPage,
  options: { appName: string; indexable: boolean; slug: string },
): string {
  const items = page.repositories.map((repository) => {
    // One line of facts per repository, "Stars 1,234 · 30 days +56 · …": compact enough that
    // 100 rows with every field stay under 40 KB.
    const facts: string[] = [];
    const fact = (term: string, value: string) => facts.push(`<b>${term}</b> ${html(value)}`);
    if (repository.stars !== undefined) fact('Stars', number.format(repository.stars));
    if (repository.stars_30d !== undefined)
      fact(
        '30 days',
        repository.stars_30d === null
          ? '—'
          : `${repository.stars_30d >= 0 ? '+' : ''}${number.format(repository.stars_30d)}`,
      );
    if (repository.health)
      fact(
        'Health',
        `${GRADES[repository.health.grade] ?? repository.health.grade}${repository.health.score === null ? '' : ` (${repository.health.score})`}`,
      );
    if (repository.status !== undefined)
      fact('Status', repository.status ? (RINGS[repository.status] ?? repository.status) : '—');
    if (repository.release !== undefined)
      fact(
        'Release',
        repository.release
          ? `${repository.release.version}${repository.release.date ? ` (${repository.release.date})` : ''}`
          : '—',
      );
    const parts = [`<h2><a href="${html(repository.url)}">${html(repository.name)}</a></h2>`];
    if (repository.description) parts.push(`<p>${html(repository.description)}</p>`);
    if (facts.length > 0) parts.push(`<p class="facts">${facts.join(' · ')}</p>`);
    if (repository.tags && repository.tags.length > 0)
      parts.push(`<p class="tags"><b>Tags</b> ${repository.tags.map(html).join(', ')}</p>`);
    if (repository.notes) parts.push(`<p class="notes"><b>Notes</b> ${html(repository.notes)}</p>`);
    return `<li>${parts.join('')}</li>`;
  });
  const shown = page.repositories.length;
  const summary =
    page.total === 0
      ? `No public repositories match this view. Published ${day(page.published_at)}.`
      : `${shown < page.total ? `The first ${number.format(shown)} of ${number.format(page.total)}` : number.format(page.total)} public ${page.total === 1 ? 'repository' : 'repositories'}. Published ${day(page.published_at)}.`;
  return frame({
    appName: options.appName,
    title: page.title,
    summary,
    indexable: options.indexable,
    json: `${options.slug}.json`,
    atom: `${options.slug}.atom`,
    body: `<ol class="repos" aria-label="Repositories">${items.join('')}</ol>`,
  });
}

/** A published radar edition: each quadrant's rings, blips numbered as on the team's radar. */
export function renderRadarPage(
  page: PublicRadarPage,
  options: { appName: string; indexable: boolean; slug: string },
): string {
  const sections = page.quadrants.map((quadrant) => {
    const blips = page.blips.filter((blip) => blip.quadrant === quadrant.key);
    const rings = Object.keys(RINGS).flatMap((ring) => {
      const inRing = blips.filter((blip) => blip.ring === ring);
      if (inRing.length === 0) return [];
      const items = inRing.map(
        (blip) =>
          `<li><span class="n">${blip.number}.</span> ${blip.url ? `<a href="${html(blip.url)}">${html(blip.name)}</a>` : html(blip.name)}${blip.rationale ? `<p class="notes">${html(blip.rationale)}</p>` : ''}</li>`,
      );
      return [`<h3>${RINGS[ring]}</h3><ol class="blips">${items.join('')}</ol>`];
    });
    return `<section aria-label="${html(quadrant.name)}"><h2>${html(quadrant.name)}</h2>${rings.length > 0 ? rings.join('') : '<p class="muted">Nothing here.</p>'}</section>`;
  });
  return frame({
    appName: options.appName,
    title: page.title,
    summary: `${number.format(page.blips.length)} ${page.blips.length === 1 ? 'entry' : 'entries'} of public repositories. Published ${day(page.published_at)}.`,
    indexable: options.indexable,
    json: `${options.slug}.json`,
    body: `<div class="quadrants">${sections.join('')}</div>`,
  });
}
