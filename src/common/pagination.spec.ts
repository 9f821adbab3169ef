import { pageWindow, paginationOf } from './pagination.js';

describe('pagination', () => {
  it('turns a page number into the offset of its first row', () => {
    expect(pageWindow({ page: 1, limit: 20 })).toEqual({ offset: 0, limit: 20 });
    expect(pageWindow({ page: 3, limit: 50 })).toEqual({ offset: 100, limit: 50 });
  });

  it('counts the pages a total fills, the last one partial, none for nothing', () => {
    expect(paginationOf({ page: 1, limit: 20 }, 41)).toEqual({ page: 1, limit: 20, total: 41, pages: 3 });
    expect(paginationOf({ page: 2, limit: 20 }, 40)).toEqual({ page: 2, limit: 20, total: 40, pages: 2 });
    expect(paginationOf({ page: 1, limit: 20 }, 0)).toEqual({ page: 1, limit: 20, total: 0, pages: 0 });
  });
});
