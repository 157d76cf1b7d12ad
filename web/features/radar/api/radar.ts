import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type QuadrantsBody, quadrantsSchema } from '#shared/schemas/decisions.ts';
import {
  editionCompareSchema,
  type RadarQuery,
  radarEditionResponseSchema,
  radarEditionsSchema,
  radarSchema,
} from '#shared/schemas/radar.ts';
import { CATALOGUE_KEY, compactQuery } from '#web/catalogue/catalogue-keys.ts';
import { apiFetch, apiRequest } from '#web/lib/api-client.ts';
import { fileNameFromDisposition, saveBlob } from '#web/lib/downloads.ts';

/**
 * The radar's query keys, under the catalogue's prefix: an add, a sync or a deletion changes
 * blips (health, at-risk causes, visibility), so the catalogue's one invalidation refreshes it.
 */
export const radarKeys = {
  all: [...CATALOGUE_KEY, 'radar'] as const,
  radar: (query: object) => [...CATALOGUE_KEY, 'radar', 'view', query] as const,
  editions: [...CATALOGUE_KEY, 'radar', 'editions'] as const,
  compare: (a: number, b: number) => [...CATALOGUE_KEY, 'radar', 'compare', a, b] as const,
  /** The same key as the decision tab's, so a rename shows there too. */
  quadrants: ['decisions', 'quadrants'] as const,
};

/** `tag=…&edition=…` without empty values. */
export function radarParams(query: RadarQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(compactQuery(query))) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** GET /radar?tag=&edition= (docs/product.md#the-radar). */
export function useRadar(query: RadarQuery) {
  const compact = compactQuery(query);
  return useQuery(
    queryOptions({
      queryKey: radarKeys.radar(compact),
      queryFn: ({ signal }) => apiRequest(`/radar${radarParams(compact)}`, radarSchema, { signal }),
      // Switching tag or edition keeps the drawing until the next one arrives.
      placeholderData: keepPreviousData,
    }),
  );
}

/** GET /radar/editions: published editions, newest first. */
export function useRadarEditions() {
  return useQuery({
    queryKey: radarKeys.editions,
    queryFn: async ({ signal }) =>
      (await apiRequest('/radar/editions', radarEditionsSchema, { signal })).editions,
  });
}

/** GET /radar/editions/{a}/compare/{b}, once both are chosen. */
export function useEditionCompare(a: number | null, b: number | null) {
  return useQuery({
    queryKey: radarKeys.compare(a ?? 0, b ?? 0),
    queryFn: ({ signal }) =>
      apiRequest(`/radar/editions/${a}/compare/${b}`, editionCompareSchema, { signal }),
    enabled: a !== null && b !== null && a !== b,
  });
}

/** POST /radar/editions (admins): freezes the current radar under a name. */
export function usePublishEdition() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      (await apiRequest('/radar/editions', radarEditionResponseSchema, { method: 'POST', body: { name } }))
        .edition,
    onSuccess: () => client.invalidateQueries({ queryKey: radarKeys.all }),
  });
}

/** GET /radar/quadrants: the names the quadrants editor starts from. */
export function useQuadrants(enabled: boolean) {
  return useQuery({
    queryKey: radarKeys.quadrants,
    queryFn: ({ signal }) => apiRequest('/radar/quadrants', quadrantsSchema, { signal }),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** PUT /radar/quadrants (admins): the four quadrants' names. */
export function useSaveQuadrants() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuadrantsBody) =>
      apiRequest('/radar/quadrants', quadrantsSchema, { method: 'PUT', body }),
    onSuccess: (answer) => {
      client.setQueryData(radarKeys.quadrants, answer);
      return client.invalidateQueries({ queryKey: radarKeys.all });
    },
  });
}

export type RadarFileKind = 'csv' | 'json';

/**
 * GET /radar.csv or /radar.json with the bearer header (apiFetch, as the list's export does),
 * saved under the name the server gives it (`radar.csv`, `radar-2026-q4.json`).
 */
export async function downloadRadarFile(kind: RadarFileKind, query: RadarQuery): Promise<string> {
  const response = await apiFetch(`/radar.${kind}${radarParams(query)}`, {
    headers: { Accept: kind === 'csv' ? 'text/csv' : 'application/json' },
  });
  const blob = await response.blob();
  const fileName = fileNameFromDisposition(response.headers.get('Content-Disposition'), `radar.${kind}`);
  saveBlob(blob, fileName);
  return fileName;
}

export function useDownloadRadarFile() {
  return useMutation({
    mutationFn: ({ kind, query }: { kind: RadarFileKind; query: RadarQuery }) =>
      downloadRadarFile(kind, query),
  });
}
