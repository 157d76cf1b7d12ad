/**
 * The drawing's colours. On screen they are Mantine's CSS variables (so light and dark schemes
 * both work); the downloaded SVG must stand alone, so `exportSvg` swaps each variable for the
 * light scheme's value.
 */
export const PALETTE = {
  text: 'var(--mantine-color-text)',
  body: 'var(--mantine-color-body)',
  border: 'var(--mantine-color-default-border)',
  risk: 'var(--mantine-color-red-8)',
  white: 'var(--mantine-color-white)',
  font: 'var(--mantine-font-family)',
  /** One colour per quadrant, dark enough for white numbers in both schemes. */
  quadrants: [
    'var(--mantine-color-blue-8)',
    'var(--mantine-color-teal-8)',
    'var(--mantine-color-grape-8)',
    'var(--mantine-color-orange-9)',
  ],
} as const;

/** The light scheme's values of the variables above (Mantine's default palette). */
const EXPORT_VALUES: Record<string, string> = {
  [PALETTE.text]: '#212529',
  [PALETTE.body]: '#ffffff',
  [PALETTE.border]: '#ced4da',
  [PALETTE.risk]: '#e03131',
  [PALETTE.white]: '#ffffff',
  [PALETTE.font]: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  [PALETTE.quadrants[0]]: '#1971c2',
  [PALETTE.quadrants[1]]: '#099268',
  [PALETTE.quadrants[2]]: '#9c36b5',
  [PALETTE.quadrants[3]]: '#d9480f',
};

export function quadrantColour(index: number): string {
  return PALETTE.quadrants[index % PALETTE.quadrants.length] ?? PALETTE.text;
}

/** Every CSS variable of the palette in `markup`, replaced by its fixed value. */
export function resolvePalette(markup: string): string {
  let resolved = markup;
  for (const [variable, value] of Object.entries(EXPORT_VALUES))
    resolved = resolved.replaceAll(variable, value.replaceAll("'", '&apos;'));
  return resolved;
}

/**
 * The rendered drawing as a standalone SVG file: colours fixed, a white background, no
 * focus or ARIA wiring (which means nothing outside the page).
 */
export function exportSvg(svg: SVGSVGElement, title: string): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  for (const attribute of ['class', 'role', 'aria-label', 'aria-hidden']) copy.removeAttribute(attribute);
  for (const element of Array.from(copy.querySelectorAll('*'))) {
    for (const attribute of ['tabindex', 'role', 'aria-label', 'aria-describedby', 'aria-hidden', 'class'])
      element.removeAttribute(attribute);
  }
  const viewBox = copy.getAttribute('viewBox')?.split(/\s+/).map(Number) ?? [0, 0, 800, 800];
  const [width = 800, height = 800] = viewBox.slice(2);
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  const namespace = 'http://www.w3.org/2000/svg';
  const background = document.createElementNS(namespace, 'rect');
  background.setAttribute('width', String(width));
  background.setAttribute('height', String(height));
  background.setAttribute('fill', '#ffffff');
  const heading = document.createElementNS(namespace, 'title');
  heading.textContent = title;
  copy.prepend(heading, background);
  const markup = new XMLSerializer().serializeToString(copy);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${resolvePalette(markup)}\n`;
}
