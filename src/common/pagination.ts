/** A page asked for by number, from 1, with its size. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** The rows a page covers, for a query's OFFSET and LIMIT. */
export function pageWindow({ page, limit }: PageRequest): { offset: number; limit: number } {
  return { offset: (page - 1) * limit, limit };
}

/** The pagination block of a list answer: `pages` is 0 when nothing matches. */
export function paginationOf(
  { page, limit }: PageRequest,
  total: number,
): { page: number; limit: number; total: number; pages: number } {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}
