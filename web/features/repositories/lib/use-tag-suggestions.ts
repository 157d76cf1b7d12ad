import { useQuery } from '@tanstack/react-query';
import type { NameCount, TagsResponse } from '#shared/schemas/catalogue.ts';
import { tagsQueryOptions } from '#web/catalogue/get-tags.ts';

const selectSuggestions = (answer: TagsResponse): NameCount[] => answer.suggestions;

/** Up to 8 most-used tags of the member's own repositories, counted by the server (`GET /tags`). */
export function useTagSuggestions() {
  return useQuery({ ...tagsQueryOptions(), select: selectSuggestions });
}
