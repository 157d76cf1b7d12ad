/**
 * The total behind a `per_page=1` list: the page number of `rel="last"` in GitHub's `Link` header; without
 * one, the list fits in one page and its length is the total
 * (docs/architecture.md#what-one-repository-costs).
 */
export function countFromLink(link: string | null | undefined, itemsOnFirstPage: number): number {
  const last = link?.match(/<[^>]*[?&]page=(\d+)[^>]*>;\s*rel="last"/);
  return last?.[1] ? Number(last[1]) : itemsOnFirstPage;
}
